/**
 * Every limit at its edge (N passes, N+1 fails with invalid_argument naming the field), through the
 * gateway for the tools and on the REST API for the app's fields. Limits the product contract leaves open are ours (docs/boards.md#retention-and-limits):
 * title 200, description 10,000, 20 tag ids, board name 100, tag name 40, quadrant title 40 / subtitle 80.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { randomUUID } from "node:crypto";
import { startStack, type Stack } from "@bancada/e2e";
import { createBoardsDb, type BoardsDb } from "../src/index.js";
import { boardsFactory } from "./stack.js";
import {
  closeAll,
  expectRestError,
  fails,
  issuePaths,
  makeBoard,
  makeTag,
  makeTask,
  ok,
  person,
  seedTasks,
  type Board,
  type Person,
  type Tag,
  type Task,
  type TaskPage,
} from "./helpers.js";

describe("limits", () => {
  let stack: Stack;
  let db: BoardsDb;
  let ana: Person;
  let board: Board;
  let tags: Tag[];
  let task: Task;

  beforeAll(async () => {
    stack = await startStack({ services: { boards: boardsFactory } });
    db = createBoardsDb(stack.database.url, 2);
    ana = await person(stack, "ana");
    board = await makeBoard(ana, "Limites");
    tags = [];
    for (let i = 0; i < 21; i++) tags.push(await makeTag(ana, board.id, `tag${String(i).padStart(2, "0")}`));
    task = await makeTask(ana, board.id);
  });
  afterAll(async () => {
    await closeAll(ana);
    await db?.$disconnect();
    await stack?.stop();
  });

  const create = (args: Record<string, unknown>) => ({ requestId: randomUUID(), boardId: board.id, title: "t", ...args });
  const invalid = async (tool: string, args: Record<string, unknown>) =>
    issuePaths(await fails(ana.client, tool, args, "invalid_argument"));
  const update = async (args: Record<string, unknown>) => {
    const result = await ok(ana.client, "update_task", {
      requestId: randomUUID(),
      boardId: board.id,
      taskId: task.id,
      expectedVersion: task.version,
      title: task.title,
      ...args,
    });
    task = result.task;
    return result.task;
  };

  it("when a title has 200 characters it is kept whole; 201 characters, empty or blank is invalid_argument", async () => {
    expect((await ok(ana.client, "create_task", create({ title: "t".repeat(200) }))).task.title).toHaveLength(200);
    expect((await update({ title: "u".repeat(200) })).title).toHaveLength(200);
    for (const title of ["t".repeat(201), "", "   "]) {
      expect(await invalid("create_task", create({ title }))).toEqual(["title"]);
      expect(
        await invalid("update_task", { requestId: randomUUID(), boardId: board.id, taskId: task.id, expectedVersion: task.version, title }),
      ).toEqual(["title"]);
    }
  });

  it("when a description has 10,000 characters it is kept; 10,001 is invalid_argument", async () => {
    expect((await ok(ana.client, "create_task", create({ description: "d".repeat(10_000) }))).task.description).toHaveLength(10_000);
    expect(await invalid("create_task", create({ description: "d".repeat(10_001) }))).toEqual(["description"]);
    expect(
      await invalid("update_task", {
        requestId: randomUUID(),
        boardId: board.id,
        taskId: task.id,
        expectedVersion: task.version,
        title: "t",
        description: "d".repeat(10_001),
      }),
    ).toEqual(["description"]);
  });

  it("when a text holds a NUL character, then invalid_argument names the field", async () => {
    expect(await invalid("create_task", create({ title: "a\u0000b" }))).toEqual(["title"]);
  });

  it("when a due date is in year 0000 (none such in the calendar), then invalid_argument on create, update and REST; 0001-01-01 and 9999-12-31 are kept", async () => {
    for (const dueDate of ["0000-01-01", "0000-02-29"]) {
      expect(await invalid("create_task", create({ dueDate }))).toEqual(["dueDate"]);
      expect(
        await invalid("update_task", {
          requestId: randomUUID(),
          boardId: board.id,
          taskId: task.id,
          expectedVersion: task.version,
          title: "t",
          dueDate,
        }),
      ).toEqual(["dueDate"]);
      const rest = await ana.rest("POST", `/v1/boards/${board.id}/tasks`, { requestId: randomUUID(), title: "t", dueDate });
      expect(issuePaths(expectRestError(rest, 400, "invalid_argument"))).toEqual(["dueDate"]);
    }
    for (const dueDate of ["0001-01-01", "9999-12-31"])
      expect((await ok(ana.client, "create_task", create({ dueDate }))).task.due_date).toBe(dueDate);
  });

  it("when 20 tag ids are sent they are all set; 21, or one twice, is invalid_argument", async () => {
    const twenty = tags.slice(0, 20).map((t) => t.id);
    expect((await ok(ana.client, "create_task", create({ tagIds: twenty }))).task.tags).toHaveLength(20);
    expect((await update({ tagIds: twenty })).tags).toHaveLength(20);
    expect(await invalid("create_task", create({ tagIds: tags.map((t) => t.id) }))).toEqual(["tagIds"]);
    expect(await invalid("create_task", create({ tagIds: [tags[0]!.id, tags[0]!.id] }))).toEqual(["tagIds"]);
    expect(await invalid("list_tasks", { boardId: board.id, tagIds: tags.map((t) => t.id) })).toEqual(["tagIds"]);
  });

  it("when expectedVersion is 0, fractional or beyond 2^31-1, then invalid_argument; 2^31-1 itself is a VERSION_CONFLICT", async () => {
    const base = { requestId: randomUUID(), boardId: board.id, taskId: task.id };
    for (const expectedVersion of [0, 1.5, 2_147_483_648])
      expect(await invalid("complete_task", { ...base, expectedVersion })).toEqual(["expectedVersion"]);
    await fails(ana.client, "complete_task", { ...base, expectedVersion: 2_147_483_647 }, "conflict");
  });

  it("when ids are not UUIDs, a quadrant is a title, or a field is unknown, then invalid_argument names it", async () => {
    expect(await invalid("create_task", create({ requestId: "abc" }))).toEqual(["requestId"]);
    expect(await invalid("list_tasks", { boardId: "550e8400" })).toEqual(["boardId"]);
    expect(await invalid("create_task", create({ quadrant: "Agora" }))).toEqual(["quadrant"]);
    expect(await invalid("list_tasks", { boardId: board.id, status: "archived" })).toEqual(["status"]);
    expect(await invalid("create_task", create({ assigneeId: "ana" }))).toEqual(["assigneeId"]);
    expect(await invalid("list_boards", { boardId: board.id })).toEqual(["boardId"]);
  });

  it("when a board has exactly 25 tasks, then one page without nextCursor; at 26 the first page has 25 and a cursor", async () => {
    const fresh = await makeBoard(ana, "Vinte e cinco");
    await seedTasks(db, fresh.id, 25);
    expect(await ok<TaskPage>(ana.client, "list_tasks", { boardId: fresh.id })).toMatchObject({ nextCursor: null });
    await makeTask(ana, fresh.id);
    const first = await ok<TaskPage>(ana.client, "list_tasks", { boardId: fresh.id });
    expect(first.tasks).toHaveLength(25);
    const second = await ok<TaskPage>(ana.client, "list_tasks", { boardId: fresh.id, cursor: first.nextCursor });
    expect(second).toMatchObject({ tasks: [expect.objectContaining({ task_number: 26 })], nextCursor: null });
  });

  describe("the app's fields (REST)", () => {
    const edge = async (method: string, path: string, field: string, max: number, body: (value: string) => Record<string, unknown>) => {
      expect((await ana.rest(method, path, body("x".repeat(max)))).status, `${field} at ${max}`).toBeLessThan(300);
      const error = expectRestError(await ana.rest(method, path, body("x".repeat(max + 1))), 400, "invalid_argument");
      expect(issuePaths(error)).toEqual([field]);
    };

    it("when a board name has 100 characters and a description 2,000, then they are accepted; one more is invalid_argument", async () => {
      await edge("POST", "/v1/boards", "name", 100, (name) => ({ requestId: randomUUID(), name }));
      await edge("POST", "/v1/boards", "description", 2000, (description) => ({ requestId: randomUUID(), name: "b", description }));
    });

    it("when a tag name has 40 characters it is accepted; 41 is invalid_argument; a color outside the palette too", async () => {
      await edge("POST", `/v1/boards/${board.id}/tags`, "name", 40, (name) => ({ requestId: randomUUID(), name, color: "teal" }));
      expect(
        issuePaths(
          expectRestError(
            await ana.rest("POST", `/v1/boards/${board.id}/tags`, { requestId: randomUUID(), name: "c", color: "#fff" }),
            400,
            "invalid_argument",
          ),
        ),
      ).toEqual(["color"]);
    });

    it("when a quadrant title has 40 characters and a subtitle 80, then they are accepted; one more is invalid_argument", async () => {
      let version = (await ana.rest<{ board: Board }>("GET", `/v1/boards/${board.id}`)).body.board.version!;
      const path = `/v1/boards/${board.id}/quadrants/urgent-important`;
      const title = "x".repeat(40);
      expect((await ana.rest("PUT", path, { expectedVersion: version++, title, subtitle: "s", color: "teal" })).status).toBe(200);
      expect(
        (await ana.rest("PUT", path, { expectedVersion: version++, title: "t", subtitle: "x".repeat(80), color: "teal" })).status,
      ).toBe(200);
      expect(
        issuePaths(
          expectRestError(
            await ana.rest("PUT", path, { expectedVersion: version, title: "x".repeat(41), subtitle: "", color: "teal" }),
            400,
            "invalid_argument",
          ),
        ),
      ).toEqual(["title"]);
      expect(
        issuePaths(
          expectRestError(
            await ana.rest("PUT", path, { expectedVersion: version, title: "t", subtitle: "x".repeat(81), color: "teal" }),
            400,
            "invalid_argument",
          ),
        ),
      ).toEqual(["subtitle"]);
    });

    it("when a member id has 200 characters it is accepted; 201 is invalid_argument", async () => {
      const ok200 = await ana.rest("PUT", `/v1/boards/${board.id}/members/${"p".repeat(200)}`, { role: "viewer" });
      expect(ok200.status).toBe(200);
      expect(
        issuePaths(
          expectRestError(
            await ana.rest("PUT", `/v1/boards/${board.id}/members/${"p".repeat(201)}`, { role: "viewer" }),
            400,
            "invalid_argument",
          ),
        ),
      ).toEqual(["personId"]);
    });
  });
});
