/**
 * Paging list_tasks through the gateway over a board of 1,000 tasks: each exactly once, in board order;
 * while another client keeps moving tasks, paging never errors or loops and never misses a task that
 * did not move. Cursors continue only the list they came from.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { randomUUID } from "node:crypto";
import { callTool, startStack, type Stack } from "@bancada/e2e";
import { createBoardsDb, type BoardsDb } from "../src/index.js";
import { boardsFactory } from "./stack.js";
import {
  closeAll,
  expectPositionsMatchQuadrants,
  fails,
  issuePaths,
  makeBoard,
  ok,
  person,
  quadrantIds,
  seedTasks,
  type Board,
  type Person,
  type Task,
  type TaskPage,
} from "./helpers.js";

describe("paging list_tasks", () => {
  let stack: Stack;
  let db: BoardsDb;
  let ana: Person;
  let board: Board;
  let all: string[];

  beforeAll(async () => {
    stack = await startStack({ services: { boards: boardsFactory } });
    db = createBoardsDb(stack.database.url, 2);
    ana = await person(stack, "ana");
    board = await makeBoard(ana, "Mil tarefas");
    await seedTasks(db, board.id, 1000);
    const rows = await db.$queryRawUnsafe<{ id: string }[]>(
      `SELECT id::text FROM boards.tasks WHERE board_id = $1::uuid ORDER BY position`,
      board.id,
    );
    all = rows.map((row) => row.id);
  });
  afterAll(async () => {
    await closeAll(ana);
    await db?.$disconnect();
    await stack?.stop();
  });

  async function pageThrough(args: Record<string, unknown> = {}, maxPages = 200): Promise<{ seen: Task[]; pages: number }> {
    const seen: Task[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const page: TaskPage = await ok<TaskPage>(ana.client, "list_tasks", { boardId: board.id, ...args, ...(cursor ? { cursor } : {}) });
      expect(page.tasks.length).toBeLessThanOrEqual(25);
      seen.push(...page.tasks);
      cursor = page.nextCursor;
      pages += 1;
    } while (cursor && pages < maxPages);
    expect(cursor, "paging did not end").toBeNull();
    return { seen, pages };
  }

  it("when a client pages through 1,000 tasks, then it gets 40 full pages with each task exactly once, in board order", async () => {
    const { seen, pages } = await pageThrough();
    expect(pages).toBe(40);
    expect(seen.map((task) => task.id)).toEqual(all);
  });

  it("when another client moves tasks while one pages, then no call fails, paging ends, and every unmoved task is seen exactly once", async () => {
    const moved = new Set<string>();
    const failures: string[] = [];
    let paging = true;
    const mover = (async () => {
      let n = 0;
      while (paging) {
        const id = all[(n * 37) % all.length]!;
        const before = n % 3 === 0 ? all[(n * 91 + 5) % all.length] : undefined;
        n += 1;
        moved.add(id);
        // Versions and quadrants read straight from the table: the mover is a fixture, not the subject.
        const [row] = await db.$queryRawUnsafe<{ version: number; quadrant: string }[]>(
          `SELECT version, quadrant::text FROM boards.tasks WHERE id = $1::uuid`,
          before ?? id,
        );
        const [self] = await db.$queryRawUnsafe<{ version: number }[]>(`SELECT version FROM boards.tasks WHERE id = $1::uuid`, id);
        const outcome = await callTool(ana.client, "move_task", {
          requestId: randomUUID(),
          boardId: board.id,
          taskId: id,
          expectedVersion: self!.version,
          quadrant: before && before !== id ? row!.quadrant : quadrantIds[n % 5],
          ...(before && before !== id ? { beforeId: before } : {}),
        });
        if (outcome.isError && !outcome.text.includes("VERSION_CONFLICT")) failures.push(outcome.text);
      }
      return n;
    })();
    let result: { seen: Task[]; pages: number };
    try {
      result = await pageThrough({}, 120);
    } finally {
      paging = false;
    }
    const moves = await mover;
    expect(failures).toEqual([]);
    expect(moves).toBeGreaterThan(5);
    const counts = new Map<string, number>();
    for (const task of result.seen) counts.set(task.id, (counts.get(task.id) ?? 0) + 1);
    for (const id of all) {
      if (moved.has(id)) expect(counts.get(id) ?? 0).toBeLessThanOrEqual(2);
      else expect(counts.get(id), `unmoved task ${id}`).toBe(1);
    }
    expect(result.pages).toBeLessThanOrEqual(41 + Math.ceil(moved.size / 25));
    await expectPositionsMatchQuadrants(db);
  });

  it("when filtering by quadrant, then paging covers exactly that quadrant's tasks", async () => {
    const { seen, pages } = await pageThrough({ quadrant: "backlog", status: "active" });
    const expected = await db.$queryRawUnsafe<{ id: string }[]>(
      `SELECT id::text FROM boards.tasks WHERE board_id = $1::uuid AND quadrant = 'backlog' AND status = 'active' AND archived_at IS NULL ORDER BY position`,
      board.id,
    );
    expect(seen.map((task) => task.id)).toEqual(expected.map((row) => row.id));
    expect(pages).toBe(Math.max(1, Math.ceil(expected.length / 25)));
  });

  it("when a cursor is used with another board or other filters, then invalid_argument names cursor", async () => {
    const { nextCursor } = await ok<TaskPage>(ana.client, "list_tasks", { boardId: board.id });
    const other = await makeBoard(ana, "Outro");
    for (const args of [{ boardId: other.id }, { boardId: board.id, quadrant: "backlog" }, { boardId: board.id, status: "active" }]) {
      const error = await fails(ana.client, "list_tasks", { ...args, cursor: nextCursor }, "invalid_argument");
      expect(issuePaths(error)).toEqual(["cursor"]);
    }
    for (const cursor of ["garbage", Buffer.from("{}").toString("base64url"), Buffer.from('{"l":"x"}').toString("base64url")]) {
      expect(issuePaths(await fails(ana.client, "list_tasks", { boardId: board.id, cursor }, "invalid_argument"))).toEqual(["cursor"]);
    }
  });

  it("when the cursor has 512 characters, then it is accepted; 513 is invalid_argument", async () => {
    const { nextCursor } = await ok<TaskPage>(ana.client, "list_tasks", { boardId: board.id });
    const json = Buffer.from(nextCursor!, "base64url").toString("utf8");
    const padded = Buffer.from(json.padEnd(384, " ")).toString("base64url");
    expect(padded).toHaveLength(512);
    const second = await ok<TaskPage>(ana.client, "list_tasks", { boardId: board.id, cursor: padded });
    expect(second.tasks[0]?.id).toBe(all[25]);
    expect(issuePaths(await fails(ana.client, "list_tasks", { boardId: board.id, cursor: "a".repeat(513) }, "invalid_argument"))).toEqual([
      "cursor",
    ]);
  });
});
