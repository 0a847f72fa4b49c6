/** Small helpers shared by the scripts test files: tool calls that check the result envelope, and a REST client. */
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { type ErrorData, expectToolResult } from "@bancada/testkit";

export interface Script {
  id: string;
  title: string;
  text: string;
  status: "draft" | "ready" | "review" | "completed";
  revision: number;
  createdAt: string;
  updatedAt: string;
  deletedAt: string | null;
  createdBy: string;
  updatedBy: string;
}

export type ListItem = Omit<Script, "text"> & { preview: string };

export interface ListResult {
  scripts: ListItem[];
  hasMore: boolean;
  nextOffset: number | null;
}

export type ErrorBody = ErrorData["error"];

/** Calls a tool that must succeed (testkit's check of the result envelope). */
export const ok = <T = { script: Script }>(client: Client, tool: string, args: Record<string, unknown>): Promise<T> =>
  expectToolResult<T>(client, tool, args);
export { expectToolError as fails, expectRestError, issuePaths } from "@bancada/testkit";

export interface RestResponse<T = Record<string, unknown>> {
  status: number;
  headers: Headers;
  body: T;
}

export type Rest = <T = Record<string, unknown>>(
  method: string,
  path: string,
  options?: { body?: unknown; headers?: Record<string, string> },
) => Promise<RestResponse<T>>;

/** A REST client for `baseUrl` with `Authorization: Bearer <key>` (no header at all when key is undefined). */
export function restClient(baseUrl: string, key: string | undefined): Rest {
  return async (method, path, options = {}) => {
    const headers: Record<string, string> = { ...(key === undefined ? {} : { Authorization: `Bearer ${key}` }), ...options.headers };
    if (options.body !== undefined) headers["Content-Type"] = "application/json";
    const response = await fetch(`${baseUrl}${path}`, {
      method,
      headers,
      ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) }),
    });
    const raw = await response.text();
    return { status: response.status, headers: response.headers, body: raw ? JSON.parse(raw) : {} };
  };
}

/** A per-file marker so searches only hit the scripts a test created. */
export function marker(label: string): string {
  return `${label}-${Math.random().toString(36).slice(2, 10)}`;
}
