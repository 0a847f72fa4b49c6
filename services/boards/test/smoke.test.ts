import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { randomUUID } from "node:crypto";
import { startStack, type Stack } from "@bancada/e2e";
import { boardsFactory } from "./stack.js";
import { closeAll, makeBoard, ok, person, type Board, type Person, type TaskPage } from "./helpers.js";

describe("boards thin path", () => {
  let stack: Stack;
  let ana: Person;
  beforeAll(async () => {
    stack = await startStack({ services: { boards: boardsFactory } });
    ana = await person(stack, "ana");
  });
  afterAll(async () => {
    await closeAll(ana);
    await stack?.stop();
  });

  it("when a board is created over REST and a task through the gateway, then list_boards and list_tasks read them back", async () => {
    const board = await makeBoard(ana);
    const { boards } = await ok<{ boards: Board[] }>(ana.client, "list_boards", {});
    expect(boards.map((b) => b.id)).toEqual([board.id]);
    const requestId = randomUUID();
    const { task } = await ok(ana.client, "create_task", { requestId, boardId: board.id, title: "Primeira", quadrant: "urgent-important" });
    expect(task).toMatchObject({ id: requestId, task_number: 1, version: 1, status: "active", quadrant: "urgent-important" });
    const page = await ok<TaskPage>(ana.client, "list_tasks", { boardId: board.id });
    expect(page.tasks.map((t) => t.id)).toEqual([requestId]);
    expect(page.nextCursor).toBeNull();
  });
});
