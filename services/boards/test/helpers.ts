/** Helpers shared by the boards tests: tool calls that check the result envelope, a REST client, fixtures. */
import { randomUUID } from "node:crypto";
import { expect } from "vitest";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { connectClient, type ErrorData, type Stack, expectToolResult } from "@bancada/e2e";
import type { BoardsDb } from "../src/index.js";

export interface Tag {
  id: string;
  name: string;
  color: string;
}

export interface Task {
  id: string;
  board_id: string;
  task_number: number;
  title: string;
  description: string | null;
  quadrant: string;
  status: "active" | "completed" | "discarded";
  assignee_id: string | null;
  due_date: string | null;
  tags: Tag[];
  version: number;
  created_at: string;
  updated_at: string;
  archived_at?: string | null;
}

export interface Board {
  id: string;
  name: string;
  description: string | null;
  archived_at: string | null;
  created_at: string;
  quadrants: { id: string; title: string; subtitle: string; color: string; customized: boolean }[];
  role?: string;
  version?: number;
}

export interface Suggestion {
  id: string;
  task_id: string;
  version: number;
  quadrant: string;
  reason: string;
  state: "pending" | "applied" | "rejected" | "obsolete";
}

export interface Proposal {
  id: string;
  board_id: string;
  summary: string | null;
  summary_closed: boolean;
  suggestions: Suggestion[];
  closed_at: string | null;
}

export interface TaskPage {
  tasks: Task[];
  nextCursor: string | null;
}

export type ErrorBody = ErrorData["error"];

/** Calls a tool that must succeed (testkit's check of the result envelope). */
export const ok = <T = { task: Task }>(client: Client, tool: string, args: Record<string, unknown>): Promise<T> =>
  expectToolResult<T>(client, tool, args);
export { expectToolError as fails, expectRestError, issuePaths } from "@bancada/testkit";

export const boardScopes = ["boards:read", "boards:write"];
export const notAccessible = "Board not found or not accessible";

export interface RestResponse<T = Record<string, unknown>> {
  status: number;
  body: T;
}

export type Rest = <T = Record<string, unknown>>(
  method: string,
  path: string,
  body?: unknown,
  headers?: Record<string, string>,
) => Promise<RestResponse<T>>;

export function restClient(baseUrl: string, key: string): Rest {
  return async (method, path, body, headers = {}) => {
    const response = await fetch(`${baseUrl}${path}`, {
      method,
      headers: { Authorization: `Bearer ${key}`, ...(body === undefined ? {} : { "Content-Type": "application/json" }), ...headers },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const raw = await response.text();
    return { status: response.status, body: raw ? JSON.parse(raw) : {} };
  };
}

/** The account keys belong to unless a test names another (testkit's default). */
export const defaultAccount = "acct-a";

/** A person with a key (MCP client + REST): a person id within an account. */
export interface Person {
  accountId: string;
  personId: string;
  key: string;
  client: Client;
  rest: Rest;
}

export async function person(
  stack: Stack,
  personId: string,
  options: { accountId?: string; allowWrites?: boolean; allowedBoardIds?: string[] | null; scopes?: string[] } = {},
): Promise<Person> {
  const accountId = options.accountId ?? defaultAccount;
  const key = await stack.createKey({
    accountId,
    personId,
    scopes: options.scopes ?? boardScopes,
    allowWrites: options.allowWrites ?? true,
    allowedBoardIds: options.allowedBoardIds ?? null,
  });
  return { accountId, personId, key, client: await connectClient(stack.mcpUrl, key), rest: restClient(stack.baseUrl, key) };
}

export async function makeBoard(
  owner: Person,
  name = "Produto",
  members: Record<string, "owner" | "editor" | "viewer"> = {},
): Promise<Board> {
  const created = await owner.rest<{ board: Board }>("POST", "/v1/boards", { requestId: randomUUID(), name });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  for (const [personId, role] of Object.entries(members)) {
    const added = await owner.rest("PUT", `/v1/boards/${created.body.board.id}/members/${personId}`, { role });
    expect(added.status, JSON.stringify(added.body)).toBe(200);
  }
  return created.body.board;
}

/** Creates a tag over REST (where it comes at version 1) and returns it as tasks and list_board_tags show it. */
export async function makeTag(owner: Person, boardId: string, name: string, color = "teal"): Promise<Tag> {
  const created = await owner.rest<{ tag: Tag & { version: number } }>("POST", `/v1/boards/${boardId}/tags`, {
    requestId: randomUUID(),
    name,
    color,
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const { version, ...tag } = created.body.tag;
  expect(version).toBe(1);
  return tag;
}

export async function makeTask(who: Person, boardId: string, args: Record<string, unknown> = {}): Promise<Task> {
  return (await ok(who.client, "create_task", { requestId: randomUUID(), boardId, title: "Tarefa", ...args })).task;
}

export async function closeAll(...people: (Person | undefined)[]): Promise<void> {
  for (const p of people) await p?.client.close();
}

export { quadrantIds, seedTasks } from "./fixtures.js";

/** The invariant of src/domain/positions.ts, checked on every task of the database: position starts with the quadrant's rank. */
export async function expectPositionsMatchQuadrants(db: BoardsDb): Promise<void> {
  const rows = await db.$queryRawUnsafe<{ quadrant: string; position: string }[]>(`SELECT quadrant::text, position FROM boards.tasks`);
  expect(rows.length).toBeGreaterThan(0);
  const quadrants = ["urgent-important", "not-urgent-important", "urgent-not-important", "not-urgent-not-important", "backlog"];
  for (const row of rows) expect(`${row.quadrant} ${row.position[0]}`).toBe(`${row.quadrant} ${quadrants.indexOf(row.quadrant)}`);
}
