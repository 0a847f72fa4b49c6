/**
 * The `local` driver: boxes are bubblewrap sandboxes on this machine (see host-setup.ts for what it checks and
 * prepares before it serves, sandbox.ts for what a box sees, command.ts for how commands enter it, cgroups.ts for
 * limits, freezing and killing). Where the machine offers no usable cgroups, suspend falls back to SIGSTOP/SIGCONT
 * of every process in the box's pid namespace and a command's tree is killed through its process group.
 */
import { randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import { rm, writeFile } from "node:fs/promises";
import { hostname } from "node:os";
import path from "node:path";
import type { Duplex } from "node:stream";
import { setTimeout as sleep } from "node:timers/promises";
import { makeOwnFolder } from "@bancada/service-kit";
import type {
  BoxDriver,
  DownloadRequest,
  DownloadStream,
  FolderList,
  PathInfo,
  ShellProcess,
  ShellRequest,
  UploadOutcome,
  UploadRequest,
  BoxHandle,
  BoxLiveness,
  BoxResources,
  BoxSpec,
  DiskCopy,
  DiskSpace,
  DiskTarget,
  Enforcement,
  ExecOutcome,
  ExecRequest,
  FileRead,
  FileWrite,
  FileWriteOutcome,
  JobProbe,
  JobRequest,
  LogChunk,
  SnapshotHandle,
} from "../box-driver.js";
import { DriverError } from "../driver-error.js";
import { adoptDisk, boxPaths, exists, handDisk, nameDisk, makeDisk, prepareRun, sharedFromHost, type BoxPaths } from "./box-disk.js";
import { listArgsFor, listOutcome, readArgsFor, readOutcome, writeArgs, writeOutcome } from "./box-files.js";
import * as transfers from "./box-transfers.js";
import { PortBridges } from "./port-bridges.js";
import { openShell } from "./box-shell.js";
import { type CgroupSupport } from "./cgroup-detect.js";
import * as cgroups from "./cgroups.js";
import { launch, launchProgram, programOf, type LaunchOptions } from "./command.js";
import { endLeftovers, pooledName } from "./leftovers.js";
import {
  canFreeze,
  copyDiskFiles,
  copyImageFrozen,
  diskBytes,
  freezeFilesystem,
  growImage,
  prepareSnapshotDir,
  snapshotPaths,
  thawFilesystem,
} from "./disk-copy.js";
import { createDisk, diskExists, isMounted, mountDisk, removeDisk, unmount } from "./disk-image.js";
import { packDisk, receiveDisk } from "./disk-move.js";
import { DiskPool, type PoolSandboxes, type WarmBox } from "./disk-pool.js";
import { diskSpace } from "./disk-space.js";
import { closeDiskStore } from "./disk-store.js";
import { defaultJobLogMaxBytes, jobDirChanged, probeJob, readLog, startWaiter, type JobRuntime } from "./jobs.js";
import { childPids, continueNamespace, isAliveOrThrow, isStopped, pidsInProcessGroup, sendSignal, stopNamespace } from "./procfs.js";
import { runCommand, spawnCommand, type RunResult } from "./run-command.js";
import { WarmEntries, type EntryCommand } from "./warm-entries.js";
import { startSandbox, type LocalRuntime } from "./sandbox.js";
import { endPooledSandbox, moveAndName, pooledHostname, pooledLimits } from "./warm-box.js";
import { setUpHost, type HostSetup, type LocalDriverOptions } from "./host-setup.js";

export async function createLocalDriver(options: LocalDriverOptions): Promise<LocalDriver> {
  const driver = new LocalDriver(options, await setUpHost(options));
  driver.pool?.refill();
  const leftovers = await driver.endLeftoverBridges();
  if (leftovers) options.log.info({ processes: leftovers }, "ended the port bridges a previous service left running");
  return driver;
}

export class LocalDriver implements BoxDriver {
  readonly kind = "local";
  readonly available = true;
  readonly template: { name: string; version: string };
  readonly node: string;
  readonly #options: LocalDriverOptions;
  readonly #support: CgroupSupport;
  readonly #setup: HostSetup;
  readonly #links: { name: string; target: string | null }[];
  readonly #bwrapPath: string;
  readonly #nsenterPath: string;
  readonly #pidsMax: number;
  readonly #sharedEtc = sharedFromHost.filter((name) => existsSync(`/etc/${name}`));
  readonly #bridges: PortBridges;
  /** With the one-exec helper: each box's next way in, started ahead (warm-entries.ts). */
  readonly #warm: WarmEntries | null;
  /** Image disks made ahead for create (disk-pool.ts), or null: each create makes its disk. */
  readonly pool: DiskPool | null;

  constructor(options: LocalDriverOptions, setup: HostSetup) {
    this.#options = options;
    this.node = options.node ?? hostname();
    this.#setup = setup;
    this.#support = setup.support;
    this.template = { name: "host", version: setup.version };
    this.#links = setup.links;
    this.#bwrapPath = setup.bwrapPath;
    this.#nsenterPath = setup.nsenterPath;
    this.#pidsMax = options.pidsMax ?? 1024;
    this.#bridges = new PortBridges(path.join(options.dataDir, "ports"), setup.nsenterPath);
    const pool = setup.disks === "image" ? (options.pool ?? []).filter((size) => size.count > 0) : [];
    const hostUids = options.hostUids;
    const sandboxes: PoolSandboxes | null = hostUids
      ? {
          hostUid: hostUids,
          boot: (name, paths, uid) => this.#bootPooled(name, paths, uid),
          end: async (name, runDir) => {
            await this.#warm?.drop(name);
            await endPooledSandbox(this.#support, name, runDir);
          },
        }
      : null;
    this.pool = pool.length > 0 ? new DiskPool(options.dataDir, pool, options.log, sandboxes) : null;
    const helper = setup.helper;
    this.#warm =
      helper && options.warm !== false
        ? new WarmEntries((boxId, runtime, group) => ({ ...this.#launchOptions(boxId, runtime, group), helper }))
        : null;
  }

  enforcement(resources: BoxResources): Enforcement {
    const { limits, tree } = this.#support;
    const via = (controller: "pids" | "memory" | "cpu") => {
      const hierarchy = limits[controller];
      return hierarchy ? `cgroup v${hierarchy.version} ${controller}` : null;
    };
    return {
      cpu: via("cpu") && `${resources.vcpus} vCPU quota (${via("cpu")})`,
      memory: via("memory") && `${resources.memMiB} MiB limit (${via("memory")})`,
      disk:
        this.#setup.disks === "image"
          ? `${resources.dataGiB} GiB ext4 image on a loop device (writes past it fail with ENOSPC); ${this.#copies()}`
          : null,
      processes: via("pids") ? { max: this.#pidsMax, via: via("pids")! } : null,
      freeze: tree ? `cgroup v${tree.version} freezer` : "SIGSTOP/SIGCONT of the box's processes",
      network: "own network namespace with loopback only (no outside network)",
      user: "own user namespace: root in the box is an unprivileged host user of its own",
    };
  }

  /** How fork_box and save_snapshot copy this disk, said in the box's enforcement. */
  #copies(): string {
    if (this.#setup.copies === "reflink") return "fork_box and snapshots copy it by reflink (copy-on-write)";
    return `fork_box and snapshots copy every written block of it (sparse copy: ${this.#setup.copiesReason})`;
  }

  /** A box started ahead by the warm pool, reserved for the create_box about to record it: its host uid, or null. */
  reserveWarmBox(resources: BoxResources): Promise<number | null> {
    return Promise.resolve(this.pool?.reserve(resources.dataGiB) ?? null);
  }

  /** A reservation the create will not use: its box is ended and removed (never offered again). */
  async releaseWarmBox(hostUid: number): Promise<void> {
    await this.pool?.release(hostUid);
  }

  async create(spec: BoxSpec): Promise<LocalRuntime> {
    const paths = this.#paths(spec.id);
    const uid = boxUid(spec);
    const warm = await this.pool?.bind(uid, paths);
    if (warm) return this.#adoptWarm(spec, paths, warm);
    if (await this.pool?.claim(paths, spec.dataGiB)) await handDisk(paths, spec.name, uid);
    else {
      await createDisk(this.#setup.disks, paths, spec.dataGiB);
      await makeDisk(paths, spec.name, uid);
    }
    return this.#boot(spec, paths, uid);
  }

  async start(spec: BoxSpec): Promise<LocalRuntime> {
    const paths = this.#paths(spec.id);
    const uid = boxUid(spec);
    if (!(await diskExists(this.#setup.disks, paths))) throw new DriverError("gone", "the box's disk is missing");
    await this.#endLeftovers(spec.id).catch((error: Error) => {
      throw new DriverError("start_failed", error.message);
    });
    await mountDisk(this.#setup.disks, paths);
    await prepareRun(paths, uid);
    return this.#boot(spec, paths, uid);
  }

  async copyDisk(source: BoxHandle, targets: DiskTarget[], signal?: AbortSignal): Promise<DiskCopy> {
    const kind = this.#setup.disks;
    const paths = this.#paths(source.id);
    if (!(await diskExists(kind, paths))) throw new DriverError("gone", "the box's disk is missing");
    const from = kind === "image" ? paths.image : paths.disk;
    const destinations = await Promise.all(targets.map((target) => this.#copyDestination(target)));
    const started = Date.now();
    // Processes first (no write is in flight once they are frozen), then the filesystem (its data written out). A
    // stopped box has none: anything left of its last run is ended, since a folder disk is copied by walking it.
    const liveness = await this.inspect(source);
    if (liveness === "gone") await this.#endLeftovers(source.id);
    const holdProcesses = liveness === "running";
    if (holdProcesses) await this.suspend(source);
    let frozenFs = false;
    try {
      const mounted = kind === "image" && (await isMounted(paths.disk));
      if (mounted && (await canFreeze())) {
        // freeze, copies and thaw in one program; should it fail half-way, the thaw below runs
        frozenFs = true;
        await copyImageFrozen(paths.disk, from, destinations, signal);
        frozenFs = false;
      } else {
        if (mounted) frozenFs = await freezeFilesystem(paths.disk);
        for (const destination of destinations) await copyDiskFiles(kind, from, destination, signal);
      }
    } catch (error) {
      for (const destination of destinations) await rm(destination, { recursive: true, force: true });
      throw signal?.aborted ? new DriverError("gone", "the copy was cancelled") : error;
    } finally {
      if (frozenFs) await thawFilesystem(paths.disk);
      if (holdProcesses) await this.resume(source);
    }
    const frozenMs = Date.now() - started;
    const bytes = destinations[0] ? await diskBytes(kind, destinations[0]) : 0;
    return { method: this.#setup.copies, bytes, durationMs: Date.now() - started, frozenMs };
  }

  async createFromCopy(spec: BoxSpec, snapshot?: SnapshotHandle): Promise<LocalRuntime> {
    const kind = this.#setup.disks;
    const paths = this.#paths(spec.id);
    const uid = boxUid(spec);
    if (snapshot) {
      const saved = snapshotPaths(this.#options.dataDir, snapshot);
      await makeOwnFolder(paths.state, 0o700);
      await copyDiskFiles(kind, kind === "image" ? saved.image : saved.folder, kind === "image" ? paths.image : paths.disk);
    }
    if (!(await diskExists(kind, paths))) throw new DriverError("start_failed", "the copied disk is missing");
    if (kind === "image") await growImage(paths.image, spec.dataGiB);
    await mountDisk(kind, paths);
    await adoptDisk(paths, spec.name, uid);
    return this.#boot(spec, paths, uid);
  }

  async exportDisk(box: BoxHandle): Promise<DownloadStream> {
    const kind = this.#setup.disks;
    const paths = this.#paths(box.id);
    if (!(await diskExists(kind, paths))) throw new DriverError("gone", "the box's disk is missing");
    if ((await this.inspect(box)) !== "gone") throw new Error("the box has processes on this node: only a stopped box's disk is moved");
    // anything left of its last run ends, and an image is written out whole (unmounted): start mounts it again
    await this.#endLeftovers(box.id);
    if (kind === "image") await unmount(paths.disk);
    return packDisk(kind, { dir: paths.state, folder: paths.disk, run: paths.run });
  }

  async importDisk(box: BoxHandle, source: string, signal?: AbortSignal): Promise<{ bytes: number }> {
    const kind = this.#setup.disks;
    const paths = this.#paths(box.id);
    if ((await diskExists(kind, paths)) || (await exists(paths.state)))
      throw new Error(`box ${box.id} has a disk on node ${this.node} already`);
    try {
      return { bytes: await receiveDisk(kind, { dir: paths.state, folder: paths.disk, run: paths.run }, source, signal) };
    } catch (error) {
      await removeDisk(paths);
      throw signal?.aborted ? new DriverError("gone", "the move was cancelled") : error;
    }
  }

  async exportSnapshot(snapshot: SnapshotHandle): Promise<DownloadStream> {
    const saved = snapshotPaths(this.#options.dataDir, snapshot);
    if (!(await exists(this.#setup.disks === "image" ? saved.image : saved.folder)))
      throw new DriverError("gone", `snapshot ${snapshot.id}'s files are missing on node ${this.node}`);
    return packDisk(this.#setup.disks, saved);
  }

  async importSnapshot(snapshot: SnapshotHandle, source: string, signal?: AbortSignal): Promise<{ bytes: number }> {
    const saved = snapshotPaths(this.#options.dataDir, snapshot);
    if (await exists(saved.dir)) throw new Error(`snapshot ${snapshot.id} has files on node ${this.node} already`);
    try {
      await prepareSnapshotDir(saved.dir);
      return { bytes: await receiveDisk(this.#setup.disks, saved, source, signal) };
    } catch (error) {
      await this.deleteSnapshot(snapshot);
      throw signal?.aborted ? new DriverError("gone", "the copy was cancelled") : error;
    }
  }

  async releaseDisk(box: BoxHandle): Promise<void> {
    if (this.#setup.disks === "image") await thawFilesystem(this.#paths(box.id).disk);
  }

  async deleteSnapshot(snapshot: SnapshotHandle): Promise<void> {
    await rm(snapshotPaths(this.#options.dataDir, snapshot).dir, { recursive: true, force: true, maxRetries: 3 });
  }

  /** Where a copy goes: a new box's image (or its disk folder), or a snapshot's. */
  async #copyDestination(target: DiskTarget): Promise<string> {
    const image = this.#setup.disks === "image";
    if (target.kind === "box") {
      const paths = this.#paths(target.id);
      await makeOwnFolder(paths.state, 0o700);
      return image ? paths.image : paths.disk;
    }
    const saved = snapshotPaths(this.#options.dataDir, target.snapshot);
    await prepareSnapshotDir(saved.dir);
    return image ? saved.image : saved.folder;
  }

  async #boot(spec: BoxSpec, paths: BoxPaths, uid: number): Promise<LocalRuntime> {
    const groups = await cgroups.createBoxGroups(this.#support, spec.id, {
      pidsMax: this.#pidsMax,
      memBytes: spec.memMiB * 1024 * 1024,
      vcpus: spec.vcpus,
    });
    try {
      const runtime = await startSandbox({
        boxId: spec.id,
        paths,
        hostname: spec.name,
        groups,
        uid,
        usrLinks: this.#links,
        sharedEtc: this.#sharedEtc,
        bwrapPath: this.#bwrapPath,
        seccomp: this.#setup.seccomp,
        masks: this.#setup.masks,
      });
      this.#warm?.prepare(spec.id, runtime);
      return runtime;
    } catch (error) {
      await cgroups.removeBoxGroups(groups);
      throw error;
    }
  }

  /**
   * A pooled box's sandbox, started ahead: cgroups named by the pooled disk, limits of the smallest box (the box's own
   * are set when it is bound), a placeholder hostname. Nothing in it names a box or an account yet.
   */
  async #bootPooled(name: string, paths: BoxPaths, uid: number): Promise<LocalRuntime> {
    const groups = await cgroups.createBoxGroups(this.#support, name, { pidsMax: this.#pidsMax, ...pooledLimits });
    try {
      const runtime = await startSandbox({
        boxId: name,
        paths,
        hostname: pooledHostname,
        groups,
        uid,
        usrLinks: this.#links,
        sharedEtc: this.#sharedEtc,
        bwrapPath: this.#bwrapPath,
        seccomp: this.#setup.seccomp,
        masks: this.#setup.masks,
      });
      // Its first command's way in is started now too (warm-entries.ts): the box's first exec finds it waiting.
      this.#warm?.prepare(name, runtime);
      return runtime;
    } catch (error) {
      await cgroups.removeBoxGroups(groups);
      throw error;
    }
  }

  /**
   * The pooled box becomes this one (its disk already at the box's paths, disk-pool.ts): its name on its disk and in
   * its UTS namespace, the box's limits on its groups, a fresh machine id, and the runtime recorded. On any failure
   * its sandbox is ended; the disk stays with the box (delete_box removes it, resume_box starts it the usual way).
   */
  async #adoptWarm(spec: BoxSpec, paths: BoxPaths, warm: WarmBox): Promise<LocalRuntime> {
    const runtime: LocalRuntime = { ...warm.runtime, root: paths.state, hostname: spec.name, sandboxId: warm.name };
    const limits = { memBytes: spec.memMiB * 1024 * 1024, vcpus: spec.vcpus };
    this.#warm?.rename(warm.name, spec.id, runtime);
    try {
      await Promise.all([
        (async () => {
          await nameDisk(warm.mountedAt, spec.name);
          await moveAndName(this.#nsenterPath, { from: warm.mountedAt, to: paths.disk }, runtime.init.pid, spec.name);
        })(),
        limits.memBytes === pooledLimits.memBytes && limits.vcpus === pooledLimits.vcpus
          ? null
          : cgroups.setBoxLimits(this.#support, warm.name, { pidsMax: this.#pidsMax, ...limits }),
        writeFile(path.join(paths.run, "runtime.json"), JSON.stringify(runtime)),
      ]);
    } catch (error) {
      await this.stop({ id: spec.id, runtime }).catch(() => {});
      throw new DriverError("start_failed", `the warm box could not become this box: ${(error as Error).message}`);
    }
    this.#warm?.prepare(spec.id, runtime);
    return runtime;
  }

  diskSpace(boxIds: string[]): Promise<DiskSpace> {
    return diskSpace(this.#options.dataDir, this.#setup.disks, boxIds);
  }

  /**
   * "gone" only when the box's pid 1 is known to be gone (an error reading /proc is thrown, never taken for "gone")
   * and its groups are empty: what is left in them is killed first, and a box whose groups cannot be emptied or read
   * is not reported gone (the error is thrown).
   */
  async inspect(box: BoxHandle): Promise<BoxLiveness> {
    const runtime = asRuntime(box);
    if (!runtime) return "gone";
    if (!(await isAliveOrThrow(runtime.init))) {
      await cgroups.emptyBox(runtime.groups);
      return "gone";
    }
    const frozen = runtime.groups.tree ? await cgroups.isFrozen(runtime.groups).catch(() => false) : await isStopped(runtime.init.pid);
    return frozen ? "frozen" : "running";
  }

  async suspend(box: BoxHandle): Promise<void> {
    const runtime = this.#live(box);
    if (runtime.groups.tree) return cgroups.freeze(runtime.groups, true);
    await stopNamespace(runtime.pidNamespace);
  }

  async resume(box: BoxHandle): Promise<void> {
    const runtime = this.#live(box);
    if (runtime.groups.tree) return cgroups.freeze(runtime.groups, false);
    await continueNamespace(runtime.pidNamespace);
  }

  async stop(box: BoxHandle): Promise<void> {
    await this.#bridges.close(box.id);
    const runtime = asRuntime(box);
    await this.#warm?.drop(box.id);
    if (!runtime) return;
    // Thawed first (a frozen task cannot die under cgroup v1), then the namespace's init: the kernel kills
    // every process of the pid namespace with it while the host-side nsenters are still there to reap them.
    if (runtime.groups.tree) await cgroups.freeze(runtime.groups, false, 2_000).catch(() => {});
    else await continueNamespace(runtime.pidNamespace);
    // Strict reads: a /proc or cgroup error (EMFILE, …) fails the stop rather than report a box stopped while it runs.
    if (await isAliveOrThrow(runtime.init)) sendSignal(runtime.init.pid, "SIGKILL");
    for (let waited = 0; waited < 100 && (await isAliveOrThrow(runtime.init)); waited++) await sleep(20);
    if (await isAliveOrThrow(runtime.bwrap)) sendSignal(runtime.bwrap.pid, "SIGKILL");
    await cgroups.killBox(runtime.groups);
    await cgroups.emptyBox(runtime.groups);
    await cgroups.removeBoxGroups(runtime.groups);
  }

  async destroy(box: BoxHandle): Promise<void> {
    // A copy of this disk may hold its filesystem frozen (a delete cancels it): unmounting a frozen one would hang.
    if (this.#setup.disks === "image") await thawFilesystem(this.#paths(box.id).disk);
    await this.stop(box);
    // A box marked stopped may still have processes (its runtime lost): none may outlive its disk.
    await this.#endLeftovers(box.id);
    await cgroups.removeBoxGroups(cgroups.boxGroupsOf(this.#support, box.id));
    await removeDisk(this.#paths(box.id));
  }

  async exec(box: BoxHandle, request: ExecRequest): Promise<ExecOutcome> {
    const groups = this.#live(box).groups;
    const oomBefore = await cgroups.oomKillCount(groups);
    const result = await this.#run(
      box,
      { cwd: request.cwd, program: programOf(request), env: request.env },
      {
        timeoutMs: request.timeoutMs,
        maxOutputBytes: request.maxOutputBytes,
        ...(request.stdin ? { stdin: request.stdin } : {}),
        ...(request.signal ? { signal: request.signal } : {}),
      },
    );
    if (!result.started && !result.timedOut && !result.cancelled) throw launchError(result);
    const { started: _started, ...outcome } = result;
    const oomKilled = !outcome.timedOut && !outcome.cancelled && killedBySigkill(outcome) && (await oomKillsSince(groups, oomBefore));
    return { ...outcome, oomKilled };
  }

  async startJob(box: BoxHandle, request: JobRequest): Promise<JobRuntime> {
    const runtime = await this.#alive(box);
    const group = `j-${request.jobId}`;
    await cgroups.createCommandGroup(runtime.groups, group);
    const command = launch(this.#launchOptions(box.id, runtime, group), request);
    const oomKills = await cgroups.oomKillCount(runtime.groups);
    try {
      const logMaxBytes = this.#options.jobLogMaxBytes ?? defaultJobLogMaxBytes;
      return { ...(await startWaiter(path.join(this.#paths(box.id).jobs, request.jobId), command, logMaxBytes)), oomKills };
    } catch (error) {
      await cgroups.removeCommandGroup(runtime.groups, group);
      const message = (error as Error).message.replace(/^bancada: /, "");
      throw new DriverError(message.includes("the working directory") ? "cwd_missing" : "start_failed", message);
    }
  }

  async killJob(box: BoxHandle, jobId: string, runtime: unknown): Promise<void> {
    const live = asRuntime(box);
    const waiter = (runtime as JobRuntime | null)?.waiter;
    if (!live || !waiter) return;
    // The waiter's children: the job's nsenter (spared so that it reaps the job's main process, see cgroups.ts) and
    // the log's copier (outside the box's groups). The nsenter is the one in the job's group.
    const nsenter = await childPids(waiter.pid);
    const group = `j-${jobId}`;
    const inGroup = live.groups.tree ? await cgroups.groupPids(path.join(live.groups.tree.path, group)) : [];
    if (live.groups.tree) await cgroups.killCommandGroup(live.groups, group, nsenter.find((pid) => inGroup.includes(pid)) ?? -1);
    else
      for (const pid of await pidsInProcessGroup(waiter.pid)) if (pid !== waiter.pid && !nsenter.includes(pid)) sendSignal(pid, "SIGKILL");
  }

  async probeJob(box: BoxHandle, jobId: string, runtime: unknown): Promise<JobProbe> {
    const job = (runtime as JobRuntime | null) ?? null;
    const probe = await probeJob(path.join(this.#paths(box.id).jobs, jobId), job);
    const groups = asRuntime(box)?.groups;
    if (probe.state !== "exited" || !groups || !killedBySigkill(probe)) return probe;
    return { ...probe, oomKilled: await oomKillsSince(groups, job?.oomKills ?? null) };
  }

  readJobLog(
    box: BoxHandle,
    jobId: string,
    range: { offset: number; maxBytes: number } | { tailLines: number; maxBytes: number },
  ): Promise<LogChunk> {
    return readLog(path.join(this.#paths(box.id).jobs, jobId), range);
  }

  jobChanged(box: BoxHandle, jobId: string, maxMs: number, signal?: AbortSignal): Promise<void> {
    return jobDirChanged(path.join(this.#paths(box.id).jobs, jobId), maxMs, signal);
  }

  async readFile(box: BoxHandle, filePath: string, maxBytes: number): Promise<FileRead> {
    const result = await this.#run(
      box,
      { cwd: "/", program: readArgsFor(filePath, maxBytes + 1) },
      {
        timeoutMs: 60_000,
        maxOutputBytes: maxBytes + 1,
      },
    );
    if (!result.started) throw launchError(result);
    return readOutcome(result, maxBytes);
  }

  async writeFile(box: BoxHandle, write: FileWrite): Promise<FileWriteOutcome> {
    const result = await this.#run(
      box,
      { cwd: "/", program: writeArgs(write) },
      {
        timeoutMs: 60_000,
        maxOutputBytes: 64 * 1024,
        stdin: write.data,
      },
    );
    if (!result.started) throw launchError(result);
    return writeOutcome(result);
  }

  async listFolder(box: BoxHandle, folderPath: string, limit: number): Promise<FolderList> {
    // a record is at most a name (255 bytes) and three short numbers
    const result = await this.#run(
      box,
      { cwd: "/", program: listArgsFor(folderPath, limit) },
      { timeoutMs: 60_000, maxOutputBytes: limit * 320 },
    );
    if (!result.started) throw launchError(result);
    return listOutcome(result);
  }

  inspectPath(box: BoxHandle, filePath: string, options: { folderBytes: boolean }): Promise<PathInfo> {
    return transfers.inspectPath(this.#spawner(box), filePath, options.folderBytes);
  }

  upload(box: BoxHandle, request: UploadRequest): Promise<UploadOutcome> {
    return transfers.upload(this.#spawner(box), request);
  }

  download(box: BoxHandle, request: DownloadRequest): Promise<DownloadStream> {
    return transfers.download(this.#spawner(box), request);
  }

  openShell(box: BoxHandle, request: ShellRequest): Promise<ShellProcess> {
    return openShell(this.#spawner(box), request);
  }

  async connectPort(box: BoxHandle, port: number): Promise<Duplex> {
    const runtime = await this.#alive(box);
    return this.#bridges.connect(box.id, runtime, port);
  }

  /** At start: the port bridges of a previous service on this data folder (killed with -9) are ended. */
  endLeftoverBridges(): Promise<number> {
    return this.#bridges.endLeftovers();
  }

  async closePorts(box: BoxHandle, port?: number): Promise<void> {
    await this.#bridges.close(box.id, port);
  }

  async sweep(box: BoxHandle): Promise<void> {
    const runtime = asRuntime(box);
    if (runtime) await cgroups.sweepCommandGroups(runtime.groups, this.#warm?.held()).catch(() => {});
  }

  /** Removes this service's cgroup parents when no box is left in them (boxes outlive the service). */
  async close(): Promise<void> {
    this.#bridges.closeAll();
    await this.#warm?.closeAll();
    await this.pool?.close();
    if (this.#setup.disks === "image" && this.#options.store?.mode !== "off") await closeDiskStore(this.#options.dataDir);
    await cgroups.removeBases(this.#support);
  }

  /**
   * Runs one command in its own group: at the deadline the whole group (or process group) is killed. With the
   * helper, through the box's warm entry (warm-entries.ts), and the box gets its next one afterwards.
   */
  async #run(
    box: BoxHandle,
    command: EntryCommand,
    run: { timeoutMs: number; maxOutputBytes: number; stdin?: Buffer; signal?: AbortSignal },
  ): Promise<RunResult> {
    const runtime = await this.#alive(box);
    const killTree = (group: string | undefined) => async (pid: number) => {
      if (group) await cgroups.killCommandGroup(runtime.groups, group, pid);
      else for (let round = 0; round < 5 && sendSignal(-pid, "SIGKILL"); round++) await sleep(10);
    };
    if (this.#warm) {
      const entry = await this.#warm.enter(box.id, runtime, command);
      try {
        return await runCommand(entry.child, { ...run, killTree: killTree(entry.group) });
      } finally {
        await this.#warm.finish(box.id, runtime, entry);
      }
    }
    const group = runtime.groups.tree ? `x-${randomBytes(6).toString("hex")}` : undefined;
    if (group) await cgroups.createCommandGroup(runtime.groups, group);
    try {
      const launched = launchProgram(this.#launchOptions(box.id, runtime, group), command.cwd, command.program, command.env);
      return await runCommand(spawnCommand(launched, { stdin: run.stdin !== undefined }), { ...run, killTree: killTree(group) });
    } finally {
      if (group) await cgroups.removeCommandGroup(runtime.groups, group);
    }
  }

  /** Streaming in-box programs (transfers): each in its own group, killed with everything it started on release. */
  #spawner(box: BoxHandle): transfers.InBoxSpawner {
    return async (program, stdio, where) => {
      const runtime = await this.#alive(box);
      const group = runtime.groups.tree ? `t-${randomBytes(6).toString("hex")}` : undefined;
      if (group) await cgroups.createCommandGroup(runtime.groups, group);
      // Descriptors past stdio and fd 3 ("started") that the program uses (an upload's fd 4) stay open in the box.
      const keepFds = stdio.flatMap((use, fd) => (fd > 3 && use === "pipe" ? [fd] : []));
      const options = { ...this.#launchOptions(box.id, runtime, group), keepFds };
      const launched = launchProgram(options, where?.cwd ?? "/", program, where?.env ?? {});
      const child = transfers.spawnLaunch(launched, stdio);
      child.on("error", () => {});
      const exited = new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) resolve();
        child.once("exit", () => resolve());
        child.once("error", () => resolve());
      });
      let released: Promise<void> | undefined;
      // The host-side nsenter (the child itself: sh execs it) is spared so that it reaps what it started (see cgroups.ts).
      const release = () =>
        (released ??= (async () => {
          if (group) await cgroups.killCommandGroup(runtime.groups, group, child.pid ?? -1).catch(() => {});
          else if (child.pid !== undefined)
            for (const pid of await pidsInProcessGroup(child.pid)) if (pid !== child.pid) sendSignal(pid, "SIGKILL");
          await Promise.race([exited, sleep(2_000)]);
          if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
          if (group) await cgroups.removeCommandGroup(runtime.groups, group).catch(() => {});
        })());
      return { child, release };
    };
  }

  #launchOptions(boxId: string, runtime: LocalRuntime, group: string | undefined): LaunchOptions {
    const { loader, helper, filter } = this.#setup;
    // A box started ahead by the warm pool keeps the pooled name in its read-only box-id file (command.ts checks it).
    return { boxId: runtime.sandboxId ?? boxId, runtime, group, nsenterPath: this.#nsenterPath, loader, helper, filter };
  }

  async #alive(box: BoxHandle): Promise<LocalRuntime> {
    const runtime = this.#live(box);
    if (!(await isAliveOrThrow(runtime.init))) throw new DriverError("gone", "the box's processes are gone");
    return runtime;
  }

  /** Whatever the box's last run left, in its groups by its id and, when that run was a pooled box's, by that name. */
  async #endLeftovers(boxId: string): Promise<void> {
    const run = this.#paths(boxId).run;
    await endLeftovers(run, cgroups.boxGroupsOf(this.#support, boxId));
    const pooled = await pooledName(run);
    if (pooled) await endPooledSandbox(this.#support, pooled, run);
  }

  #live(box: BoxHandle): LocalRuntime {
    const runtime = asRuntime(box);
    if (!runtime) throw new DriverError("gone", "the box has no running sandbox");
    // Boxes of earlier versions ran as host root: nothing enters them any more (delete_box still removes them).
    if (typeof runtime.uid !== "number" || runtime.uid <= 0)
      throw new DriverError("gone", "the box was made by an earlier version that ran it as host root; delete it and create another");
    return runtime;
  }

  #paths(boxId: string): BoxPaths {
    return boxPaths(this.#options.dataDir, boxId);
  }
}

function boxUid(spec: BoxSpec): number {
  if (!Number.isInteger(spec.hostUid) || spec.hostUid <= 0)
    throw new DriverError("start_failed", "the box has no host user of its own (hostUid)");
  return spec.hostUid;
}

/** SIGKILL, or a shell reporting a child SIGKILLed (128 + 9): how the out-of-memory killer ends a process. */
function killedBySigkill(outcome: { exitCode: number | null; signal: string | null }): boolean {
  return outcome.signal === "SIGKILL" || outcome.exitCode === 137;
}

/**
 * Whether the box's out-of-memory kills went up since `before`. The count is the box's, not the command's: a
 * command that ended by SIGKILL while the box's memory group recorded a kill was ended by the memory limit (a
 * command killed at its deadline or on cancellation is told apart before this is asked).
 */
async function oomKillsSince(groups: cgroups.BoxGroups, before: number | null): Promise<boolean> {
  if (before === null) return false;
  const after = await cgroups.oomKillCount(groups);
  return after !== null && after > before;
}

function asRuntime(box: BoxHandle): LocalRuntime | null {
  const runtime = box.runtime as LocalRuntime | null | undefined;
  return runtime && typeof runtime === "object" && "init" in runtime ? runtime : null;
}

function launchError(result: RunResult): DriverError {
  const message = result.stderr.toString("utf8").trim();
  if (message.includes("the working directory")) return new DriverError("cwd_missing", message.replace(/^bancada: /, ""));
  return new DriverError("gone", message || "the box did not run the command");
}
