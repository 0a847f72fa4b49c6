/**
 * A line-level reading of Markdown that is just enough for splitting and describing documents:
 * ATX and setext headings, fenced code (whose `#` lines are not headings), blank lines, other text.
 */
import { inlineToPlain } from "./inline.js";

export type MarkdownLine =
  | { kind: "heading"; level: number; text: string; anchor?: string }
  | { kind: "code"; raw: string }
  | { kind: "blank"; raw: string }
  | { kind: "text"; raw: string };

const atx = /^ {0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$/;
const fenceOpen = /^ {0,3}(`{3,}|~{3,})/;
const setextUnderline = /^ {0,3}(=+|-+)[ \t]*$/;
const blockStart = /^ {0,3}([-*+]\s|\d+[.)]\s|>|\||<|!\[)/;

export function readLines(markdown: string): MarkdownLine[] {
  const lines = markdown.split(/\r?\n/);
  const out: MarkdownLine[] = [];
  let fence: { char: string; length: number } | undefined;
  for (let i = 0; i < lines.length; i++) {
    const raw = lines[i] ?? "";
    if (fence) {
      out.push({ kind: "code", raw });
      const close = fenceOpen.exec(raw);
      if (close?.[1] && close[1][0] === fence.char && close[1].length >= fence.length && raw.trim() === close[1]) fence = undefined;
      continue;
    }
    const open = fenceOpen.exec(raw);
    if (open?.[1] && !(open[1][0] === "`" && raw.slice(raw.indexOf("`") + open[1].length).includes("`"))) {
      fence = { char: open[1][0]!, length: open[1].length };
      out.push({ kind: "code", raw });
      continue;
    }
    const heading = atx.exec(raw);
    if (heading?.[1]) {
      out.push({ kind: "heading", level: heading[1].length, ...headingText(heading[2] ?? "") });
      continue;
    }
    const underline = setextUnderline.exec(lines[i + 1] ?? "");
    if (underline?.[1] && raw.trim() && !blockStart.test(raw) && (out.at(-1)?.kind ?? "blank") !== "text") {
      out.push({ kind: "heading", level: underline[1][0] === "=" ? 1 : 2, ...headingText(raw) });
      i++;
      continue;
    }
    out.push(raw.trim() ? { kind: "text", raw } : { kind: "blank", raw });
  }
  return out;
}

/** A heading's text and its explicit anchor, written `## Title {#anchor}` (Pandoc, kramdown, and our HTML conversion). */
function headingText(raw: string): { text: string; anchor?: string } {
  const explicit = /\s*\{#([^\s{}#]+)\}\s*$/.exec(raw);
  const text = inlineToPlain(explicit ? raw.slice(0, explicit.index) : raw);
  return explicit?.[1] ? { text, anchor: explicit[1] } : { text };
}

/** A text line that begins a list, quote, table, HTML block or image rather than a paragraph. */
export function startsBlock(raw: string): boolean {
  return blockStart.test(raw);
}
