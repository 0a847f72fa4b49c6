/** Tool calls that check the result envelope, a REST client, and polling. */
import { expect } from "vitest";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { ErrorData } from "@bancada/testkit";

export interface Box {
  id: string;
  name: string;
  state: string;
  stateReason: string | null;
  operation: { kind: string; startedAt: string } | null;
  vcpus: number;
  memMiB: number;
  dataGiB: number;
  autoSuspendSeconds: number;
  maxRunMinutes: number;
  deleteAfterSeconds: number | null;
  metadata: Record<string, string>;
  enforcement: Record<string, unknown>;
  [key: string]: unknown;
}

export interface ExecResult {
  stdout: string;
  stderr: string;
  exitCode: number | null;
  signal: string | null;
  timedOut: boolean;
  durationMs: number;
  stdoutTruncated: boolean;
  stderrTruncated: boolean;
  stdoutBytes: number;
  stderrBytes: number;
}

export interface Job {
  id: string;
  boxId: string;
  name: string | null;
  status: "running" | "succeeded" | "failed" | "killed";
  exitCode: number | null;
  signal: string | null;
  statusReason: string | null;
  envNames: string[];
  [key: string]: unknown;
}

export type ErrorBody = ErrorData["error"];

interface Outcome<T> {
  isError: boolean;
  data: T;
  text: string;
}

export async function call<T>(client: Client, name: string, args: Record<string, unknown>, timeoutMs = 60_000): Promise<Outcome<T>> {
  const result = await client.callTool({ name, arguments: args }, undefined, { timeout: timeoutMs });
  const first = (result.content as { type: string; text?: string }[])[0];
  return { isError: result.isError === true, data: result.structuredContent as T, text: first?.text ?? "" };
}

/** Calls a tool that must succeed; checks that content[0].text is the JSON of structuredContent. */
export async function ok<T = { box: Box }>(client: Client, tool: string, args: Record<string, unknown>, timeoutMs?: number): Promise<T> {
  const outcome = await call<T>(client, tool, args, timeoutMs);
  if (outcome.isError) throw new Error(`${tool} failed unexpectedly: ${outcome.text.slice(0, 500)}`);
  expect(JSON.parse(outcome.text)).toEqual(outcome.data);
  return outcome.data;
}

/** Calls a tool that must fail with `code`; returns the error body. */
export async function fails(client: Client, tool: string, args: Record<string, unknown>, code: string): Promise<ErrorBody> {
  const outcome = await call<ErrorData>(client, tool, args);
  expect(outcome.isError, `${tool} should fail with ${code}, got ${outcome.text.slice(0, 300)}`).toBe(true);
  expect(outcome.data.error.code, outcome.text.slice(0, 300)).toBe(code);
  expect(outcome.data.error.message.length).toBeGreaterThan(0);
  expect(JSON.parse(outcome.text)).toEqual(outcome.data);
  return outcome.data.error;
}

export const run = (client: Client, boxId: string, cmd: string, extra: Record<string, unknown> = {}) =>
  ok<ExecResult>(client, "exec", { boxId, cmd, ...extra }, 120_000);

export function issuePaths(error: ErrorBody): string[] {
  return ((error.details?.issues ?? []) as { path: string }[]).map((issue) => issue.path);
}

export async function until<T>(probe: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 10_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (done(value) || Date.now() > end) return value;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

export interface RestResponse<T = Record<string, unknown>> {
  status: number;
  body: T;
}

export function restClient(baseUrl: string, key: string | undefined) {
  return async <T = Record<string, unknown>>(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<RestResponse<T>> => {
    const response = await fetch(`${baseUrl}${path}`, {
      method,
      headers: { ...(key ? { Authorization: `Bearer ${key}` } : {}), ...(body === undefined ? {} : { "Content-Type": "application/json" }), ...headers },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await response.text();
    return { status: response.status, body: text ? (JSON.parse(text) as T) : ({} as T) };
  };
}

export const allScopes = ["boxes:read", "boxes:write", "boxes:delete", "boxes:exec"];
