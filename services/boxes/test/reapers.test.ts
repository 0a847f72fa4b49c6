/**
 * The reapers (domain/reaper.ts) on real boxes: idle sleep and the wake by exec, a running job keeping a box
 * awake, the run limit's pause, deleteAfterSeconds, and two rounds racing. The periodic round is slowed down
 * here; the tests move a box's recorded activity, running start or creation back in Postgres and call the
 * round themselves, so no test waits minutes.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { connectClient, startStack, type Stack } from "@bancada/e2e";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { createLogger } from "@bancada/service-kit";
import { createBoxesService } from "../src/index.js";
import { reapBoxes, reaperLockName } from "../src/domain/reaper.js";
import { boxesTestStack, type BoxesTestStack, describeBoxes } from "./stack.js";
import { allScopes, fails, ok, run, until, type Box, type Job } from "./helpers.js";

const minutesAgo = (minutes: number) => new Date(Date.now() - minutes * 60_000);

describeBoxes("box reapers", () => {
  let boxes: BoxesTestStack;
  let stack: Stack;
  let client: Client;
  let box: Box;

  beforeAll(async () => {
    boxes = boxesTestStack({ reapIntervalMs: 3_600_000 });
    stack = await startStack({ services: { boxes: boxes.factory } });
    client = await connectClient(stack.mcpUrl, await stack.createKey({ scopes: allScopes }));
    box = (await ok(client, "create_box", { name: "reaped" })).box;
  });
  afterAll(async () => {
    await client?.close();
    await stack?.stop();
    await boxes?.cleanup();
  });

  const db = () => boxes.service().db;
  const reap = () => reapBoxes(boxes.service().runtime);
  const stateOf = async (id: string) => (await ok(client, "get_box", { boxId: id })).box;

  it("when a running box had no call for autoSuspendSeconds, then the reaper puts it to sleep and an exec wakes it with its files", async () => {
    await run(client, box.id, "echo kept > /data/home/note");
    expect(box.enforcement.autoSuspend).toContain("after 300 s");
    // Not idle yet: nothing happens.
    expect((await reap()).slept).toEqual([]);
    await db().box.update({ where: { id: box.id }, data: { lastActivityAt: minutesAgo(6) } });
    expect(await reap()).toMatchObject({ skipped: false, slept: [box.id], paused: [], deleted: [] });
    const asleep = await stateOf(box.id);
    expect(asleep).toMatchObject({ state: "sleeping", operation: null });
    expect(asleep.stateReason).toContain("autoSuspendSeconds");
    expect((await run(client, box.id, "cat /data/home/note")).stdout).toBe("kept\n");
    expect((await stateOf(box.id)).state).toBe("running");
    const row = await db().box.findUniqueOrThrow({ where: { id: box.id } });
    expect(Date.now() - row.lastActivityAt.getTime()).toBeLessThan(30_000);
  });

  let job: Job;
  it("when a job is running, then an idle box is not put to sleep", async () => {
    ({ job } = await ok<{ job: Job }>(client, "start_job", { boxId: box.id, cmd: "sleep 1000" }));
    expect(job.status).toBe("running");
    await db().box.update({ where: { id: box.id }, data: { lastActivityAt: minutesAgo(60) } });
    expect((await reap()).slept).toEqual([]);
    expect((await stateOf(box.id)).state).toBe("running");
  });

  it("when a box ran for maxRunMinutes, then it is paused: suspended with the reason, exec refused until resume_box wakes it", async () => {
    expect(box.enforcement.maxRun).toContain("after 240 minutes");
    await db().box.update({ where: { id: box.id }, data: { runningSince: minutesAgo(241) } });
    expect(await reap()).toMatchObject({ paused: [box.id], slept: [] });
    const paused = await stateOf(box.id);
    expect(paused).toMatchObject({ state: "suspended", operation: null });
    expect(paused.stateReason).toContain("run limit was reached");
    const error = await fails(client, "exec", { boxId: box.id, cmd: "true" }, "failed_precondition");
    expect(error.message).toContain("resume_box");
    expect(error.message).toContain("run limit");
    await fails(client, "read_file", { boxId: box.id, path: "note" }, "failed_precondition");
    // Paused, not asleep: even a long idleness leaves it as it is.
    expect(await reap()).toMatchObject({ paused: [], slept: [] });
    expect((await ok(client, "resume_box", { boxId: box.id })).box).toMatchObject({ state: "running", stateReason: null });
    // The same processes continue: the job started before the pause still runs.
    expect((await ok<{ job: Job }>(client, "job_wait", { boxId: box.id, jobId: job.id, timeoutSeconds: 1 })).job.status).toBe("running");
    expect((await run(client, box.id, "cat /data/home/note")).stdout).toBe("kept\n");
  });

  it("when deleteAfterSeconds have passed since creation, then the box is deleted as delete_box does", async () => {
    const { box: shortLived } = await ok(client, "create_box", { name: "short-lived", deleteAfterSeconds: 60 });
    expect(shortLived.enforcement.deleteAfter).toContain("deleted 60 s after it was created");
    expect((await reap()).deleted).toEqual([]);
    await db().box.update({ where: { id: shortLived.id }, data: { createdAt: minutesAgo(2) } });
    expect((await reap()).deleted).toEqual([shortLived.id]);
    const gone = await stateOf(shortLived.id);
    expect(gone).toMatchObject({ state: "deleted", operation: null });
    expect(gone.stateReason).toContain("deleteAfterSeconds");
    expect(gone.deletedAt).not.toBeNull();
    await fails(client, "get_box", { boxId: "short-lived" }, "not_found");
  });

  it("when two reaper rounds race, then each due box is acted on once", async () => {
    const { box: idle } = await ok(client, "create_box", { name: "raced" });
    await db().box.update({ where: { id: idle.id }, data: { lastActivityAt: minutesAgo(10) } });
    const rounds = await Promise.all([reap(), reap(), reap()]);
    expect(rounds.flatMap((round) => round.slept)).toEqual([idle.id]);
    expect((await stateOf(idle.id)).state).toBe("sleeping");
    const intervals = await db().boxInterval.findMany({ where: { boxId: idle.id }, orderBy: { startedAt: "asc" } });
    expect(intervals.map((interval) => interval.state)).toEqual(["creating", "running", "sleeping"]);
    await ok(client, "delete_box", { boxId: idle.id, confirm: true });
  });

  it("when another replica's round holds the advisory lock, then a round skips and claims nothing", async () => {
    const name = reaperLockName(boxes.service().runtime);
    await db().$transaction(async (tx) => {
      await tx.$queryRaw`SELECT pg_advisory_xact_lock(hashtextextended(${name}, 0))::text`;
      expect(await reap()).toEqual({ skipped: true, slept: [], paused: [], deleted: [] });
    });
    expect((await reap()).skipped).toBe(false);
  });

  it("when two replicas on one node reap at once, each with its own periodic round, then a due box is deleted exactly once", async () => {
    // A second replica of the service: its own instance, the same database, bus and node (the same data folder).
    const first = boxes.service();
    const second = await createBoxesService({
      databaseUrl: stack.database.url,
      bus: stack.bus,
      subjects: stack.subjects,
      log: createLogger("replica-2", "silent"),
      dataDir: boxes.dataDir,
      pidsMax: 128,
      hostMemoryMiB: 4 * 1024 * 1024,
      hostCores: 1024,
      uidBase: 150_000,
      reapIntervalMs: 20,
    });
    try {
      expect(second.runtime.instance).not.toBe(first.runtime.instance);
      expect(second.runtime.driver.node).toBe(first.runtime.driver.node);
      const { box: due } = await ok(client, "create_box", { name: "twice-due", deleteAfterSeconds: 60 });
      await db().box.update({ where: { id: due.id }, data: { createdAt: minutesAgo(2) } });
      // The second replica's own round every 20 ms, and the first's rounds as fast as they go, for a while.
      const rounds: Awaited<ReturnType<typeof reap>>[] = [];
      const roundsUntil = Date.now() + 1_500;
      await Promise.all(
        [first.runtime, second.runtime, first.runtime].map(async (runtime) => {
          while (Date.now() < roundsUntil) rounds.push(await reapBoxes(runtime));
        }),
      );
      // The delete a round started may still be removing the disk (seconds on a loaded machine).
      expect(
        (
          await until(
            () => stateOf(due.id),
            (row) => row.state === "deleted",
            30_000,
          )
        ).state,
      ).toBe("deleted");
      const manual = rounds.flatMap((round) => round.deleted).filter((id) => id === due.id);
      const intervals = await db().boxInterval.findMany({ where: { boxId: due.id }, orderBy: { id: "asc" } });
      // Deleted once: one deleting interval, closed; by one round (a manual one here, or the second replica's own).
      expect(intervals.map((interval) => interval.state)).toEqual(["creating", "running", "deleting"]);
      expect(manual.length).toBeLessThanOrEqual(1);
    } finally {
      await second.stop();
    }
  });

  it("when a replica runs on another node (BOXES_NODE), then its rounds never act on this node's boxes", async () => {
    // Made before the second replica serves the call subject: calls are not routed by node yet, so a create_box
    // answered by replica-b would put the box on replica-b's node.
    const { box: due } = await ok(client, "create_box", { name: "other-node-due", deleteAfterSeconds: 60 });
    await db().box.update({ where: { id: due.id }, data: { createdAt: minutesAgo(2) } });
    const dataDir = mkdtempSync(path.join(tmpdir(), "bancada-boxes-other-node-"));
    const other = await createBoxesService({
      databaseUrl: stack.database.url,
      bus: stack.bus,
      subjects: stack.subjects,
      log: createLogger("replica-b", "silent"),
      dataDir,
      node: "replica-b",
      hostMemoryMiB: 4 * 1024 * 1024,
      hostCores: 1024,
      uidBase: 160_000,
      reapIntervalMs: 3_600_000,
    });
    try {
      expect(other.runtime.driver.node).toBe("replica-b");
      expect(other.runtime.driver.node).not.toBe(boxes.service().runtime.driver.node);
      expect((await reapBoxes(other.runtime)).deleted).toEqual([]);
      expect((await stateOf(due.id)).state).toBe("running");
      expect((await reap()).deleted).toEqual([due.id]);
    } finally {
      await other.stop();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
