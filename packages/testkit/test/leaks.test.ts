/**
 * The end-of-run check for box processes (leaks.ts, run by the root vitest.global-setup.ts): which processes it
 * counts as the run's, that it kills them (frozen ones too), and — through a real nested vitest run of a test that
 * leaves one behind — that the run then fails, names the pid, and counts one failure in the JSON report CI reads.
 */
import { execFile, spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, rmdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { boxProcessesUnder, reapBoxProcesses, recordLeakInReport } from "../src/leaks.js";

const started: ChildProcess[] = [];
const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return !/^\S+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, "utf8"));
  } catch {
    return false;
  }
};
const start = (args: string[]) => {
  const child = spawn("/bin/sh", args, { detached: true, stdio: "ignore" });
  started.push(child);
  return child;
};

afterEach(() => {
  for (const child of started.splice(0)) if (child.pid && alive(child.pid)) process.kill(-child.pid, "SIGKILL");
});

describe("box processes left by a run", () => {
  it("when a box holder names the run root, then it and its children are the run's; other programs and other roots are not", async () => {
    const root = mkdtempSync(path.join(tmpdir(), "leak-check-"));
    const holder = start(["-c", "sleep 600 & wait", "bancada-job", path.join(root, "jobs", "job_a")]);
    const other = start(["-c", "sleep 600 & wait", "not-a-box", path.join(root, "x")]);
    const elsewhere = start(["-c", "sleep 600 & wait", "bancada-job", "/elsewhere/jobs/job_b"]);
    await new Promise((resolve) => setTimeout(resolve, 300));
    try {
      const found = await boxProcessesUnder(root);
      expect(found.map((item) => item.pid)).toContain(holder.pid);
      expect(found.length).toBe(2);
      expect(found.find((item) => item.pid !== holder.pid)!.command).toBe("sleep 600");
      expect(found.map((item) => item.pid)).not.toContain(other.pid);
      expect(found.map((item) => item.pid)).not.toContain(elsewhere.pid);

      const left = await reapBoxProcesses(root, 200);
      expect(left.map((item) => item.pid).sort()).toEqual(found.map((item) => item.pid).sort());
      for (const item of found) expect(alive(item.pid)).toBe(false);
      expect(alive(other.pid!)).toBe(true);
      expect(await boxProcessesUnder(root)).toEqual([]);
      expect(await reapBoxProcesses(root, 200)).toEqual([]);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  it.runIf(existsSync("/sys/fs/cgroup/freezer/cgroup.procs") && process.getuid?.() === 0)(
    "when a leaked box is frozen (cgroup v1 freezer), then it is thawed and killed",
    async () => {
      const root = mkdtempSync(path.join(tmpdir(), "leak-frozen-"));
      const group = path.join("/sys/fs/cgroup/freezer", path.basename(root));
      mkdirSync(group);
      const holder = start(["-c", "sleep 600 & wait", "bancada-job", path.join(root, "jobs", "job_f")]);
      try {
        await new Promise((resolve) => setTimeout(resolve, 200));
        writeFileSync(path.join(group, "cgroup.procs"), String(holder.pid));
        writeFileSync(path.join(group, "freezer.state"), "FROZEN");
        const left = await reapBoxProcesses(root, 200);
        // The holder and its sleep, both frozen.
        expect(left).toHaveLength(2);
        for (const item of left) expect(alive(item.pid)).toBe(false);
      } finally {
        writeFileSync(path.join(group, "freezer.state"), "THAWED");
        await new Promise((resolve) => setTimeout(resolve, 200));
        rmdirSync(group);
        rmSync(root, { recursive: true, force: true });
      }
    },
  );

  it("when a report is given a leak, then it counts one more failed file and is no longer a success", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "leak-report-"));
    const file = path.join(dir, "report.json");
    writeFileSync(
      file,
      JSON.stringify({
        numPassedTests: 3,
        numFailedTests: 0,
        numFailedTestSuites: 0,
        numTotalTestSuites: 2,
        success: true,
        testResults: [],
      }),
    );
    await recordLeakInReport(file, "1 box process left");
    const report = JSON.parse(readFileSync(file, "utf8"));
    expect(report).toMatchObject({ numPassedTests: 3, numFailedTests: 0, numFailedTestSuites: 1, numTotalTestSuites: 3, success: false });
    expect(report.testResults.at(-1)).toMatchObject({ status: "failed", message: "1 box process left" });
    rmSync(dir, { recursive: true, force: true });
  });

  it("when a test of a run leaves a box process, then the run fails, names the pid, kills it and counts one failure", async () => {
    const fixture = fileURLToPath(new URL("fixtures/leak/", import.meta.url));
    const pidFile = path.join(mkdtempSync(path.join(tmpdir(), "leak-run-")), "pid");
    const report = path.join(fixture, ".vitest-report.json");
    rmSync(report, { force: true });
    const vitest = fileURLToPath(new URL("../../../node_modules/vitest/vitest.mjs", import.meta.url));
    const outcome = await new Promise<{ code: number | null; output: string }>((resolve) => {
      execFile(
        process.execPath,
        [vitest, "run", "--config", "vitest.config.ts"],
        { cwd: fixture, env: { ...process.env, LEAK_PID_FILE: pidFile, CI: "true" }, timeout: 110_000 },
        (error, stdout, stderr) => resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, output: stdout + stderr }),
      );
    });
    const pid = Number(readFileSync(pidFile, "utf8"));
    try {
      expect(outcome.code).toBe(1);
      expect(outcome.output).toContain(`pid ${pid}: /bin/sh -c sleep 600 bancada-job`);
      expect(alive(pid)).toBe(false);
      // What .ci/run adds up: the test passed, the leak is one failure.
      const counted = JSON.parse(readFileSync(report, "utf8"));
      expect(counted.numPassedTests).toBe(1);
      expect(counted.numFailedTests + counted.numFailedTestSuites).toBe(1);
    } finally {
      if (alive(pid)) process.kill(pid, "SIGKILL");
      rmSync(report, { force: true });
      rmSync(path.dirname(pidFile), { recursive: true, force: true });
    }
  }, 120_000);
});
