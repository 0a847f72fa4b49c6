/** Tool calls that check the result envelope, and a REST client, shared by the docs test files. */
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { type ErrorData, expectToolResult } from "@bancada/testkit";

export interface SearchResult {
  parent: string;
  id: string;
  title: string;
  uri: string;
  content: string;
}
export interface SearchPage {
  results: SearchResult[];
  nextPageToken?: string;
}
export interface Document {
  name: string;
  uri: string;
  content: string;
  description: string;
  title: string;
}
export interface Answer {
  answer: string;
  references: { name: string; uri: string; title: string; excerpt: string }[];
}

export type ErrorBody = ErrorData["error"];

/** Calls a tool that must succeed (testkit's check of the result envelope). */
export const ok = <T = unknown>(client: Client, tool: string, args: Record<string, unknown>): Promise<T> =>
  expectToolResult<T>(client, tool, args);
export { expectToolError as fails, expectRestError, issuePaths } from "@bancada/testkit";

export function search(client: Client, query: string, extra: Record<string, unknown> = {}): Promise<SearchPage> {
  return ok<SearchPage>(client, "search_documents", { query, ...extra });
}

export interface RestResponse<T = Record<string, unknown>> {
  status: number;
  headers: Headers;
  body: T;
}

export type Rest = <T = Record<string, unknown>>(method: string, path: string, body?: unknown) => Promise<RestResponse<T>>;

export function restClient(baseUrl: string, key: string | undefined): Rest {
  return async (method, path, body) => {
    const headers: Record<string, string> = key === undefined ? {} : { Authorization: `Bearer ${key}` };
    if (body !== undefined) headers["Content-Type"] = "application/json";
    const response = await fetch(`${baseUrl}${path}`, { method, headers, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
    const raw = await response.text();
    return { status: response.status, headers: response.headers, body: raw ? JSON.parse(raw) : {} };
  };
}
