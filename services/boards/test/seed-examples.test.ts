/**
 * Every published example request (seed-examples.ts; docs/boards.md) runs as written through the gateway,
 * and each response has the shape of its example: the same keys at every level, the same JSON types (null
 * where the field may be null). Writes answer { task } "in the format of a list_tasks item".
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { randomUUID } from "node:crypto";
import { startStack, type Stack } from "@bancada/e2e";
import { boardsFactory } from "./stack.js";
import { closeAll, ok, person, type Person } from "./helpers.js";
import {
  activityResponse,
  listBoardsResponse,
  listTagsResponse,
  listTasksResponse,
  proposalKeys,
  requests,
  seedBoardId,
  seedProposalBoardId,
  seedTagId,
  seedTaskId,
} from "./seed-examples.js";

/** Fields documented as possibly null (the examples show one of the two). */
const nullable = new Set(["description", "archived_at", "assignee_id", "due_date", "summary", "closed_at", "nextCursor"]);

function expectSameShape(actual: unknown, example: unknown, path = "$"): void {
  const key = path.split(".").at(-1)!;
  if (nullable.has(key) && (actual === null || example === null)) {
    expect(actual === null || typeof actual === "string", `${path} is null or a string`).toBe(true);
    return;
  }
  if (Array.isArray(example)) {
    expect(Array.isArray(actual), `${path} is an array`).toBe(true);
    const items = actual as unknown[];
    if (example.length > 0) {
      expect(items.length, `${path} has items like the example`).toBeGreaterThan(0);
      items.forEach((item, i) => expectSameShape(item, example[0], `${path}[${i}]`));
    }
    return;
  }
  if (example !== null && typeof example === "object") {
    expect(actual !== null && typeof actual === "object" && !Array.isArray(actual), `${path} is an object`).toBe(true);
    expect(Object.keys(actual as object).sort(), `${path} keys`).toEqual(Object.keys(example).sort());
    for (const [k, v] of Object.entries(example)) expectSameShape((actual as Record<string, unknown>)[k], v, `${path}.${k}`);
    return;
  }
  expect(typeof actual, `${path} type`).toBe(typeof example);
  if (typeof example === "number") expect(Number.isInteger(actual), `${path} is an integer`).toBe(Number.isInteger(example));
  if (typeof example === "string" && /^\d{4}-\d\d-\d\dT/.test(example))
    expect(actual, `${path} timestamp format`).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
}

const taskItem = listTasksResponse.tasks[0]!;

/** The examples' world: board "Produto" with quadrant "Agora", tag "Cliente", and task 7c9e6679 at version 4. */
async function seedWorld(ana: Person): Promise<void> {
  for (const [requestId, name] of [
    [seedBoardId, "Produto"],
    [seedProposalBoardId, "Propostas"],
  ]) {
    expect((await ana.rest("POST", "/v1/boards", { requestId, name })).status).toBe(201);
  }
  await ana.rest("PUT", `/v1/boards/${seedBoardId}/quadrants/urgent-important`, {
    expectedVersion: 1,
    title: "Agora",
    subtitle: "Urgente e importante",
    color: "teal",
  });
  expect((await ana.rest("POST", `/v1/boards/${seedBoardId}/tags`, { requestId: seedTagId, name: "Cliente", color: "teal" })).status).toBe(
    201,
  );
  await ok(ana.client, "create_task", {
    requestId: seedTaskId,
    boardId: seedBoardId,
    title: "Revisar proposta",
    quadrant: "urgent-important",
    dueDate: "2026-10-03",
    tagIds: [seedTagId],
  });
  for (let version = 1; version < 4; version++) {
    await ok(ana.client, "update_task", {
      requestId: randomUUID(),
      boardId: seedBoardId,
      taskId: seedTaskId,
      expectedVersion: version,
      title: "Revisar proposta",
    });
  }
}

describe("published boards examples", () => {
  let stack: Stack;
  let ana: Person;
  beforeAll(async () => {
    stack = await startStack({ services: { boards: boardsFactory } });
    ana = await person(stack, "ana");
    await seedWorld(ana);
  });
  afterAll(async () => {
    await closeAll(ana);
    await stack?.stop();
  });

  it("when list_boards runs as in the example, then the response has the example's shape and quadrant fields", async () => {
    const result = await ok<{ boards: { quadrants: unknown[] }[] }>(ana.client, "list_boards", requests.list_boards);
    expectSameShape(result, listBoardsResponse);
    expect(result.boards[0]!.quadrants).toHaveLength(4);
    expect(result.boards[0]!.quadrants[0]).toEqual(listBoardsResponse.boards[0]!.quadrants[0]);
  });

  it("when list_tasks runs as in the example, then the task matches the example's shape, values included where the world is the same", async () => {
    const result = await ok<typeof listTasksResponse>(ana.client, "list_tasks", requests.list_tasks);
    expectSameShape(result, listTasksResponse);
    const { task_number: _number, created_at: _created, updated_at: _updated, ...sameValues } = taskItem;
    expect(result.tasks[0]).toMatchObject(sameValues);
  });

  it("when list_board_tags runs as in the example, then the response is { tags: [{ id, name, color }] }", async () => {
    const result = await ok(ana.client, "list_board_tags", requests.list_board_tags);
    expect(result).toEqual(listTagsResponse);
  });

  it("when the write examples run in order (create, update v4, move v5, complete v6), then each answers { task } shaped like a list_tasks item", async () => {
    for (const tool of ["create_task", "update_task", "move_task", "complete_task"] as const) {
      const result = await ok<{ task: unknown }>(ana.client, tool, requests[tool]);
      expectSameShape(result, { task: taskItem });
    }
    const created = await ok<{ task: { id: string; tags: unknown[] } }>(ana.client, "create_task", requests.create_task);
    expect(created.task.id).toBe(requests.create_task.requestId);
  });

  it("when get_task_activity runs as in the example, then the latest task_moved event has the example's shape and metadata", async () => {
    const result = await ok<typeof activityResponse>(ana.client, "get_task_activity", requests.get_task_activity);
    const moved = result.events.find((event) => event.event_type === "task_moved")!;
    expectSameShape({ ...result, events: [moved] }, activityResponse);
    expect(moved.metadata).toEqual({ from_quadrant: "urgent-important", to_quadrant: "not-urgent-important" });
  });

  it("when submit_board_proposal and list_board_proposals run as in the example, then the proposal has exactly the documented fields", async () => {
    const { proposal } = await ok<{ proposal: Record<string, unknown> }>(
      ana.client,
      "submit_board_proposal",
      requests.submit_board_proposal,
    );
    expect(Object.keys(proposal).sort()).toEqual([...proposalKeys].sort());
    expect(proposal).toMatchObject({ board_id: seedProposalBoardId, summary: requests.submit_board_proposal.summary, suggestions: [] });
    const listed = await ok<{ proposals: Record<string, unknown>[] }>(ana.client, "list_board_proposals", requests.list_board_proposals);
    expect(listed).toEqual({ proposals: [proposal] });
  });
});

describe("published boards examples: discard then reopen", () => {
  let stack: Stack;
  let ana: Person;
  beforeAll(async () => {
    stack = await startStack({ services: { boards: boardsFactory } });
    ana = await person(stack, "ana");
    await seedWorld(ana);
    await ok(ana.client, "update_task", requests.update_task);
    await ok(ana.client, "move_task", requests.move_task);
  });
  afterAll(async () => {
    await closeAll(ana);
    await stack?.stop();
  });

  it("when discard_task (v6) and reopen_task (v7, backlog) run as in the example, then each answers { task } and the task is active in the backlog", async () => {
    const discarded = await ok<{ task: { status: string } }>(ana.client, "discard_task", requests.discard_task);
    expectSameShape(discarded, { task: taskItem });
    expect(discarded.task.status).toBe("discarded");
    const reopened = await ok<{ task: { status: string; quadrant: string; version: number } }>(
      ana.client,
      "reopen_task",
      requests.reopen_task,
    );
    expectSameShape(reopened, { task: taskItem });
    expect(reopened.task).toMatchObject({ status: "active", quadrant: "backlog", version: 8 });
  });
});
