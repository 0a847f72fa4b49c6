/**
 * The assertions every service's tests make on a tool result through the gateway: a success whose text is
 * the JSON of its structured result, or an error with the envelope of docs/errors.md (code, a message, the same JSON
 * in the text), and the same envelope from a REST route. One place, so that every service is held to the same
 * contract.
 */
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { expect } from "vitest";
import { callTool, type ErrorData } from "./mcp-client.js";

export type ErrorBody = ErrorData["error"];

/** Calls a tool that must succeed; checks that content[0].text is the JSON of structuredContent. */
export async function expectToolResult<T>(
  client: Client,
  tool: string,
  args: Record<string, unknown>,
  options: { timeoutMs?: number } = {},
): Promise<T> {
  const outcome = await callTool<T>(client, tool, args, options);
  if (outcome.isError) throw new Error(`${tool} failed unexpectedly: ${outcome.text.slice(0, 500)}`);
  expect(JSON.parse(outcome.text)).toEqual(outcome.data);
  return outcome.data;
}

/** Calls a tool that must fail with `code`; checks the error envelope and returns the error body. */
export async function expectToolError(client: Client, tool: string, args: Record<string, unknown>, code: string): Promise<ErrorBody> {
  const outcome = await callTool<ErrorData>(client, tool, args);
  expect(outcome.isError, `${tool} should fail with ${code}, got ${outcome.text.slice(0, 400)}`).toBe(true);
  expect(outcome.data.error.code, outcome.text.slice(0, 400)).toBe(code);
  expect(typeof outcome.data.error.message).toBe("string");
  expect(outcome.data.error.message.length).toBeGreaterThan(0);
  expect(JSON.parse(outcome.text)).toEqual(outcome.data);
  return outcome.data.error;
}

/** The distinct field paths named by `details.issues` of a validation error. */
export function issuePaths(error: ErrorBody): string[] {
  const issues = (error.details?.issues ?? []) as { path: string }[];
  expect(Array.isArray(issues)).toBe(true);
  return [...new Set(issues.map((issue) => issue.path))];
}

/** A REST error response: the status, and the `{ error: { code, message, details? } }` envelope. */
export function expectRestError(response: { status: number; body: unknown }, status: number, code: string): ErrorBody {
  const body = response.body as ErrorData;
  expect(response.status, JSON.stringify(response.body).slice(0, 400)).toBe(status);
  expect(body.error.code).toBe(code);
  expect(typeof body.error.message).toBe("string");
  expect(body.error.message.length).toBeGreaterThan(0);
  return body.error;
}
