/**
 * Explained kills: a command the kernel's out-of-memory killer ends at the box's memory limit says so
 * (`oomKilled`, `killReason`; for a job `oomKilled` and its `statusReason`), not only SIGKILL — a real allocation
 * past the limit, for exec and for start_job. The smallest box has 4 GiB; on a shared test machine the box's
 * memory group is lowered to 96 MiB instead, so a 400 MiB allocation meets it in a moment.
 */
import { writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { closeBoxFixture, describeBoxes, openBoxFixture, type BoxFixture } from "./stack.js";
import { ok, run, type Job } from "./helpers.js";

const allocate = `perl -e '$x = "x" x (400 * 1024 * 1024); print "survived\\n"'`;
const limitBytes = 96 * 1024 * 1024;

describeBoxes("explained kills", () => {
  let fixture: BoxFixture;
  let limited = false;

  beforeAll(async () => {
    fixture = await openBoxFixture("oom");
    const row = await fixture.boxes.service().db.box.findUniqueOrThrow({ where: { id: fixture.box.id } });
    const groups = (
      row.runtime as { groups: { tree: { version: number; path: string } | null; limits: { version: number; path: string }[] } }
    ).groups;
    for (const group of [...groups.limits, ...(groups.tree ? [groups.tree] : [])]) {
      try {
        if (group.version === 1) writeFileSync(path.join(group.path, "memory.limit_in_bytes"), String(limitBytes));
        else writeFileSync(path.join(group.path, "memory.max"), String(limitBytes));
        limited = true;
        break;
      } catch {
        // not the memory group
      }
    }
  });
  afterAll(async () => closeBoxFixture(fixture));

  it("when an exec allocates past the box's memory limit, then it answers oomKilled with the reason, not only SIGKILL", async (context) => {
    if (!limited) context.skip();
    const killed = await run(fixture.client, fixture.box.id, allocate);
    expect(killed.stdout).not.toContain("survived");
    expect(killed.signal === "SIGKILL" || killed.exitCode === 137, JSON.stringify(killed)).toBe(true);
    expect(killed).toMatchObject({ oomKilled: true, timedOut: false });
    expect(killed.killReason).toContain("out-of-memory killer");
    expect(killed.killReason).toContain("4096 MiB");
    // The box lives on, and commands that stay within the limit are not blamed.
    expect(await run(fixture.client, fixture.box.id, "echo fine")).toMatchObject({ stdout: "fine\n", oomKilled: false, killReason: null });
    const selfKilled = await run(fixture.client, fixture.box.id, "kill -9 $$");
    expect(selfKilled).toMatchObject({ oomKilled: false, killReason: null });
    const late = await run(fixture.client, fixture.box.id, "sleep 10", { timeoutSeconds: 1 });
    expect(late).toMatchObject({ timedOut: true, oomKilled: false });
    expect(late.killReason).toContain("deadline");
  });

  it("when a job allocates past the limit, then job_wait shows it killed by the out-of-memory killer", async (context) => {
    if (!limited) context.skip();
    const { job } = await ok<{ job: Job }>(fixture.client, "start_job", { boxId: fixture.box.id, cmd: allocate });
    const done = (await ok<{ job: Job }>(fixture.client, "job_wait", { boxId: fixture.box.id, jobId: job.id, timeoutSeconds: 60 })).job;
    expect(done).toMatchObject({ status: "killed", oomKilled: true, signal: "SIGKILL" });
    expect(done.statusReason).toContain("out-of-memory killer");
    const plain = (await ok<{ job: Job }>(fixture.client, "start_job", { boxId: fixture.box.id, cmd: "kill -9 $$" })).job;
    const ended = (await ok<{ job: Job }>(fixture.client, "job_wait", { boxId: fixture.box.id, jobId: plain.id, timeoutSeconds: 60 })).job;
    expect(ended).toMatchObject({ status: "killed", oomKilled: false, statusReason: "ended by SIGKILL" });
  });
});
