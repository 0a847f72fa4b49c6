export interface ComponentPermissions {
  component: string;
  /** Subjects the component may publish to. */
  publish: string[];
  /** Subjects it may subscribe to; `"<subject> <queue>"` only in that queue group. */
  subscribe: string[];
  /** May publish to the reply subject of a message it received. */
  allowResponses: boolean;
}
export const defaultRoot: string;
export function serviceNames(source?: string): string[];
export function permissionTable(options?: { root?: string; services?: string[] }): ComponentPermissions[];
export function passwordVariable(component: string): string;
export function renderAuthorization(options?: { root?: string; services?: string[]; password?: (component: string) => string }): string;
export function header(root: string): string;
export function renderK8sAuth(options?: { root?: string }): string;
