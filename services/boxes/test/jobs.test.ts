/**
 * Background jobs through the gateway (start_job, job_logs, job_wait), create_box's setup and task, a
 * wait cancelled by the client, and durability: a restart of the service (in process, and of its whole
 * process) with jobs running, a box that dies while the service runs or while it is down.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { statfsSync, statSync } from "node:fs";
import path from "node:path";
import { subjects } from "@bancada/contracts";
import { MemoryBus, createLogger } from "@bancada/service-kit";
import { abandonableCall, connectClient, freshDatabase, startStack, type Stack } from "@bancada/e2e";
import { createBoxesService } from "../src/index.js";
import {
  boxesTestStack,
  type BoxesTestStack,
  cleanupAfterTest,
  closeBoxFixture,
  describeBoxes,
  openBoxFixture,
  startServiceProcess,
} from "./stack.js";
import { allScopes, call, fails, issuePaths, ok, run, until, type Box, type Job } from "./helpers.js";

const fixture = path.join(import.meta.dirname, "fixtures/service-process.ts");

interface Logs {
  data: string;
  offset: number;
  nextOffset: number;
  size: number;
  hasMore: boolean;
  status: string;
}

describeBoxes("jobs and durability", () => {
  let boxes: BoxesTestStack;
  let stack: Stack;
  let client: Client;
  let key: string;
  let box: Box;

  beforeAll(async () => {
    ({ boxes, stack, key, client, box } = await openBoxFixture("jobs"));
  });
  afterAll(() => closeBoxFixture({ boxes, stack, client }));

  const start = async (args: Record<string, unknown>) => (await ok<{ job: Job }>(client, "start_job", { boxId: box.id, ...args })).job;
  const wait = async (jobId: string, timeoutSeconds = 30, boxId = box.id) =>
    (await ok<{ job: Job }>(client, "job_wait", { boxId, jobId, timeoutSeconds }, 120_000)).job;
  const logs = (jobId: string, extra: Record<string, unknown> = {}) => ok<Logs>(client, "job_logs", { boxId: box.id, jobId, ...extra });

  it("when a job runs, then job_logs reads stdout and stderr interleaved by offset or tail, and job_wait returns its exit", async () => {
    const job = await start({
      name: "count",
      cmd: 'for i in 1 2 3 4 5; do echo "line $i"; done; echo "oops" >&2; exit 3',
      env: { SECRET_TOKEN: "s3cr3t" },
    });
    expect(job).toMatchObject({ name: "count", status: "running", envNames: ["SECRET_TOKEN"] });
    expect(JSON.stringify(job)).not.toContain("s3cr3t");
    const ended = await wait(job.id);
    expect(ended).toMatchObject({ status: "failed", exitCode: 3, signal: null });
    const all = await logs(job.id);
    expect(all).toMatchObject({ data: "line 1\nline 2\nline 3\nline 4\nline 5\noops\n", offset: 0, hasMore: false, status: "failed" });
    expect(all.nextOffset).toBe(all.size);
    const rest = await logs(job.id, { offset: 7 });
    expect(rest.data.startsWith("line 2\n")).toBe(true);
    expect((await logs(job.id, { offset: all.nextOffset })).data).toBe("");
    expect((await logs(job.id, { tail: 2 })).data).toBe("line 5\noops\n");
    expect((await logs(job.id, { tail: 100 })).data).toBe(all.data);
    expect(issuePaths(await fails(client, "job_logs", { boxId: box.id, jobId: job.id, tail: 0 }, "invalid_argument"))).toEqual(["tail"]);
    expect(issuePaths(await fails(client, "job_logs", { boxId: box.id, jobId: job.id, tail: 10_001 }, "invalid_argument"))).toEqual([
      "tail",
    ]);
  });

  it("when a log is larger than one answer, then reads by nextOffset return every byte once, at most 1 MiB each", async () => {
    const job = await start({ cmd: "seq 1 200000" });
    await wait(job.id);
    const expected = Array.from({ length: 200_000 }, (_, i) => `${i + 1}\n`).join("");
    let text = "";
    let offset = 0;
    let reads = 0;
    for (;;) {
      const outcome = await call<Logs>(client, "job_logs", { boxId: box.id, jobId: job.id, offset });
      expect(Buffer.byteLength(outcome.data.data)).toBeLessThanOrEqual(1_048_576);
      expect(outcome.data.offset).toBe(offset);
      text += outcome.data.data;
      offset = outcome.data.nextOffset;
      reads++;
      if (!outcome.data.hasMore) break;
    }
    expect(reads).toBeGreaterThan(1);
    expect(text === expected).toBe(true);
    const tail = await logs(job.id, { tail: 3 });
    expect(tail.data).toBe("199998\n199999\n200000\n");
    expect(tail.nextOffset).toBe(Buffer.byteLength(expected));
  });

  it("when job_wait's deadline passes first, then the job comes back still running; its end is succeeded or killed", async () => {
    const job = await start({ argv: ["sh", "-c", "sleep 15; echo done"] });
    const early = await wait(job.id, 1);
    expect(early.status).toBe("running");
    expect(await wait(job.id, 30)).toMatchObject({ status: "succeeded", exitCode: 0 });
    const killed = await start({ cmd: "kill -KILL $$" });
    expect(await wait(killed.id)).toMatchObject({ status: "killed", exitCode: null, signal: "SIGKILL" });
    expect(issuePaths(await fails(client, "job_wait", { boxId: box.id, jobId: job.id, timeoutSeconds: 601 }, "invalid_argument"))).toEqual([
      "timeoutSeconds",
    ]);
    expect(issuePaths(await fails(client, "job_wait", { boxId: box.id, jobId: job.id, timeoutSeconds: 0 }, "invalid_argument"))).toEqual([
      "timeoutSeconds",
    ]);
    await fails(client, "job_wait", { boxId: box.id, jobId: "job_unknown", timeoutSeconds: 1 }, "not_found");
  });

  it("when start_job repeats an idempotency key, then the first job comes back; with other arguments, idempotency_conflict", async () => {
    const first = await start({ cmd: "echo once", idempotencyKey: "job-key-1" });
    const again = await start({ cmd: "echo once", idempotencyKey: "job-key-1" });
    expect(again.id).toBe(first.id);
    await fails(client, "start_job", { boxId: box.id, cmd: "echo twice", idempotencyKey: "job-key-1" }, "idempotency_conflict");
    expect(issuePaths(await fails(client, "start_job", { boxId: box.id, cmd: "true", cwd: "missing-dir" }, "invalid_argument"))).toEqual([
      "cwd",
    ]);
  });

  it("when the client goes away during job_wait, then the wait stops at once and the job keeps running", async () => {
    const job = await start({ cmd: "sleep 4; echo finished" });
    const call = abandonableCall(stack.mcpUrl, key, "job_wait", { boxId: box.id, jobId: job.id, timeoutSeconds: 600 });
    const runtime = boxes.service().runtime;
    await until(
      async () => runtime.inFlight.jobWait,
      (count) => count > 0,
    );
    await call.abandon();
    expect(
      await until(
        async () => runtime.inFlight.jobWait,
        (count) => count === 0,
        5_000,
      ),
    ).toBe(0);
    expect((await wait(job.id, 1)).status).toBe("running");
    expect(await wait(job.id, 30)).toMatchObject({ status: "succeeded" });
    expect((await logs(job.id)).data).toBe("finished\n");
  });

  it("when create_box has setup and task, then setup runs before the box counts as running and the task starts as a job", async () => {
    const [{ box: made }, { box: failing }] = await Promise.all([
      ok(client, "create_box", {
        name: "with-setup",
        setup: { cmd: "echo prepared > /data/home/setup.txt; echo setup-log" },
        task: { name: "main", cmd: "cat /data/home/setup.txt; echo task-done" },
      }),
      ok(client, "create_box", { name: "bad-setup", setup: { cmd: "exit 4" }, task: { cmd: "echo never" } }),
    ]);
    expect(made).toMatchObject({ state: "running", stateReason: null });
    expect(made.setupJobId).toMatch(/^job_/);
    const task = await wait(String(made.taskJobId), 30, made.id);
    expect(task).toMatchObject({ name: "main", status: "succeeded" });
    expect((await ok<Logs>(client, "job_logs", { boxId: made.id, jobId: String(made.taskJobId) })).data).toBe("prepared\ntask-done\n");
    expect((await ok<Logs>(client, "job_logs", { boxId: made.id, jobId: String(made.setupJobId) })).data).toBe("setup-log\n");
    expect(failing.state).toBe("running");
    expect(failing.stateReason).toContain("setup failed with exit code 4");
    expect(failing.taskJobId).toBeNull();
    await Promise.all([made, failing].map((gone) => ok(client, "delete_box", { boxId: gone.id, confirm: true })));
  });

  it("when the service restarts with jobs running, then no job record is lost, the box keeps its processes and jobs finish normally", async () => {
    const short = await start({ cmd: "sleep 3; echo survived" });
    const long = await start({ cmd: "echo $$ > /data/home/long.pid; sleep 1000" });
    const pid = (
      await until(
        () => run(client, box.id, "cat /data/home/long.pid 2>/dev/null || true"),
        (r) => r.stdout.trim() !== "",
      )
    ).stdout.trim();
    await stack.stopService("boxes");
    await stack.startService("boxes");
    const after = await ok(client, "get_box", { boxId: box.id });
    expect(after.box).toMatchObject({ state: "running", operation: null });
    expect(await wait(short.id, 30)).toMatchObject({ status: "succeeded", exitCode: 0 });
    expect((await logs(short.id)).data).toBe("survived\n");
    expect((await wait(long.id, 1)).status).toBe("running");
    expect((await run(client, box.id, "kill -0 $(cat /data/home/long.pid) && cat /data/home/long.pid")).stdout.trim()).toBe(pid);
  });

  it("when the service's process is killed (SIGKILL, whole process group), then a new process finds the box running and records the jobs' ends", async () => {
    // The box is not a child bound to the service: it is started detached, without --die-with-parent.
    const database = await freshDatabase("bancada_boxes_process");
    cleanupAfterTest(() => database.drop());
    const other = boxesTestStack();
    cleanupAfterTest(() => other.cleanup());
    const { child, firstLine } = await startServiceProcess(fixture, [database.url, other.dataDir]);
    const ids = JSON.parse(firstLine) as { box: string; short: string; long: string };
    const exited = new Promise((resolve) => child.once("exit", resolve));
    process.kill(-child.pid!, "SIGKILL");
    await exited;
    const again = await createBoxesService({
      databaseUrl: database.url,
      bus: new MemoryBus(),
      subjects: subjects("again"),
      log: createLogger("again", "silent"),
      dataDir: other.dataDir,
    });
    cleanupAfterTest(() => again.stop());
    const principal = {
      keyId: "k",
      accountId: "acct-process",
      personId: "p",
      agentId: "g",
      scopes: allScopes,
      allowWrites: true,
      allowedBoardIds: null,
      profile: "full" as const,
    };
    const callAgain = async (tool: string, args: Record<string, unknown>) => {
      const reply = await again.host.call(tool, args, principal);
      if (!reply.ok) throw new Error(reply.error.message);
      return reply.result as Record<string, Record<string, unknown>>;
    };
    expect((await callAgain("get_box", { boxId: ids.box })).box).toMatchObject({ state: "running", operation: null });
    expect((await callAgain("job_wait", { boxId: ids.box, jobId: ids.short, timeoutSeconds: 30 })).job).toMatchObject({
      status: "succeeded",
      exitCode: 0,
    });
    expect((await callAgain("job_logs", { boxId: ids.box, jobId: ids.short })).data).toBe("finished-after-restart\n");
    expect((await callAgain("job_wait", { boxId: ids.box, jobId: ids.long, timeoutSeconds: 1 })).job).toMatchObject({
      status: "running",
    });
  }, 90_000);

  it("when a box's processes die, then it is marked stopped with the reason, its jobs killed, and resume_box starts it fresh", async () => {
    const long = await start({ cmd: "sleep 1000" });
    const runtime = (await boxes.service().db.box.findUniqueOrThrow({ where: { id: box.id } })).runtime as { init: { pid: number } };
    process.kill(runtime.init.pid, "SIGKILL");
    const stopped = await until(
      () => ok(client, "get_box", { boxId: box.id }),
      (r) => r.box.state === "stopped",
      15_000,
    );
    expect(stopped.box.state).toBe("stopped");
    expect(stopped.box.stateReason).toContain("ended unexpectedly");
    expect((await wait(long.id, 5)).status).toBe("killed");
    await fails(client, "exec", { boxId: box.id, cmd: "true" }, "failed_precondition");
    const resumed = await ok(client, "resume_box", { boxId: box.id });
    expect(resumed.box).toMatchObject({ state: "running", operation: null });
    expect((await run(client, box.id, "cat /data/home/long.pid >/dev/null && echo disk-kept")).stdout).toBe("disk-kept\n");
  });

  it("when a box dies while the service is down, then the restarted service marks it stopped instead of losing it", async () => {
    const runtime = (await boxes.service().db.box.findUniqueOrThrow({ where: { id: box.id } })).runtime as { init: { pid: number } };
    await stack.stopService("boxes");
    process.kill(runtime.init.pid, "SIGKILL");
    await stack.startService("boxes");
    const found = await ok(client, "get_box", { boxId: box.id });
    expect(found.box.state).toBe("stopped");
    expect(found.box.stateReason).toContain("restart");
  });
});

describeBoxes("a job's log on the host", () => {
  const cap = 1024 * 1024;
  let boxes: BoxesTestStack;
  let stack: Stack;
  let client: Client;
  let box: Box;

  beforeAll(async () => {
    boxes = boxesTestStack({ jobLogMaxBytes: cap });
    stack = await startStack({ services: { boxes: boxes.factory } });
    client = await connectClient(stack.mcpUrl, await stack.createKey({ scopes: allScopes }));
    box = (await ok(client, "create_box", { name: "log-flood" })).box;
  });
  afterAll(() => closeBoxFixture({ boxes, stack, client }));

  const freeBytes = () => {
    const info = statfsSync(boxes.dataDir);
    return info.bavail * info.bsize;
  };
  const logFile = (jobId: string) => path.join(boxes.dataDir, "state", box.id, "run/jobs", jobId, "log");

  it("when a job fallocates 2 GiB on its stdout and floods it with yes, then the host keeps at most the cap and job_logs says truncated", async () => {
    const before = freeBytes();
    const { job } = await ok<{ job: Job }>(client, "start_job", {
      boxId: box.id,
      cmd:
        "fallocate -l 2G /dev/stdout; python3 -c 'import os; os.posix_fallocate(1, 0, 2 << 30)' 2>/dev/null; " +
        "yes | head -c 600000000; echo; echo flood-done",
    });
    const ended = (await ok<{ job: Job }>(client, "job_wait", { boxId: box.id, jobId: job.id, timeoutSeconds: 60 }, 120_000)).job;
    expect(ended.status).toBe("succeeded");
    expect(statSync(logFile(job.id)).size).toBe(cap);
    // Other work on this machine moves the free space a little; a 2 GiB allocation or a 600 MB flood would not hide.
    expect(before - freeBytes()).toBeLessThan(256 * 1024 * 1024);
    const logs = await ok<Logs & { truncated: boolean }>(client, "job_logs", { boxId: box.id, jobId: job.id, tail: 1 });
    expect(logs).toMatchObject({ size: cap, truncated: true });
    expect(logs.data).toBe("y\n");
  }, 120_000);

  it("when a job writes less than the cap, then its whole log is kept and job_logs says not truncated", async () => {
    const { job } = await ok<{ job: Job }>(client, "start_job", { boxId: box.id, cmd: `head -c ${cap} /dev/zero | tr '\\0' a` });
    await ok(client, "job_wait", { boxId: box.id, jobId: job.id, timeoutSeconds: 30 }, 60_000);
    const logs = await ok<Logs & { truncated: boolean }>(client, "job_logs", { boxId: box.id, jobId: job.id, offset: cap - 3 });
    expect(logs).toMatchObject({ data: "aaa", size: cap, truncated: false, hasMore: false });
  });
});
