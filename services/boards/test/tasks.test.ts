/**
 * The task tools of docs/boards.md through the gateway: numbers per board, positions, the update_task field
 * rules, versions (VERSION_CONFLICT), state rules (active only moves; archived refused) and activity.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { randomUUID } from "node:crypto";
import { startStack, type Stack } from "@bancada/e2e";
import { createBoardsDb, type BoardsDb } from "../src/index.js";
import { boardsFactory } from "./stack.js";
import {
  closeAll,
  expectPositionsMatchQuadrants,
  fails,
  issuePaths,
  makeBoard,
  makeTag,
  makeTask,
  ok,
  person,
  type Board,
  type Person,
  type Tag,
  type Task,
  type TaskPage,
} from "./helpers.js";

interface Activity {
  events: { event_type: string; entity_id: string; actor_id: string; metadata: Record<string, unknown>; created_at: string }[];
  nextCursor: string | null;
  coverageStart: string;
}

describe("task tools", () => {
  let stack: Stack;
  let db: BoardsDb;
  let ana: Person;
  let board: Board;
  let cliente: Tag;
  let urgente: Tag;

  beforeAll(async () => {
    stack = await startStack({ services: { boards: boardsFactory } });
    db = createBoardsDb(stack.database.url, 2);
    ana = await person(stack, "ana");
    board = await makeBoard(ana, "Produto");
    urgente = await makeTag(ana, board.id, "Urgente", "red");
    cliente = await makeTag(ana, board.id, "Cliente", "teal");
  });
  afterAll(async () => {
    await closeAll(ana);
    await db?.$disconnect();
    await stack?.stop();
  });

  const ids = async (quadrant: string) =>
    (await ok<TaskPage>(ana.client, "list_tasks", { boardId: board.id, quadrant })).tasks.map((task) => task.id);
  const write = (tool: string, task: Task, extra: Record<string, unknown> = {}) =>
    ok(ana.client, tool, { requestId: randomUUID(), boardId: board.id, taskId: task.id, expectedVersion: task.version, ...extra });

  describe("create_task", () => {
    it("when tasks are created, then the id is the requestId, numbers count up per board and each goes to the end of its quadrant", async () => {
      const requestId = randomUUID();
      const { task } = await ok(ana.client, "create_task", { requestId, boardId: board.id, title: "Um", quadrant: "not-urgent-important" });
      expect(task.id).toBe(requestId);
      const second = await makeTask(ana, board.id, { title: "Dois", quadrant: "not-urgent-important" });
      expect(second.task_number).toBe(task.task_number + 1);
      expect(await ids("not-urgent-important")).toEqual([task.id, second.id]);
      const other = await makeBoard(ana, "Outro");
      expect((await makeTask(ana, other.id)).task_number).toBe(1);
    });

    it("when optional fields are omitted, then the task is active in the backlog with no description, due date, assignee or tags, at version 1", async () => {
      const task = await makeTask(ana, board.id, { title: "Sem nada" });
      expect(task).toMatchObject({
        quadrant: "backlog",
        status: "active",
        description: null,
        due_date: null,
        assignee_id: null,
        tags: [],
        version: 1,
      });
      expect(task.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    });

    it("when tags are given, then the task carries them in alphabetical order", async () => {
      const task = await makeTask(ana, board.id, { tagIds: [urgente.id, cliente.id], dueDate: "2026-10-03", description: "Enviar" });
      expect(task.tags).toEqual([cliente, urgente]);
      expect(task.due_date).toBe("2026-10-03");
      expect(task.description).toBe("Enviar");
    });

    it("when a tag id belongs to another board or to no tag, then invalid_argument names it and nothing is created", async () => {
      const other = await makeBoard(ana, "Terceiro");
      const foreign = await makeTag(ana, other.id, "Alheia");
      const requestId = randomUUID();
      const error = await fails(
        ana.client,
        "create_task",
        { requestId, boardId: board.id, title: "x", tagIds: [cliente.id, foreign.id] },
        "invalid_argument",
      );
      expect(issuePaths(error)).toEqual(["tagIds[1]"]);
      expect(await ids("backlog")).not.toContain(requestId);
    });

    it("when the due date is not a real date, then invalid_argument names dueDate", async () => {
      for (const dueDate of ["2026-02-30", "03/10/2026", "2026-10-03T00:00:00Z"]) {
        expect(
          issuePaths(
            await fails(ana.client, "create_task", { requestId: randomUUID(), boardId: board.id, title: "x", dueDate }, "invalid_argument"),
          ),
        ).toContain("dueDate");
      }
    });
  });

  describe("update_task", () => {
    let task: Task;
    beforeAll(async () => {
      task = await makeTask(ana, board.id, { title: "Original", description: "Desc", dueDate: "2026-10-03", tagIds: [cliente.id] });
    });

    it("when only the title is sent, then description, due date and tags stay and the version goes up by one", async () => {
      const { task: updated } = await write("update_task", task, { title: "Novo título" });
      expect(updated).toMatchObject({
        title: "Novo título",
        description: "Desc",
        due_date: "2026-10-03",
        tags: [cliente],
        version: task.version + 1,
      });
      task = updated;
    });

    it('when description is "", then the description is removed; when dueDate is sent, then it changes', async () => {
      const { task: updated } = await write("update_task", task, { title: task.title, description: "", dueDate: "2026-10-02" });
      expect(updated.description).toBeNull();
      expect(updated.due_date).toBe("2026-10-02");
      task = updated;
    });

    it("when tagIds is [], then every tag is removed; when tagIds lists tags, then they replace the old ones", async () => {
      const cleared = (await write("update_task", task, { title: task.title, tagIds: [] })).task;
      expect(cleared.tags).toEqual([]);
      const tagged = (await write("update_task", cleared, { title: task.title, tagIds: [urgente.id] })).task;
      expect(tagged.tags).toEqual([urgente]);
      task = tagged;
    });

    it("when dueDate is null, then invalid_argument: the due date cannot be removed through MCP", async () => {
      const error = await fails(
        ana.client,
        "update_task",
        { requestId: randomUUID(), boardId: board.id, taskId: task.id, expectedVersion: task.version, title: "x", dueDate: null },
        "invalid_argument",
      );
      expect(issuePaths(error)).toContain("dueDate");
    });

    it("when the title is missing, then invalid_argument names title", async () => {
      const error = await fails(
        ana.client,
        "update_task",
        { requestId: randomUUID(), boardId: board.id, taskId: task.id, expectedVersion: task.version },
        "invalid_argument",
      );
      expect(issuePaths(error)).toContain("title");
    });

    it("when expectedVersion is stale, then conflict with VERSION_CONFLICT: and the current task, and nothing changes", async () => {
      const error = await fails(
        ana.client,
        "update_task",
        { requestId: randomUUID(), boardId: board.id, taskId: task.id, expectedVersion: task.version - 1, title: "perdido" },
        "conflict",
      );
      expect(error.message.startsWith("VERSION_CONFLICT:")).toBe(true);
      expect(error.details).toMatchObject({
        expectedVersion: task.version - 1,
        currentVersion: task.version,
        current: { id: task.id, version: task.version, title: task.title },
      });
      const page = await ok<TaskPage>(ana.client, "list_tasks", { boardId: board.id, quadrant: "backlog" });
      expect(page.tasks.find((t) => t.id === task.id)).toEqual(task);
    });

    it("when the task does not exist in the board, then not_found", async () => {
      await fails(
        ana.client,
        "update_task",
        { requestId: randomUUID(), boardId: board.id, taskId: randomUUID(), expectedVersion: 1, title: "x" },
        "not_found",
      );
    });
  });

  describe("move_task", () => {
    it("when moved without beforeId, then the task goes to the end of the target quadrant and the event says from and to", async () => {
      const a = await makeTask(ana, board.id, { quadrant: "urgent-not-important" });
      const b = await makeTask(ana, board.id, { quadrant: "urgent-not-important" });
      const moving = await makeTask(ana, board.id, { quadrant: "backlog" });
      const { task } = await write("move_task", moving, { quadrant: "urgent-not-important" });
      expect(task).toMatchObject({ quadrant: "urgent-not-important", version: 2 });
      expect(await ids("urgent-not-important")).toEqual([a.id, b.id, moving.id]);
      const activity = await ok<Activity>(ana.client, "get_task_activity", { boardId: board.id });
      expect(activity.events[0]).toMatchObject({
        event_type: "task_moved",
        entity_id: moving.id,
        actor_id: "ana",
        metadata: { from_quadrant: "backlog", to_quadrant: "urgent-not-important" },
      });
    });

    it("when moved before a task, then it lands just before it, also at the very top and again and again into the same gap", async () => {
      const [x, y, z] = [
        await makeTask(ana, board.id, { quadrant: "not-urgent-not-important" }),
        await makeTask(ana, board.id, { quadrant: "not-urgent-not-important" }),
        await makeTask(ana, board.id, { quadrant: "not-urgent-not-important" }),
      ];
      const zMoved = (await write("move_task", z, { quadrant: "not-urgent-not-important", beforeId: y.id })).task;
      expect(await ids("not-urgent-not-important")).toEqual([x.id, z.id, y.id]);
      await write("move_task", y, { quadrant: "not-urgent-not-important", beforeId: x.id });
      expect(await ids("not-urgent-not-important")).toEqual([y.id, x.id, z.id]);
      // 24 tasks squeezed one after another between x and z: exact midpoints never collide.
      const squeezed: string[] = [];
      let anchor = zMoved;
      for (let i = 0; i < 24; i++) {
        const fresh = await makeTask(ana, board.id, { quadrant: "backlog" });
        await write("move_task", fresh, { quadrant: "not-urgent-not-important", beforeId: anchor.id });
        squeezed.unshift(fresh.id);
        anchor = fresh;
      }
      const first = await ok<TaskPage>(ana.client, "list_tasks", { boardId: board.id, quadrant: "not-urgent-not-important" });
      const rest = await ok<TaskPage>(ana.client, "list_tasks", {
        boardId: board.id,
        quadrant: "not-urgent-not-important",
        cursor: first.nextCursor,
      });
      expect([...first.tasks, ...rest.tasks].map((t) => t.id)).toEqual([y.id, x.id, ...squeezed, z.id]);
    });

    it("when beforeId is the task itself, in another quadrant or unknown, then invalid_argument names beforeId", async () => {
      const task = await makeTask(ana, board.id, { quadrant: "backlog" });
      const elsewhere = await makeTask(ana, board.id, { quadrant: "urgent-important" });
      for (const beforeId of [task.id, elsewhere.id, randomUUID()]) {
        const error = await fails(
          ana.client,
          "move_task",
          { requestId: randomUUID(), boardId: board.id, taskId: task.id, expectedVersion: 1, quadrant: "backlog", beforeId },
          "invalid_argument",
        );
        expect(issuePaths(error)).toEqual(["beforeId"]);
      }
    });

    it("when the task is completed, then move_task answers failed_precondition", async () => {
      const done = (await write("complete_task", await makeTask(ana, board.id))).task;
      await fails(
        ana.client,
        "move_task",
        { requestId: randomUUID(), boardId: board.id, taskId: done.id, expectedVersion: done.version, quadrant: "urgent-important" },
        "failed_precondition",
      );
    });

    it("when expectedVersion is stale, then VERSION_CONFLICT and the task stays put", async () => {
      const task = await makeTask(ana, board.id, { quadrant: "backlog" });
      const error = await fails(
        ana.client,
        "move_task",
        { requestId: randomUUID(), boardId: board.id, taskId: task.id, expectedVersion: 2, quadrant: "urgent-important" },
        "conflict",
      );
      expect(error.message).toMatch(/^VERSION_CONFLICT:/);
      expect(await ids("urgent-important")).not.toContain(task.id);
    });
  });

  describe("complete, discard, reopen", () => {
    it("when a task is completed and reopened into a quadrant, then its status and quadrant follow and each step adds a version", async () => {
      const task = await makeTask(ana, board.id, { quadrant: "urgent-important" });
      const done = (await write("complete_task", task)).task;
      expect(done).toMatchObject({ status: "completed", quadrant: "urgent-important", version: 2 });
      const reopened = (await write("reopen_task", done, { quadrant: "backlog" })).task;
      expect(reopened).toMatchObject({ status: "active", quadrant: "backlog", version: 3 });
      expect((await ids("backlog")).at(-1)).toBe(task.id);
    });

    it("when a discarded task is reopened without quadrant, then it stays in its quadrant", async () => {
      const task = await makeTask(ana, board.id, { quadrant: "not-urgent-important" });
      const discarded = (await write("discard_task", task)).task;
      expect(discarded.status).toBe("discarded");
      expect((await write("reopen_task", discarded)).task).toMatchObject({ status: "active", quadrant: "not-urgent-important" });
    });

    it("when the status does not allow the step, then failed_precondition", async () => {
      const active = await makeTask(ana, board.id);
      await fails(
        ana.client,
        "reopen_task",
        { requestId: randomUUID(), boardId: board.id, taskId: active.id, expectedVersion: 1 },
        "failed_precondition",
      );
      const done = (await write("complete_task", active)).task;
      await fails(
        ana.client,
        "complete_task",
        { requestId: randomUUID(), boardId: board.id, taskId: done.id, expectedVersion: done.version },
        "failed_precondition",
      );
      await fails(
        ana.client,
        "discard_task",
        { requestId: randomUUID(), boardId: board.id, taskId: done.id, expectedVersion: done.version },
        "failed_precondition",
      );
    });

    it("when complete, discard or reopen sends a stale expectedVersion, then VERSION_CONFLICT: with the current task, and the status stays", async () => {
      const active = (await write("update_task", await makeTask(ana, board.id), { title: "Duas versões" })).task;
      for (const tool of ["complete_task", "discard_task"]) {
        const error = await fails(
          ana.client,
          tool,
          { requestId: randomUUID(), boardId: board.id, taskId: active.id, expectedVersion: 1 },
          "conflict",
        );
        expect(error.message).toMatch(/^VERSION_CONFLICT:/);
        expect(error.details).toMatchObject({ expectedVersion: 1, currentVersion: 2, current: active });
      }
      const done = (await write("complete_task", active)).task;
      const error = await fails(
        ana.client,
        "reopen_task",
        { requestId: randomUUID(), boardId: board.id, taskId: done.id, expectedVersion: 2, quadrant: "backlog" },
        "conflict",
      );
      expect(error.message).toMatch(/^VERSION_CONFLICT:/);
      expect(error.details).toMatchObject({ currentVersion: 3, current: done });
      const page = await ok<TaskPage>(ana.client, "list_tasks", { boardId: board.id, status: "completed" });
      expect(page.tasks.find((t) => t.id === done.id)).toEqual(done);
    });

    it("when list_tasks filters by status, quadrant and tags, then only matching tasks are listed", async () => {
      const fresh = await makeBoard(ana, "Filtros");
      const tag = await makeTag(ana, fresh.id, "Filtro");
      const tagged = await makeTask(ana, fresh.id, { quadrant: "urgent-important", tagIds: [tag.id] });
      const plain = await makeTask(ana, fresh.id, { quadrant: "urgent-important" });
      const done = (
        await ok(ana.client, "complete_task", { requestId: randomUUID(), boardId: fresh.id, taskId: plain.id, expectedVersion: 1 })
      ).task;
      const list = async (args: Record<string, unknown>) =>
        (await ok<TaskPage>(ana.client, "list_tasks", { boardId: fresh.id, ...args })).tasks.map((t) => t.id);
      expect(await list({})).toEqual([tagged.id, done.id]);
      expect(await list({ status: "completed" })).toEqual([done.id]);
      expect(await list({ status: "active", quadrant: "urgent-important" })).toEqual([tagged.id]);
      expect(await list({ tagIds: [tag.id] })).toEqual([tagged.id]);
      expect(await list({ quadrant: "backlog" })).toEqual([]);
      expect(await list({ tagIds: [] })).toEqual([tagged.id, done.id]);
    });
  });

  describe("archived tasks and boards", () => {
    it("when a task is archived in the app, then every write tool refuses it with failed_precondition and list_tasks hides it; restored, it works again", async () => {
      const task = await makeTask(ana, board.id, { quadrant: "urgent-important" });
      const archived = await ana.rest<{ task: Task }>("POST", `/v1/boards/${board.id}/tasks/${task.id}/archive`, {
        requestId: randomUUID(),
        expectedVersion: 1,
      });
      expect(archived.status).toBe(200);
      expect(archived.body.task.archived_at).not.toBeNull();
      const v = archived.body.task.version;
      const base = { boardId: board.id, taskId: task.id, expectedVersion: v };
      for (const [tool, extra] of [
        ["update_task", { title: "x" }],
        ["move_task", { quadrant: "backlog" }],
        ["complete_task", {}],
        ["discard_task", {}],
        ["reopen_task", {}],
      ] as const) {
        const error = await fails(ana.client, tool, { requestId: randomUUID(), ...base, ...extra }, "failed_precondition");
        expect(error.message).toMatch(/archived/);
      }
      expect(await ids("urgent-important")).not.toContain(task.id);
      const restored = await ana.rest<{ task: Task }>("POST", `/v1/boards/${board.id}/tasks/${task.id}/restore`, {
        requestId: randomUUID(),
        expectedVersion: v,
      });
      expect(restored.body.task).toMatchObject({ archived_at: null, version: v + 1 });
      await write("update_task", restored.body.task, { title: "de volta" });
    });

    it("when the board is archived, then writes answer failed_precondition while reads still work", async () => {
      const old = await makeBoard(ana, "Arquivado");
      const task = await makeTask(ana, old.id);
      const archived = await ana.rest("POST", `/v1/boards/${old.id}/archive`, { expectedVersion: 1 });
      expect(archived.status).toBe(200);
      await fails(ana.client, "create_task", { requestId: randomUUID(), boardId: old.id, title: "x" }, "failed_precondition");
      await fails(
        ana.client,
        "complete_task",
        { requestId: randomUUID(), boardId: old.id, taskId: task.id, expectedVersion: 1 },
        "failed_precondition",
      );
      expect((await ok<TaskPage>(ana.client, "list_tasks", { boardId: old.id })).tasks).toHaveLength(1);
    });
  });

  it("when all these writes are done, then every task's position still starts with its quadrant's rank", async () => {
    await expectPositionsMatchQuadrants(db);
  });

  describe("get_task_activity", () => {
    it("when a board has exactly 25 events, then one page without nextCursor; at 26 the first page has 25 and the second the oldest", async () => {
      const fresh = await makeBoard(ana, "Vinte e cinco eventos");
      // Fixture: 24 events after board_created, straight into the table, each a millisecond apart.
      await db.$executeRawUnsafe(
        `INSERT INTO boards.activity_events (account_id, id, board_id, actor_id, event_type, entity_type, entity_id, metadata, created_at)
         SELECT (SELECT account_id FROM boards.boards WHERE id = $1::uuid), gen_random_uuid(), $1::uuid, 'ana', 'task_updated', 'task', 'x', '{}', clock_timestamp() + make_interval(secs => n / 1000.0)
           FROM generate_series(1, 24) AS n`,
        fresh.id,
      );
      const full = await ok<Activity>(ana.client, "get_task_activity", { boardId: fresh.id });
      expect(full.events).toHaveLength(25);
      expect(full.nextCursor).toBeNull();
      await makeTask(ana, fresh.id);
      const first = await ok<Activity>(ana.client, "get_task_activity", { boardId: fresh.id });
      expect(first.events).toHaveLength(25);
      const second = await ok<Activity>(ana.client, "get_task_activity", { boardId: fresh.id, cursor: first.nextCursor });
      expect(second.events.map((e) => e.event_type)).toEqual(["board_created"]);
      expect(second.nextCursor).toBeNull();
    });

    it("when a board has 30 events, then they come newest first, 25 and then 5, with coverageStart at the board's creation", async () => {
      const fresh = await makeBoard(ana, "Atividade");
      const task = await makeTask(ana, fresh.id);
      await ok(ana.client, "update_task", {
        requestId: randomUUID(),
        boardId: fresh.id,
        taskId: task.id,
        expectedVersion: 1,
        title: "real",
      });
      // Fixture: 27 more events straight into the table, each a millisecond apart, newer than the real ones.
      await db.$executeRawUnsafe(
        `INSERT INTO boards.activity_events (account_id, id, board_id, actor_id, event_type, entity_type, entity_id, metadata, created_at)
         SELECT (SELECT account_id FROM boards.boards WHERE id = $1::uuid), gen_random_uuid(), $1::uuid, 'ana', 'task_updated', 'task', $2, '{}', clock_timestamp() + make_interval(secs => n / 1000.0)
           FROM generate_series(1, 27) AS n`,
        fresh.id,
        task.id,
      );
      const first = await ok<Activity>(ana.client, "get_task_activity", { boardId: fresh.id });
      expect(first.events).toHaveLength(25);
      expect(first.coverageStart).toBe(fresh.created_at);
      const second = await ok<Activity>(ana.client, "get_task_activity", { boardId: fresh.id, cursor: first.nextCursor });
      expect(second.events.map((e) => e.event_type)).toEqual([
        "task_updated",
        "task_updated",
        "task_updated",
        "task_created",
        "board_created",
      ]);
      expect(second.events[2]).toMatchObject({ entity_id: task.id, actor_id: "ana", metadata: { fields: ["title"] } });
      expect(second.nextCursor).toBeNull();
      const all = [...first.events, ...second.events].map((e) => e.created_at);
      expect([...all].sort().reverse()).toEqual(all);
    });
  });
});
