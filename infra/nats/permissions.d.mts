import type { RegisteredService } from "@bancada/service-registry";

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
export function serviceNames(): string[];
/** A service by name (its registered `bus` block, or none), or as the registry gives it. */
export type PermittedService = string | Pick<RegisteredService, "name" | "bus">;
export function permissionTable(options?: { root?: string; services?: PermittedService[] }): ComponentPermissions[];
export function passwordVariable(component: string): string;
export function renderAuthorization(options?: {
  root?: string;
  services?: PermittedService[];
  password?: (component: string) => string;
}): string;
export function header(root: string): string;
export function renderK8sAuth(options?: { root?: string }): string;
