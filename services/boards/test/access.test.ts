/**
 * Access (docs/boards.md#access): a board that does not exist, one whose person is no member, and one outside the
 * key's allowedBoardIds all answer the same not_found "Board not found or not accessible", through every
 * tool and every REST route. Writes need boards:write, allowWrites and the owner or editor role.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { randomUUID } from "node:crypto";
import { startStack, type Stack } from "@bancada/e2e";
import { createBoardsDb } from "../src/index.js";
import { boardsRoutes } from "../src/http/routes.js";
import { boardsFactory } from "./stack.js";
import {
  calledRouteTemplates,
  registeredRoutes,
  restCalls as boardRestCalls,
  toolCalls as boardToolCalls,
  type BoardIds,
} from "./board-calls.js";
import {
  closeAll,
  expectRestError,
  fails,
  makeBoard,
  makeTag,
  makeTask,
  notAccessible,
  ok,
  person,
  type Board,
  type ErrorBody,
  type Person,
  type Rest,
  type Task,
} from "./helpers.js";

const readTools = ["get_task_activity", "list_board_proposals", "list_board_tags", "list_boards", "list_tasks"];
const writeTools = ["complete_task", "create_task", "discard_task", "move_task", "reopen_task", "submit_board_proposal", "update_task"];

describe("access", () => {
  let stack: Stack;
  let ana: Person; // owner of A
  let carl: Person; // no member of A
  let dave: Person; // editor of A, but his key lists only another board
  let erin: Person; // viewer of A
  let board: Board;
  let task: Task;
  let tagId: string;
  let proposalId: string;
  let suggestionId: string;

  beforeAll(async () => {
    stack = await startStack({ services: { boards: boardsFactory } });
    ana = await person(stack, "ana");
    carl = await person(stack, "carl");
    erin = await person(stack, "erin");
    board = await makeBoard(ana, "A", { dave: "editor", erin: "viewer" });
    dave = await person(stack, "dave", { allowedBoardIds: [randomUUID()] });
    task = await makeTask(ana, board.id);
    tagId = (await makeTag(ana, board.id, "Cliente")).id;
    const { proposal } = await ok<{ proposal: { id: string; suggestions: { id: string }[] } }>(ana.client, "submit_board_proposal", {
      requestId: randomUUID(),
      boardId: board.id,
      suggestions: [{ taskId: task.id, version: 1, quadrant: "urgent-important", reason: "prazo" }],
    });
    proposalId = proposal.id;
    suggestionId = proposal.suggestions[0]!.id;
  });
  afterAll(async () => {
    await closeAll(ana, carl, dave, erin);
    await stack?.stop();
  });

  const ids = (boardId: string): BoardIds => ({
    boardId,
    taskId: task.id,
    tagId,
    proposalId,
    suggestionId,
    newMember: "zoe",
    member: "ana",
  });
  const toolCalls = (boardId: string) => boardToolCalls(ids(boardId));
  const restCalls = (boardId: string) => boardRestCalls(ids(boardId));

  const exactlyNotAccessible = (error: ErrorBody) => expect(error).toEqual({ code: "not_found", message: notAccessible });

  it("when the REST API is enumerated, then every route of a board is among the routes these tests call", async () => {
    const db = createBoardsDb(stack.database.url, 1);
    try {
      const boardRoutes = registeredRoutes(boardsRoutes(db)).filter((route) => route.includes(":boardId"));
      expect(boardRoutes.length).toBeGreaterThan(25);
      expect([...new Set(boardRoutes)].sort()).toEqual(calledRouteTemplates(ids(board.id)));
    } finally {
      await db.$disconnect();
    }
  });

  it("when a board does not exist, is not the person's, or is outside the key's allowlist, then every tool answers the same not_found", async () => {
    const cases: [Person, string][] = [
      [ana, randomUUID()],
      [carl, board.id],
      [dave, board.id],
    ];
    for (const [who, boardId] of cases) {
      for (const [tool, args] of toolCalls(boardId)) {
        exactlyNotAccessible(await fails(who.client, tool, args, "not_found"));
      }
    }
  });

  it("when the same three callers use any REST route of the board, then 404 with the same message, and nothing changed", async () => {
    const cases: [Rest, string][] = [
      [ana.rest, randomUUID()],
      [carl.rest, board.id],
      [dave.rest, board.id],
    ];
    for (const [rest, boardId] of cases) {
      for (const [method, path, body] of restCalls(boardId)) {
        const response = await rest(method, path, body);
        expect(`${method} ${path} → ${response.status}`).toBe(`${method} ${path} → 404`);
        exactlyNotAccessible(expectRestError(response, 404, "not_found"));
      }
    }
    const { tasks } = await ok<{ tasks: Task[] }>(ana.client, "list_tasks", { boardId: board.id });
    expect(tasks).toEqual([task]);
  });

  it("when an outsider or a key limited to other boards lists boards, then the board is not there", async () => {
    expect((await ok<{ boards: Board[] }>(carl.client, "list_boards", {})).boards).toEqual([]);
    expect((await ok<{ boards: Board[] }>(dave.client, "list_boards", {})).boards).toEqual([]);
    const daveAllowed = await person(stack, "dave", { allowedBoardIds: [board.id] });
    expect((await ok<{ boards: Board[] }>(daveAllowed.client, "list_boards", {})).boards.map((b) => b.id)).toEqual([board.id]);
    await makeTask(daveAllowed, board.id);
    await closeAll(daveAllowed);
  });

  it("when a viewer calls a write tool or a write route, then permission_denied names the role; reads work", async () => {
    for (const [tool, args] of toolCalls(board.id).filter(([tool]) => writeTools.includes(tool))) {
      const error = await fails(erin.client, tool, args, "permission_denied");
      expect(error.details).toMatchObject({ role: "viewer" });
    }
    for (const [method, path, body] of restCalls(board.id).filter(([method, path]) => method !== "GET" && !path.endsWith("/members/ana"))) {
      expectRestError(await erin.rest(method, path, body), 403, "permission_denied");
    }
    expect((await ok<{ tasks: Task[] }>(erin.client, "list_tasks", { boardId: board.id })).tasks.length).toBeGreaterThan(0);
  });

  it("when a key has allowWrites off, then tools/list shows only the read tools and a write call is permission_denied", async () => {
    const readonly = await person(stack, "ana", { allowWrites: false });
    const { tools } = await readonly.client.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual(readTools);
    const error = await fails(
      readonly.client,
      "create_task",
      { requestId: randomUUID(), boardId: board.id, title: "x" },
      "permission_denied",
    );
    expect(error.details).toMatchObject({ allowWrites: false });
    expectRestError(
      await readonly.rest("POST", `/v1/boards/${board.id}/tasks`, { requestId: randomUUID(), title: "x" }),
      403,
      "permission_denied",
    );
    await closeAll(readonly);
  });

  it("when a key lacks boards:write, then no write tool is listed; without boards:read nothing of boards is", async () => {
    const reader = await person(stack, "ana", { scopes: ["boards:read"] });
    expect((await reader.client.listTools()).tools.map((tool) => tool.name).sort()).toEqual(readTools);
    const error = await fails(
      reader.client,
      "move_task",
      { requestId: randomUUID(), boardId: board.id, taskId: task.id, expectedVersion: 1, quadrant: "backlog" },
      "permission_denied",
    );
    expect(error.details).toMatchObject({ requiredScope: "boards:write" });
    const outsider = await person(stack, "ana", { scopes: ["scripts:read"] });
    expect(
      (await outsider.client.listTools()).tools.map((tool) => tool.name).filter((name) => [...readTools, ...writeTools].includes(name)),
    ).toEqual([]);
    expectRestError(await outsider.rest("GET", "/v1/boards"), 403, "permission_denied");
    await closeAll(reader, outsider);
  });

  it("when a key with full access lists tools, then all twelve boards tools are there", async () => {
    const names = (await ana.client.listTools()).tools.map((tool) => tool.name);
    expect(names.filter((name) => [...readTools, ...writeTools].includes(name)).sort()).toEqual([...readTools, ...writeTools].sort());
  });
});
