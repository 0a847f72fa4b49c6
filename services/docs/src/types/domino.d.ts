// The few DOM members we use from @mixmark-io/domino (its own typings need the DOM lib and name another module).
declare module "@mixmark-io/domino" {
  export interface DominoElement {
    readonly tagName: string;
    readonly nodeName: string;
    readonly textContent: string | null;
    readonly parentElement: DominoElement | null;
    readonly firstChild: DominoElement | null;
    getAttribute(name: string): string | null;
    querySelector(selector: string): DominoElement | null;
    querySelectorAll(selector: string): ArrayLike<DominoElement>;
    remove(): void;
  }
  export interface DominoDocument extends DominoElement {
    readonly title: string;
    readonly body: DominoElement | null;
  }
  const domino: { createDocument(html?: string, force?: boolean): DominoDocument };
  export default domino;
}
