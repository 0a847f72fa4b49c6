/**
 * The one seam between the boxes service and where boxes live (docs/boxes.md#decisions). The domain keeps
 * state in Postgres and asks the driver to act; the driver keeps no state of its own beyond what it
 * returns as `runtime` (stored with the box, handed back on every call), so a restarted service can
 * find its boxes again. `local` runs boxes as bubblewrap sandboxes on this machine; a Kubernetes
 * driver can implement the same interface with Pods.
 */
import type { Duplex, Readable, Writable } from "node:stream";

/** What a driver needs to find a box: its id and the runtime handle it returned last. */
export interface BoxHandle {
  id: string;
  runtime: unknown;
}

export interface BoxResources {
  vcpus: number;
  memMiB: number;
  dataGiB: number;
}

export interface BoxSpec extends BoxHandle, BoxResources {
  /** Used as the box's hostname. */
  name: string;
  /** The box's own unprivileged host uid (and gid), allocated once per box and kept with it. */
  hostUid: number;
}

/** Which of the requested resources the driver enforces, and how; shown on the box. */
export interface Enforcement {
  cpu: string | null;
  memory: string | null;
  /** How dataGiB is held to; null: the disk has no size limit here. */
  disk: string | null;
  processes: { max: number; via: string } | null;
  freeze: string;
  network: string;
  /** Whom root in the box is on the host. */
  user: string;
}

/** What the driver sees of a box right now. */
export type BoxLiveness = "running" | "frozen" | "gone";

export interface CommandSpec {
  /** Text for `bash -lc`, or an argument vector run without a shell. */
  command: { cmd: string } | { argv: string[] };
  /** Absolute path inside the box. */
  cwd: string;
  env: Record<string, string>;
}

export interface ExecRequest extends CommandSpec {
  timeoutMs: number;
  stdin?: Buffer;
  /** Each stream is kept up to this many bytes; the rest is counted and dropped. */
  maxOutputBytes: number;
  signal?: AbortSignal;
}

export interface ExecOutcome {
  stdout: Buffer;
  stderr: Buffer;
  stdoutBytes: number;
  stderrBytes: number;
  exitCode: number | null;
  signal: string | null;
  timedOut: boolean;
  cancelled: boolean;
  /** Ended by the out-of-memory killer at the box's memory limit (its memory group counted a kill while it ran). */
  oomKilled: boolean;
  durationMs: number;
}

export interface JobRequest extends CommandSpec {
  jobId: string;
}

/** A job as the driver sees it: still running, ended with a status, or lost (nothing left to ask). */
export type JobProbe =
  | { state: "running" }
  | { state: "exited"; exitCode: number | null; signal: string | null; oomKilled?: boolean }
  | { state: "lost"; reason: string };

export interface LogChunk {
  data: Buffer;
  offset: number;
  nextOffset: number;
  size: number;
  /** The job wrote more than its log keeps: the log holds the first bytes, the rest was dropped. */
  truncated: boolean;
}

export type FileRead =
  | { kind: "file"; data: Buffer }
  | { kind: "missing" }
  | { kind: "directory" }
  | { kind: "special" }
  /** Under /proc or /sys once symlinks are resolved: a kernel interface, not a file's contents. */
  | { kind: "kernel" }
  | { kind: "too_large"; size: number }
  /** The file exists but could not be read (permissions, an I/O error). */
  | { kind: "failed"; message: string };

export interface FileWrite {
  path: string;
  data: Buffer;
  mode: number;
  parents: boolean;
}

export type FileWriteOutcome =
  { kind: "written" } | { kind: "missing_parent" } | { kind: "directory" } | { kind: "failed"; message: string };

/** What a path in the box is, for the transfer URLs (a folder's bytes only when asked: it walks the tree). */
export interface FolderEntry {
  name: string;
  /** What the entry leads to: a symbolic link is the type of its target (`other` when it leads nowhere). */
  type: "file" | "folder" | "other";
  link: boolean;
  size: number;
  modifiedAt: string;
}
export type FolderList =
  | { kind: "folder"; entries: FolderEntry[] }
  | { kind: "missing" }
  | { kind: "not_folder" }
  | { kind: "kernel" }
  | { kind: "failed"; message: string };

export type PathInfo =
  { kind: "file"; size: number } | { kind: "directory"; bytes: number | null } | { kind: "missing" } | { kind: "special" };

export interface UploadRequest {
  path: string;
  mode: number;
  parents: boolean;
  /** The bytes, streamed (with backpressure) into a temporary file beside `path`. */
  source: Readable;
  /** More bytes than this from `source`: nothing is written (too_large). */
  maxBytes: number;
  /** Aborted: the upload stops (interrupted, nothing written); `source` is left as it is. */
  signal?: AbortSignal;
}

/** written: renamed over `path`; every other outcome leaves the box's files as they were. */
export type UploadOutcome =
  | { kind: "written"; size: number }
  | { kind: "too_large" }
  | { kind: "interrupted"; message: string }
  | { kind: "missing_parent" }
  | { kind: "directory" }
  | { kind: "failed"; message: string };

/** A file's bytes (all, or `range`), or a folder as tar.zst. */
export type DownloadRequest = { path: string; range?: { start: number; length: number } } | { path: string; archive: true };

/** Destroying `stream` ends the reading in the box; `ended` says whether it ran to its end. */
export interface DownloadStream {
  stream: Readable;
  ended: Promise<{ ok: boolean; message: string }>;
}

/** A saved disk of one account (its files live in that account's own folder of the snapshot store). */
export interface SnapshotHandle {
  id: string;
  accountId: string;
}

/** Where copyDisk puts a copy: the disk of a new box (a fork_box copy), or a snapshot. */
export type DiskTarget = { kind: "box"; id: string } | { kind: "snapshot"; snapshot: SnapshotHandle };

/** How a copy was made and what it took: copy-on-write (reflink) where the filesystem allows, a plain sparse copy otherwise. */
export interface DiskCopy {
  method: "reflink" | "copy";
  /** Bytes the copies take on the host (each; sparse: only what was written). */
  bytes: number;
  durationMs: number;
  /** How long the source box's processes and disk were held still. */
  frozenMs: number;
}

/** A shell or a command of an SSH session, run in the box like exec (namespaces, the box's user), optionally on a terminal. */
export interface ShellRequest {
  /** Text for `bash -lc`, or null for an interactive login shell. */
  command: string | null;
  /** A terminal (pty) in the box, as `ssh -t` asks for one; null: plain pipes. */
  terminal: { term: string; rows: number; cols: number } | null;
  env: Record<string, string>;
}

export interface ShellProcess {
  stdin: Writable;
  stdout: Readable;
  stderr: Readable;
  exited: Promise<{ code: number | null; signal: string | null }>;
  /** Ends the shell and everything it started. */
  kill(): Promise<void>;
}

/** The free space where box disks live, and what each named box's disk holds on it now (bytes). */
export interface DiskSpace {
  freeBytes: number;
  heldBytes: Map<string, number>;
}

export interface BoxDriver {
  readonly kind: string;
  /** False when the driver could not start here; its calls then answer `unavailable`. */
  readonly available: boolean;
  /** The template every box of this driver starts from, and its version. */
  readonly template: { name: string; version: string };
  readonly node: string;
  enforcement(resources: BoxResources): Enforcement;
  /** Makes the disk and starts the box; returns the runtime handle to store. */
  create(spec: BoxSpec): Promise<unknown>;
  /**
   * A box started ahead (a warm pool), reserved for the create_box about to be recorded: its host uid, which the box
   * is recorded with; `create` with that uid binds it instead of starting one. null: none ready. Each one serves one
   * box only; absent where the driver starts nothing ahead.
   */
  reserveWarmBox?(resources: BoxResources): Promise<number | null>;
  /** A reservation the create will not use (the record failed, or was a replay): that box is ended, never offered again. */
  releaseWarmBox?(hostUid: number): Promise<void>;
  /**
   * Copies the box's disk to each target, consistently: the box's processes and its filesystem are held
   * still for the copy (no write is half in it), then let go. The signal cancels it (copies left are removed).
   */
  copyDisk(source: BoxHandle, targets: DiskTarget[], signal?: AbortSignal): Promise<DiskCopy>;
  /**
   * Starts a new box whose disk is a copy: made by copyDisk for this box, or taken now from `snapshot`
   * (grown to the box's dataGiB when that is larger). The disk becomes the box's own (its host user, its hostname).
   */
  createFromCopy(spec: BoxSpec, snapshot?: SnapshotHandle): Promise<unknown>;
  /**
   * A stopped box's disk and its jobs' logs as one stream (a sparse tar, zstd-compressed), for a move to another node
   * (domain/move-box.ts): served by this node's transfer route, read by the receiving node's `importDisk`. Its
   * processes are ended and its disk unmounted first, so the bytes are all of it; the box stays as it was here.
   */
  exportDisk(box: BoxHandle): Promise<DownloadStream>;
  /**
   * Takes the disk another node's `exportDisk` serves at `source` (a signed URL) as this box's own, stopped: `start`
   * then runs it here. A box this node holds a disk of already is refused; what a failed import left is removed.
   */
  importDisk(box: BoxHandle, source: string, signal?: AbortSignal): Promise<{ bytes: number }>;
  /** A ready snapshot's files as one stream (as exportDisk), for a box made from it on another node. */
  exportSnapshot(snapshot: SnapshotHandle): Promise<DownloadStream>;
  /**
   * Copies the snapshot another node's `exportSnapshot` serves at `source` (a signed URL) into this node's snapshot
   * store, so that `createFromCopy` can take it here; `deleteSnapshot` removes the copy. What a failed copy left is removed.
   */
  importSnapshot(snapshot: SnapshotHandle, source: string, signal?: AbortSignal): Promise<{ bytes: number }>;
  /** Lets go of a disk an interrupted copyDisk held still (after a restart of the service). Safe to repeat. */
  releaseDisk(box: BoxHandle): Promise<void>;
  /** Removes a snapshot's files. Safe to repeat. */
  deleteSnapshot(snapshot: SnapshotHandle): Promise<void>;
  /** Starts a stopped box again from its disk (fresh processes). */
  start(spec: BoxSpec): Promise<unknown>;
  /** Free space for box disks and what the boxes' disks take now; absent where disks are not this machine's. */
  diskSpace?(boxIds: string[]): Promise<DiskSpace>;
  inspect(box: BoxHandle): Promise<BoxLiveness>;
  suspend(box: BoxHandle): Promise<void>;
  resume(box: BoxHandle): Promise<void>;
  /** Kills every process of the box and keeps its disk. */
  stop(box: BoxHandle): Promise<void>;
  /** Kills every process and removes the disk. Safe to repeat. */
  destroy(box: BoxHandle): Promise<void>;
  exec(box: BoxHandle, request: ExecRequest): Promise<ExecOutcome>;
  startJob(box: BoxHandle, request: JobRequest): Promise<unknown>;
  probeJob(box: BoxHandle, jobId: string, runtime: unknown): Promise<JobProbe>;
  /** Kills every process of a job; its end is then recorded like any other. */
  killJob(box: BoxHandle, jobId: string, runtime: unknown): Promise<void>;
  readJobLog(
    box: BoxHandle,
    jobId: string,
    range: { offset: number; maxBytes: number } | { tailLines: number; maxBytes: number },
  ): Promise<LogChunk>;
  /** Resolves when the job's state may have changed (or after `maxMs`): lets waiters sleep instead of spinning. */
  jobChanged(box: BoxHandle, jobId: string, maxMs: number, signal?: AbortSignal): Promise<void>;
  readFile(box: BoxHandle, path: string, maxBytes: number): Promise<FileRead>;
  writeFile(box: BoxHandle, write: FileWrite): Promise<FileWriteOutcome>;
  inspectPath(box: BoxHandle, path: string, options: { folderBytes: boolean }): Promise<PathInfo>;
  /** A folder's entries (at most `limit`), listed inside the box as read_file reads. */
  listFolder(box: BoxHandle, path: string, limit: number): Promise<FolderList>;
  upload(box: BoxHandle, request: UploadRequest): Promise<UploadOutcome>;
  download(box: BoxHandle, request: DownloadRequest): Promise<DownloadStream>;
  openShell(box: BoxHandle, request: ShellRequest): Promise<ShellProcess>;
  /** A connection to 127.0.0.1:`port` inside the box (the box keeps no host network: the driver bridges into it). */
  connectPort(box: BoxHandle, port: number): Promise<Duplex>;
  /** Ends what the driver keeps open to reach the box's ports (all, or one). */
  closePorts(box: BoxHandle, port?: number): Promise<void>;
  /** Periodic housekeeping (e.g. empty per-command cgroups); cheap, never throws. */
  sweep(box: BoxHandle): Promise<void>;
  /** When the service stops: releases what the driver holds for itself (never the boxes). */
  close(): Promise<void>;
}
