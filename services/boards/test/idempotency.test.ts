/**
 * requestId idempotency of the task writes (7 days, docs/boards.md#write-rules): same requestId + same arguments → the
 * original result and nothing written; racing calls create one task; other arguments, another tool or
 * another person's requestId → IDEMPOTENCY_CONFLICT:. After 7 days the record counts as gone.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { randomUUID } from "node:crypto";
import { callTool, startStack, type Stack } from "@bancada/e2e";
import { createBoardsDb, runExpiryJobs, type BoardsDb } from "../src/index.js";
import { boardsFactory } from "./stack.js";
import { closeAll, fails, makeBoard, makeTag, makeTask, ok, person, type Board, type Person, type Task, type TaskPage } from "./helpers.js";

interface Activity {
  events: { event_type: string; entity_id: string }[];
}

describe("requestId idempotency", () => {
  let stack: Stack;
  let db: BoardsDb;
  let ana: Person;
  let bia: Person;
  let board: Board;

  beforeAll(async () => {
    stack = await startStack({ services: { boards: boardsFactory } });
    db = createBoardsDb(stack.database.url, 2);
    ana = await person(stack, "ana");
    bia = await person(stack, "bia");
    board = await makeBoard(ana, "Produto", { bia: "editor" });
  });
  afterAll(async () => {
    await closeAll(ana, bia);
    await db?.$disconnect();
    await stack?.stop();
  });

  const eventsFor = async (taskId: string) =>
    (await ok<Activity>(ana.client, "get_task_activity", { boardId: board.id })).events
      .filter((e) => e.entity_id === taskId)
      .map((e) => e.event_type);
  const backdate = (requestId: string, interval: string) =>
    db.$executeRawUnsafe(
      `UPDATE boards.idempotency_records SET created_at = now() - interval '${interval}' WHERE request_id = $1::uuid`,
      requestId,
    );

  it("when create_task is repeated with the same requestId and arguments, then the same task comes back and one task exists", async () => {
    const args = { requestId: randomUUID(), boardId: board.id, title: "Uma vez", quadrant: "urgent-important" };
    const first = await ok(ana.client, "create_task", args);
    const again = await ok(ana.client, "create_task", { ...args });
    expect(again).toEqual(first);
    const { tasks } = await ok<TaskPage>(ana.client, "list_tasks", { boardId: board.id, quadrant: "urgent-important" });
    expect(tasks.filter((t) => t.title === "Uma vez")).toHaveLength(1);
    expect(await eventsFor(first.task.id)).toEqual(["task_created"]);
  });

  it("when 10 create_task calls with one requestId race, then exactly one task is created and all answer with it", async () => {
    const args = { requestId: randomUUID(), boardId: board.id, title: "Corrida", quadrant: "not-urgent-important" };
    const outcomes = await Promise.all(Array.from({ length: 10 }, () => callTool<{ task: Task }>(ana.client, "create_task", args)));
    for (const outcome of outcomes) expect(outcome.isError, outcome.text.slice(0, 200)).toBe(false);
    expect(new Set(outcomes.map((o) => JSON.stringify(o.data))).size).toBe(1);
    const { tasks } = await ok<TaskPage>(ana.client, "list_tasks", { boardId: board.id, quadrant: "not-urgent-important" });
    expect(tasks.filter((t) => t.title === "Corrida").map((t) => t.id)).toEqual([args.requestId]);
    expect(await eventsFor(args.requestId)).toEqual(["task_created"]);
  });

  it("when 8 create_task calls with different requestIds race on one board, then 8 tasks get 8 distinct, consecutive numbers", async () => {
    const fresh = await makeBoard(ana, "Paralelo", { bia: "editor" });
    const outcomes = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        callTool<{ task: Task }>(i % 2 ? bia.client : ana.client, "create_task", {
          requestId: randomUUID(),
          boardId: fresh.id,
          title: `p${i}`,
        }),
      ),
    );
    for (const outcome of outcomes) expect(outcome.isError, outcome.text.slice(0, 200)).toBe(false);
    expect(outcomes.map((o) => o.data.task.task_number).sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    const { tasks } = await ok<TaskPage>(ana.client, "list_tasks", { boardId: fresh.id });
    expect(tasks).toHaveLength(8);
  });

  it("when two moves with one requestId race, then the task moves once and both get the same result", async () => {
    const task = await makeTask(ana, board.id);
    const args = { requestId: randomUUID(), boardId: board.id, taskId: task.id, expectedVersion: 1, quadrant: "urgent-not-important" };
    const [a, b] = await Promise.all([
      callTool<{ task: Task }>(ana.client, "move_task", args),
      callTool<{ task: Task }>(ana.client, "move_task", args),
    ]);
    expect(a!.isError || b!.isError).toBe(false);
    expect(a!.data).toEqual(b!.data);
    expect(a!.data.task.version).toBe(2);
    expect(await eventsFor(task.id)).toEqual(["task_moved", "task_created"]);
  });

  it("when a write is repeated after the task changed, then the original result comes back and nothing is written again", async () => {
    const task = await makeTask(ana, board.id);
    const args = { requestId: randomUUID(), boardId: board.id, taskId: task.id, expectedVersion: 1, title: "Primeira edição" };
    const first = await ok(ana.client, "update_task", args);
    await ok(ana.client, "complete_task", { requestId: randomUUID(), boardId: board.id, taskId: task.id, expectedVersion: 2 });
    expect(await ok(ana.client, "update_task", args)).toEqual(first);
    expect(await eventsFor(task.id)).toEqual(["task_completed", "task_updated", "task_created"]);
  });

  it("when a requestId is reused with other arguments, then IDEMPOTENCY_CONFLICT: and nothing changes", async () => {
    const requestId = randomUUID();
    const created = (await ok(ana.client, "create_task", { requestId, boardId: board.id, title: "Original" })).task;
    const error = await fails(ana.client, "create_task", { requestId, boardId: board.id, title: "Outro título" }, "idempotency_conflict");
    expect(error.message.startsWith("IDEMPOTENCY_CONFLICT:")).toBe(true);
    const other = await makeTask(ana, board.id);
    const move = { requestId: randomUUID(), boardId: board.id, taskId: other.id, expectedVersion: 1, quadrant: "backlog" };
    await ok(ana.client, "move_task", move);
    await fails(ana.client, "move_task", { ...move, quadrant: "urgent-important" }, "idempotency_conflict");
    await fails(
      ana.client,
      "complete_task",
      { requestId: move.requestId, boardId: board.id, taskId: other.id, expectedVersion: 1 },
      "idempotency_conflict",
    );
    const listed = (await ok<TaskPage>(ana.client, "list_tasks", { boardId: board.id })).tasks;
    expect(listed.find((t) => t.id === created.id)?.title).toBe("Original");
    expect(listed.find((t) => t.id === other.id)).toMatchObject({ quadrant: "backlog", version: 2, status: "active" });
  });

  it("when any of the seven write tools gets a used requestId with other arguments, then IDEMPOTENCY_CONFLICT: and nothing is written", async () => {
    const task = await makeTask(ana, board.id);
    const onTask = { boardId: board.id, taskId: task.id };
    const calls: [string, Record<string, unknown>, Record<string, unknown>][] = [
      ["create_task", { boardId: board.id, title: "a" }, { boardId: board.id, title: "b" }],
      ["update_task", { ...onTask, expectedVersion: 1, title: "a" }, { ...onTask, expectedVersion: 1, title: "b" }],
      [
        "move_task",
        { ...onTask, expectedVersion: 2, quadrant: "backlog" },
        { ...onTask, expectedVersion: 2, quadrant: "urgent-important" },
      ],
      ["complete_task", { ...onTask, expectedVersion: 3 }, { ...onTask, expectedVersion: 4 }],
      ["reopen_task", { ...onTask, expectedVersion: 4, quadrant: "backlog" }, { ...onTask, expectedVersion: 4 }],
      ["discard_task", { ...onTask, expectedVersion: 5 }, { ...onTask, expectedVersion: 6 }],
      ["submit_board_proposal", { boardId: board.id, summary: "a" }, { boardId: board.id, summary: "b" }],
    ];
    for (const [tool, first, other] of calls) {
      const requestId = randomUUID();
      await ok(ana.client, tool, { requestId, ...first });
      const error = await fails(ana.client, tool, { requestId, ...other }, "idempotency_conflict");
      expect(error.message, tool).toMatch(/^IDEMPOTENCY_CONFLICT:/);
    }
    const after = (await ok<TaskPage>(ana.client, "list_tasks", { boardId: board.id })).tasks.find((t) => t.id === task.id);
    expect(after).toMatchObject({ title: "a", status: "discarded", quadrant: "backlog", version: 6 });
  });

  it("when tag ids come in another order, then it is the same request", async () => {
    const [x, y] = [await makeTag(ana, board.id, "X"), await makeTag(ana, board.id, "Y")];
    const args = { requestId: randomUUID(), boardId: board.id, title: "Tags" };
    const first = await ok(ana.client, "create_task", { ...args, tagIds: [x.id, y.id] });
    expect(await ok(ana.client, "create_task", { ...args, tagIds: [y.id, x.id] })).toEqual(first);
  });

  it("when another person sends the same requestId, then IDEMPOTENCY_CONFLICT: (never someone else's result)", async () => {
    const args = { requestId: randomUUID(), boardId: board.id, title: "De Ana" };
    await ok(ana.client, "create_task", args);
    const error = await fails(bia.client, "create_task", args, "idempotency_conflict");
    expect(error.message).toMatch(/^IDEMPOTENCY_CONFLICT:/);
  });

  it("when a write fails, then its requestId is not used up: the corrected call with the same requestId succeeds", async () => {
    const task = await makeTask(ana, board.id);
    const requestId = randomUUID();
    await fails(ana.client, "update_task", { requestId, boardId: board.id, taskId: task.id, expectedVersion: 5, title: "x" }, "conflict");
    expect(
      (await ok(ana.client, "update_task", { requestId, boardId: board.id, taskId: task.id, expectedVersion: 1, title: "x" })).task.version,
    ).toBe(2);
  });

  it("when the record is 1 minute short of 7 days old, then a repeat still replays; past 7 days it counts as gone", async () => {
    const task = await makeTask(ana, board.id);
    const requestId = randomUUID();
    const args = { requestId, boardId: board.id, taskId: task.id, expectedVersion: 1, title: "Semana" };
    const first = await ok(ana.client, "update_task", args);
    await backdate(requestId, "6 days 23 hours 59 minutes");
    expect(await ok(ana.client, "update_task", args)).toEqual(first);
    await fails(ana.client, "update_task", { ...args, title: "outra" }, "idempotency_conflict");
    await backdate(requestId, "7 days 1 minute");
    const fresh = await ok(ana.client, "update_task", { ...args, expectedVersion: 2, title: "Nova operação" });
    expect(fresh.task.version).toBe(3);
  });

  it("when a create_task record has expired, then the requestId still cannot create a second task with the same id", async () => {
    const requestId = randomUUID();
    await ok(ana.client, "create_task", { requestId, boardId: board.id, title: "Velha" });
    await backdate(requestId, "8 days");
    await fails(ana.client, "create_task", { requestId, boardId: board.id, title: "Velha" }, "idempotency_conflict");
  });

  it("when the expiry job runs, then records older than 7 days are deleted and younger ones kept", async () => {
    const [old, young] = [randomUUID(), randomUUID()];
    await ok(ana.client, "create_task", { requestId: old, boardId: board.id, title: "old" });
    await ok(ana.client, "create_task", { requestId: young, boardId: board.id, title: "young" });
    await backdate(old, "7 days 1 second");
    await backdate(young, "6 days 23 hours");
    const outcomes = await runExpiryJobs(db);
    expect(outcomes.find((o) => o.job === "idempotency_records")).toMatchObject({ ran: true });
    const left = await db.$queryRawUnsafe<{ id: string }[]>(
      `SELECT request_id::text AS id FROM boards.idempotency_records WHERE request_id = ANY($1::uuid[])`,
      [old, young],
    );
    expect(left.map((row) => row.id)).toEqual([young]);
  });
});
