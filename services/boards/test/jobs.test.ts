/**
 * Expiry jobs: activity after 90 days (never shown past the horizon even before the job runs), and one
 * replica at a time: while another session holds a job's advisory lock, a run skips that job.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startStack, type Stack } from "@bancada/e2e";
import { createBoardsDb, runExpiryJobs, type BoardsDb } from "../src/index.js";
import { expiryJobs, expiryLockClass, runExpiryJob } from "../src/domain/expiry.js";
import { boardsFactory } from "./stack.js";
import { closeAll, makeBoard, makeTask, ok, person, type Board, type Person } from "./helpers.js";

interface Activity {
  events: { id: string; event_type: string }[];
  coverageStart: string;
}

describe("expiry jobs", () => {
  let stack: Stack;
  let db: BoardsDb;
  let other: BoardsDb;
  let ana: Person;
  let board: Board;

  beforeAll(async () => {
    stack = await startStack({ services: { boards: boardsFactory } });
    db = createBoardsDb(stack.database.url, 2);
    other = createBoardsDb(stack.database.url, 2);
    ana = await person(stack, "ana");
    board = await makeBoard(ana);
    await makeTask(ana, board.id);
  });
  afterAll(async () => {
    await closeAll(ana);
    await db?.$disconnect();
    await other?.$disconnect();
    await stack?.stop();
  });

  it("when events are older than 90 days, then get_task_activity hides them, coverageStart is 90 days back, and the job deletes only them", async () => {
    await db.$executeRawUnsafe(`UPDATE boards.boards SET created_at = now() - interval '1 year' WHERE id = $1::uuid`, board.id);
    await db.$executeRawUnsafe(
      `UPDATE boards.activity_events SET created_at = now() - interval '90 days 1 minute' WHERE board_id = $1::uuid AND event_type = 'board_created'`,
      board.id,
    );
    await db.$executeRawUnsafe(
      `UPDATE boards.activity_events SET created_at = now() - interval '89 days 23 hours' WHERE board_id = $1::uuid AND event_type = 'task_created'`,
      board.id,
    );
    const before = await ok<Activity>(ana.client, "get_task_activity", { boardId: board.id });
    expect(before.events.map((e) => e.event_type)).toEqual(["task_created"]);
    const coverage = Date.parse(before.coverageStart);
    expect(Math.abs(coverage - (Date.now() - 90 * 24 * 3600 * 1000))).toBeLessThan(10_000);
    const outcome = (await runExpiryJobs(db)).find((o) => o.job === "activity_events");
    expect(outcome).toEqual({ job: "activity_events", ran: true, deleted: 1 });
    const after = await ok<Activity>(ana.client, "get_task_activity", { boardId: board.id });
    expect(after.events).toEqual(before.events);
  });

  it("when another replica holds a job's lock, then this run skips that job and runs it once the lock is free", async () => {
    const job = expiryJobs.find((j) => j.name === "idempotency_records")!;
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let locked!: () => void;
    const lockTaken = new Promise<void>((resolve) => (locked = resolve));
    const holder = other.$transaction(
      async (tx) => {
        await tx.$queryRawUnsafe(`SELECT pg_try_advisory_xact_lock(${expiryLockClass}, ${job.lockKey})::text AS ok`);
        locked();
        await held;
      },
      { timeout: 20_000 },
    );
    await lockTaken;
    expect(await runExpiryJob(db, job)).toEqual({ job: "idempotency_records", ran: false, deleted: 0 });
    const others = await Promise.all(expiryJobs.filter((j) => j !== job).map((j) => runExpiryJob(db, j)));
    expect(others.every((o) => o.ran)).toBe(true);
    release();
    await holder;
    expect((await runExpiryJob(db, job)).ran).toBe(true);
  });

  it("when two replicas run the jobs at the same moment, then nothing fails and every job ran in at least one of them", async () => {
    const [a, b] = await Promise.all([runExpiryJobs(db), runExpiryJobs(other)]);
    for (const name of expiryJobs.map((j) => j.name)) {
      const runs = [a, b].map((outcomes) => outcomes.find((o) => o.job === name)!);
      expect(runs.filter((o) => o.ran).length).toBeGreaterThanOrEqual(1);
    }
  });
});
