/**
 * Races between a box and the host: a box swapping folders for links to host paths while the host cleans its /tmp
 * after a false "stopped", the service out of file descriptors while it watches boxes, and an exec left running by a
 * service killed with SIGKILL. Each is the attack that once worked, run against real boxes.
 */
import { execFileSync } from "node:child_process";
import {
  chmodSync,
  existsSync,
  mkdtempSync,
  openSync,
  closeSync,
  readFileSync,
  readdirSync,
  readlinkSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { subjects } from "@bancada/contracts";
import { freshDatabase } from "@bancada/e2e";
import { MemoryBus, createLogger } from "@bancada/service-kit";
import { afterAll, beforeAll, expect, it } from "vitest";
import { createBoxesService } from "../src/index.js";
import { goneReason } from "../src/domain/driver-errors.js";
import { changeState } from "../src/domain/transitions.js";
import { removeAsBoxUser } from "../src/driver/local/box-tree-removal.js";
import {
  boxesTestStack,
  cleanupAfterTest,
  closeBoxFixture,
  describeBoxes,
  openBoxFixture,
  startServiceProcess,
  type BoxFixture,
} from "./stack.js";
import { ok, run, until } from "./helpers.js";

const racerSource = readFileSync(path.join(import.meta.dirname, "fixtures/racer.c"), "utf8");
const execProcess = path.join(import.meta.dirname, "fixtures/exec-process.ts");
const hasCompiler = ["/usr/bin/cc", "/usr/bin/gcc"].some((file) => existsSync(file));

interface Runtime {
  init: { pid: number; startTime: string };
  pidNamespace: string;
  groups: { tree: { path: string } | null };
}

describeBoxes("races between a box and its host", () => {
  let fixture: BoxFixture;
  const runtimeOf = async (boxId: string) =>
    (await fixture.boxes.service().db.box.findUniqueOrThrow({ where: { id: boxId } })).runtime as Runtime | null;

  /** Host files only root may touch, outside every box: what the racer's links point at. */
  const hostVictims = () => {
    const victims = mkdtempSync(path.join(tmpdir(), "bancada-victim-"));
    cleanupAfterTest(() => rmSync(victims, { recursive: true, force: true }));
    chmodSync(victims, 0o700);
    for (const name of ["victim.txt", "keep.txt"]) writeFileSync(path.join(victims, name), `host ${name}\n`, { mode: 0o600 });
    return victims;
  };
  const compileRacer = async (boxId: string) => {
    await ok(fixture.client, "write_file", { boxId, path: "/data/home/racer.c", content: racerSource });
    expect((await run(fixture.client, boxId, "cc -O2 -o /data/home/racer /data/home/racer.c && echo built")).stdout).toBe("built\n");
  };

  beforeAll(async () => {
    fixture = await openBoxFixture("racer");
  });
  afterAll(() => closeBoxFixture(fixture));

  it.skipIf(!hasCompiler)(
    "when a box races link swaps in its /tmp and is falsely marked stopped, then resume_box changes no host file and leaves one set of processes",
    async () => {
      const boxId = fixture.box.id;
      const victims = hostVictims();
      const before = snapshot(victims);
      await compileRacer(boxId);
      await ok(fixture.client, "start_job", { boxId, cmd: `mkdir -p /tmp/x && exec /data/home/racer /tmp/x 200 ${victims}` });
      const racerLog = path.join(fixture.boxes.dataDir, "mnt", boxId, "home/racer.log");
      await until(
        async () => existsSync(racerLog),
        (found) => found,
      );
      const old = (await runtimeOf(boxId))!;
      // What the watcher did when /proc could not be read: the box marked stopped while its processes run.
      await changeState(fixture.boxes.service().runtime, boxId, { state: "stopped", reason: goneReason, runtime: null });
      const resumed = await ok(fixture.client, "resume_box", { boxId }, 120_000);
      expect(resumed.box.state).toBe("running");
      expect(snapshot(victims)).toEqual(before);
      // One set of processes: the old pid 1, the racer and its namespace are gone; the box's groups hold the new one only.
      const fresh = (await runtimeOf(boxId))!;
      expect(fresh.init.pid).not.toBe(old.init.pid);
      expect(isSameProcess(old.init)).toBe(false);
      expect(processesRunning("/data/home/racer")).toEqual([]);
      const hostNamespace = readlinkSync("/proc/self/ns/pid");
      const namespaces = new Set(
        groupPids(fresh.groups.tree!.path)
          .map(pidNamespaceOf)
          .filter((ns) => ns && ns !== hostNamespace),
      );
      expect([...namespaces]).toEqual([fresh.pidNamespace]);
      expect((await run(fixture.client, boxId, "ls -A /tmp | wc -l")).stdout.trim()).toBe("0");
    },
    120_000,
  );

  it.skipIf(!hasCompiler)(
    "when the host removes a folder while a racer swaps links in it, then the removal runs as the box's uid and no host file changes",
    async () => {
      const { box } = await ok(fixture.client, "create_box", { name: "racer-removal" });
      cleanupAfterTest(() => ok(fixture.client, "delete_box", { boxId: box.id, confirm: true }));
      const victims = hostVictims();
      const before = snapshot(victims);
      await compileRacer(box.id);
      await ok(fixture.client, "start_job", {
        boxId: box.id,
        cmd: `while :; do mkdir -p /tmp/x; timeout 0.3 /data/home/racer /tmp/x 100 ${victims}; done`,
      });
      const uid = (await fixture.boxes.service().db.box.findUniqueOrThrow({ where: { id: box.id } })).hostUid!;
      const racing = path.join(fixture.boxes.dataDir, "mnt", box.id, "tmp/x");
      await until(
        async () => existsSync(path.join(racing, "s0")),
        (found) => found,
      );
      // Removals as host root would follow a swapped link now and then; a few seconds of removals as the box's uid.
      const until3s = Date.now() + 3_000;
      let removals = 0;
      while (Date.now() < until3s) {
        await removeAsBoxUser(racing, uid);
        removals++;
        await sleep(50);
      }
      expect(removals).toBeGreaterThan(5);
      expect(snapshot(victims)).toEqual(before);
      // And it removes what the box may remove, folders it closed to itself (mode 000) included.
      await run(
        fixture.client,
        box.id,
        "mkdir -p /tmp/closed/inner && touch /tmp/closed/inner/file && chmod 000 /tmp/closed/inner /tmp/closed",
      );
      await removeAsBoxUser(path.join(fixture.boxes.dataDir, "mnt", box.id, "tmp/closed"), uid);
      expect(existsSync(path.join(fixture.boxes.dataDir, "mnt", box.id, "tmp/closed"))).toBe(false);
    },
    60_000,
  );

  it.skipIf(!hasCompiler)(
    "when a box falsely marked stopped is deleted, then none of its processes, groups or files are left and no host file changes",
    async () => {
      const { box } = await ok(fixture.client, "create_box", { name: "racer-delete" });
      const group = groupOf(fixture.boxes.dataDir, box.id);
      const victims = hostVictims();
      const before = snapshot(victims);
      await compileRacer(box.id);
      await ok(fixture.client, "start_job", { boxId: box.id, cmd: `mkdir -p /tmp/x && exec /data/home/racer /tmp/x 200 ${victims}` });
      await until(
        async () => existsSync(path.join(fixture.boxes.dataDir, "mnt", box.id, "tmp/x/s0")),
        (found) => found,
      );
      const old = (await runtimeOf(box.id))!;
      await changeState(fixture.boxes.service().runtime, box.id, { state: "stopped", reason: goneReason, runtime: null });
      await ok(fixture.client, "delete_box", { boxId: box.id, confirm: true }, 120_000);
      await until(
        async () => (await fixture.boxes.service().db.box.findUniqueOrThrow({ where: { id: box.id } })).state,
        (state) => state === "deleted",
        30_000,
      );
      expect(isSameProcess(old.init)).toBe(false);
      expect(processesRunning("/data/home/racer").filter((pid) => inBox(pid, group))).toEqual([]);
      expect(existsSync(old.groups.tree!.path)).toBe(false);
      expect(existsSync(path.join(fixture.boxes.dataDir, "mnt", box.id))).toBe(false);
      expect(snapshot(victims)).toEqual(before);
    },
    60_000,
  );

  it("when the service runs out of file descriptors while it watches, then the box is not taken for gone and stays running", async () => {
    const boxId = fixture.box.id;
    const rt = fixture.boxes.service().runtime;
    const handle = { id: boxId, runtime: await runtimeOf(boxId) };
    expect(await rt.driver.inspect(handle)).toBe("running");
    const held = exhaustDescriptors();
    let inspected: unknown;
    try {
      inspected = await rt.driver.inspect(handle).catch((error: Error) => error);
      // Several rounds of the service's own watcher (every 500 ms in tests) run out of descriptors too.
      await sleep(1_600);
    } finally {
      held.release();
    }
    expect(inspected).toBeInstanceOf(Error);
    expect((inspected as NodeJS.ErrnoException).code).toBe("EMFILE");
    const row = await fixture.boxes.service().db.box.findUniqueOrThrow({ where: { id: boxId } });
    expect(row.state).toBe("running");
    expect((await run(fixture.client, boxId, "echo alive")).stdout).toBe("alive\n");
  }, 60_000);

  it.each([
    ["made from the warm pool", "pool"],
    ["started as itself", "none"],
  ])(
    "when the service is killed with SIGKILL during an exec in a box %s, then its restart ends the command that was left running",
    async (_, pool) => {
      const database = await freshDatabase("bancada_boxes_orphan_exec");
      cleanupAfterTest(() => database.drop());
      const other = boxesTestStack();
      cleanupAfterTest(() => other.cleanup());
      const { child, firstLine } = await startServiceProcess(execProcess, [database.url, other.dataDir, pool]);
      const { box } = JSON.parse(firstLine) as { box: string };
      const sleeper = readFileSync(path.join(other.dataDir, "mnt", box, "home/exec.pid"), "utf8").trim();
      const group = groupOf(other.dataDir, box);
      expect(sleeper).not.toBe("");
      const exited = new Promise((resolve) => child.once("exit", resolve));
      // The service's process alone, as a crash or the OOM killer would: what it started stays.
      process.kill(child.pid!, "SIGKILL");
      await exited;
      expect(processesRunning("sleep 1000").filter((pid) => inBox(pid, group))).not.toEqual([]);
      const again = await createBoxesService({
        databaseUrl: database.url,
        bus: new MemoryBus(),
        subjects: subjects("orphanagain"),
        log: createLogger("orphan-again", "silent"),
        dataDir: other.dataDir,
        warmPool: [],
      });
      cleanupAfterTest(() => again.stop());
      const left = await until(
        async () => processesRunning("sleep 1000").filter((pid) => inBox(pid, group)),
        (pids) => pids.length === 0,
        5_000,
      );
      expect(left).toEqual([]);
      const row = await again.db.box.findUniqueOrThrow({ where: { id: box } });
      expect(row.state).toBe("running");
    },
    90_000,
  );
});

/** Each file of a folder with its content, mode, owner and inode: any change shows. */
function snapshot(dir: string): Record<string, string> {
  return Object.fromEntries(
    readdirSync(dir).map((name) => {
      const file = path.join(dir, name);
      const info = statSync(file);
      return [name, `${info.mode.toString(8)} ${info.uid} ${info.ino} ${readFileSync(file, "utf8")}`];
    }),
  );
}

/**
 * Whether `ref` is still a process that runs: the same pid started at the same time, and not a zombie (a process
 * that has exited and waits only for its parent to collect its status — on a loaded machine that can lag the kill).
 */
function isSameProcess(ref: { pid: number; startTime: string }): boolean {
  try {
    const text = readFileSync(`/proc/${ref.pid}/stat`, "utf8");
    const fields = text.slice(text.lastIndexOf(")") + 2).split(" ");
    return fields[19] === ref.startTime && fields[0] !== "Z";
  } catch {
    return false;
  }
}

/** Host pids whose command line contains `text` (this test process excluded). */
function processesRunning(text: string): number[] {
  const pids: number[] = [];
  for (const name of readdirSync("/proc").filter((entry) => /^\d+$/.test(entry))) {
    if (Number(name) === process.pid) continue;
    try {
      if (readFileSync(`/proc/${name}/cmdline`, "utf8").replaceAll("\0", " ").includes(text)) pids.push(Number(name));
    } catch {
      // ended meanwhile
    }
  }
  return pids;
}

/** Whether a host process belongs to the box (its cgroups name the box). */
/** The name of a box's cgroups: its id, or that of the warm pool's entry it was made from (its run folder says). */
function groupOf(dataDir: string, boxId: string): string {
  const file = path.join(dataDir, "state", boxId, "run", "runtime.json");
  const runtime = JSON.parse(readFileSync(file, "utf8")) as { groups: { tree: { path: string } | null; limits: { path: string }[] } };
  return path.basename(runtime.groups.tree?.path ?? runtime.groups.limits[0]!.path);
}

function inBox(pid: number, group: string): boolean {
  try {
    return readFileSync(`/proc/${pid}/cgroup`, "utf8").includes(`/${group}`);
  } catch {
    return false;
  }
}

function groupPids(dir: string): number[] {
  const own = readFileSync(path.join(dir, "cgroup.procs"), "utf8").split("\n").filter(Boolean).map(Number);
  const children = readdirSync(dir, { withFileTypes: true }).filter((entry) => entry.isDirectory());
  return [...own, ...children.flatMap((entry) => groupPids(path.join(dir, entry.name)))];
}

function pidNamespaceOf(pid: number): string | null {
  try {
    return readlinkSync(`/proc/${pid}/ns/pid`);
  } catch {
    return null;
  }
}

/**
 * Lowers this process's descriptor limit to a little above what it holds, then opens descriptors until the next
 * open fails with EMFILE, as a flood of connections once did to the service; release() puts everything back.
 */
function exhaustDescriptors(): { release(): void } {
  const [soft, hard] = execFileSync("prlimit", ["--pid", String(process.pid), "--nofile", "--raw", "--noheadings", "--output=SOFT,HARD"], {
    encoding: "utf8",
  })
    .trim()
    .split(/\s+/);
  const open = readdirSync("/proc/self/fd").length;
  execFileSync("prlimit", ["--pid", String(process.pid), `--nofile=${open + 32}:${hard}`]);
  const held: number[] = [];
  try {
    for (let count = 0; count < 10_000; count++) held.push(openSync("/dev/null", "r"));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EMFILE") throw error;
  }
  return {
    release() {
      for (const fd of held) closeSync(fd);
      execFileSync("prlimit", ["--pid", String(process.pid), `--nofile=${soft}:${hard}`]);
    },
  };
}
