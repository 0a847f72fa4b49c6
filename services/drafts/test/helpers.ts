/** Shared by the drafts test files: tool calls that check the result envelope, a REST client, people and workspaces. */
import { randomUUID } from "node:crypto";
import { expect } from "vitest";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { Header, type CallReply } from "@bancada/contracts";
import { decodeJson, encodeJson, signBusMessage } from "@bancada/service-kit";
import { connectClient, type ErrorData, type Stack, expectToolResult } from "@bancada/e2e";

export interface Asset {
  id: string;
  filename: string;
  mime: string;
  bytes: number;
  sha256: string;
  content_path: string;
  created_at: string;
}

export interface Draft {
  id: string;
  workspace_id: string;
  revision: number;
  state: "draft" | "submitting" | "submitted";
  caption: string;
  account_ids: string[];
  assets: Asset[];
  asset_count: number;
  account_count: number;
  created_by: string | null;
  updated_by: string | null;
  created_at: string;
  updated_at: string;
  submitted_at: string | null;
  submit_error: string | null;
}

export interface Summary {
  id: string;
  workspace_id: string;
  revision: number;
  state: Draft["state"];
  caption_preview: string;
  asset_count: number;
  account_count: number;
  created_by: string | null;
  updated_by: string | null;
  created_at: string;
  updated_at: string;
}

export interface Page {
  drafts: Summary[];
  next_cursor: { updated_at: string; id: string } | null;
  returned_count: number;
}

export type ErrorBody = ErrorData["error"];

/** Calls a tool that must succeed (testkit's check of the result envelope). */
export const ok = <T = { draft: Draft }>(client: Client, tool: string, args: Record<string, unknown>): Promise<T> =>
  expectToolResult<T>(client, tool, args);
export { expectToolError as fails, expectRestError, issuePaths } from "@bancada/testkit";

export const allScopes = ["drafts:read", "drafts:write"];

export interface RestResponse<T = Record<string, unknown>> {
  status: number;
  headers: Headers;
  body: T;
}

export type Rest = <T = Record<string, unknown>>(
  method: string,
  path: string,
  options?: { body?: unknown; raw?: Uint8Array; headers?: Record<string, string> },
) => Promise<RestResponse<T>>;

/** A REST client with `Authorization: Bearer <key>`; `raw` sends bytes as they are. */
export function restClient(baseUrl: string, key: string): Rest {
  return async (method, path, options = {}) => {
    const headers: Record<string, string> = { Authorization: `Bearer ${key}`, ...options.headers };
    let payload: Uint8Array | string | undefined;
    if (options.raw) {
      payload = options.raw;
      headers["Content-Type"] ??= "application/octet-stream";
    } else if (options.body !== undefined) {
      payload = JSON.stringify(options.body);
      headers["Content-Type"] = "application/json";
    }
    const response = await fetch(`${baseUrl}${path}`, { method, headers, ...(payload === undefined ? {} : { body: payload }) });
    const text = await response.text();
    const json = response.headers.get("content-type")?.includes("json") && text ? JSON.parse(text) : { text };
    return { status: response.status, headers: response.headers, body: json };
  };
}

export interface Person {
  personId: string;
  key: string;
  client: Client;
  rest: Rest;
}

/** A person with a key (drafts scopes, writes allowed unless said otherwise), an MCP client and a REST client. */
export async function person(
  stack: Stack,
  options: { accountId?: string; personId?: string; scopes?: string[]; allowWrites?: boolean; profile?: "core" | "full" } = {},
): Promise<Person> {
  const personId = options.personId ?? randomUUID();
  const key = await stack.createKey({
    accountId: options.accountId ?? "acct-drafts",
    personId,
    scopes: options.scopes ?? allScopes,
    allowWrites: options.allowWrites ?? true,
  });
  const client = await connectClient(stack.mcpUrl, key, options.profile ? { profile: options.profile } : {});
  return { personId, key, client, rest: restClient(stack.baseUrl, key) };
}

/** A workspace owned by `owner`, with the other people added in the given roles. */
export async function workspace(
  owner: Person,
  members: [Person, "viewer" | "editor" | "admin" | "owner"][] = [],
  name = "Equipe",
): Promise<string> {
  const created = await owner.rest<{ workspace: { id: string } }>("POST", "/v1/workspaces", { body: { name } });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const id = created.body.workspace.id;
  for (const [member, role] of members) {
    const added = await owner.rest("PUT", `/v1/workspaces/${id}/members/${encodeURIComponent(member.personId)}`, { body: { role } });
    expect(added.status, JSON.stringify(added.body)).toBe(201);
  }
  return id;
}

export async function createDraft(client: Client, workspaceId: string, fields: Record<string, unknown> = {}): Promise<Draft> {
  return (await ok(client, "sosoapi_create_content_draft", { workspace_id: workspaceId, request_id: randomUUID(), ...fields })).draft;
}

export async function closeAll(...people: (Person | undefined)[]): Promise<void> {
  await Promise.all(people.map((p) => p?.client.close()));
}

/** Polls until `check` returns a value (not undefined), or fails after `timeoutMs`. */
export async function eventually<T>(check: () => Promise<T | undefined>, timeoutMs = 15_000, what = "condition"): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** The smallest files that pass as a PNG and an MP4 (the service types media by its first bytes). */
export function png(size = 64): Uint8Array {
  const bytes = new Uint8Array(size);
  bytes.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  for (let i = 8; i < size; i++) bytes[i] = (i * 31) % 251;
  return bytes;
}

export function mp4(size = 64): Uint8Array {
  const bytes = new Uint8Array(size);
  bytes.set([0, 0, 0, 0x18, ...new TextEncoder().encode("ftypisom")]);
  for (let i = 12; i < size; i++) bytes[i] = (i * 17) % 253;
  return bytes;
}

/**
 * One tool call sent straight to the service over the bus, as the gateway's call router sends it (tagged
 * with the drafts key the gateway derives), with the transport the gateway would mark ("stdio" for the
 * stdio server): the gateway's own checks are skipped.
 */
export async function callOverBus(stack: Stack, key: string, tool: string, args: unknown, transport: "http" | "stdio"): Promise<CallReply> {
  const principal = await stack.gateway.keys.resolve(key, "full");
  const subject = stack.subjects.call("drafts");
  const data = encodeJson({ kind: "tool", tool, args });
  const deadline = Date.now() + 60_000;
  const plain = {
    [Header.principal]: JSON.stringify(principal),
    [Header.callId]: randomUUID(),
    [Header.deadline]: String(deadline),
    [Header.transport]: transport,
  };
  const reply = await stack.bus.request(subject, data, {
    timeoutMs: 60_000,
    headers: signBusMessage(stack.bus.keys.for("drafts"), subject, plain, data, { notAfter: deadline }),
  });
  return decodeJson(reply.data) as CallReply;
}
