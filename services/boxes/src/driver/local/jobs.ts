/**
 * Background jobs of a local box. Each job has a small waiter process on the host, started detached
 * (its own session, not a child bound to the service): it runs the command with stdout and stderr
 * interleaved into a pipe (`run/jobs/<id>/out`, a FIFO), copies at most the log cap of it into
 * `run/jobs/<id>/log` (the rest is read and dropped, and `truncated` marks it) and, when the command ends, writes
 * its exit status to `run/jobs/<id>/exit`. The job therefore outlives the call and the service; a restarted service
 * reads the same files. The job never holds the host file itself: a job once allocated 2 GiB of the host's disk with
 * one posix_fallocate on its stdout (a pipe refuses it). The waiter stays outside the box's cgroups, so freezing the
 * box does not freeze it and killing the job's processes still lets it record how they ended.
 */
import { spawn } from "node:child_process";
import { watch } from "node:fs";
import { access, mkdir, open, readFile, stat } from "node:fs/promises";
import path from "node:path";
import type { Readable } from "node:stream";
import type { JobProbe, LogChunk } from "../box-driver.js";
import { wholeCharacters } from "../utf8.js";
import type { Launch } from "./command.js";
import { isAlive, processRef, signalName, type ProcessRef } from "./procfs.js";

export interface JobRuntime {
  waiter: ProcessRef;
  /** The box's out-of-memory kill count when the job started (null: not counted here). */
  oomKills?: number | null;
}

/** The most of a job's output its log keeps (the first bytes); the default of LocalDriverOptions.jobLogMaxBytes. */
export const defaultJobLogMaxBytes = 64 * 1024 * 1024;

// fd 3 carries the in-box "started" byte to the service; neither the waiter nor the log's copier keeps it open.
// The copier: head reads exactly the cap, one more byte tells an overflow (marked, then drained so the job never
// blocks or gets SIGPIPE); `logged` says the log is complete. The exit is written once the log is complete, or
// after 2 s when a process the job left behind still holds the pipe.
const waiterScript =
  'd=$1; cap=$2; shift 2; rm -f "$d/out"; mkfifo -m 600 "$d/out" || exit 125; exec 4>&3 3>&-; ' +
  '"$@" 3>&4 4>&- >"$d/out" 2>&1 </dev/null & job=$!; ' +
  '{ head -c "$cap"; if [ "$(head -c 1 | wc -c)" -gt 0 ]; then : >"$d/truncated"; cat >/dev/null; fi; : >"$d/logged"; } ' +
  '>"$d/log" <"$d/out" 4>&- & ' +
  'exec 4>&-; wait "$job"; code=$?; ' +
  'n=0; while [ ! -e "$d/logged" ] && [ "$n" -lt 100 ]; do sleep 0.02; n=$((n + 1)); done; rm -f "$d/out"; ' +
  'printf "%s" "$code" >"$d/exit.tmp" && mv "$d/exit.tmp" "$d/exit"';

export async function startWaiter(jobDir: string, command: Launch, logMaxBytes: number): Promise<JobRuntime> {
  await mkdir(jobDir, { recursive: true });
  const args = ["-c", waiterScript, "bancada-job", jobDir, String(logMaxBytes), command.file, ...command.args];
  const child = spawn("/bin/sh", args, {
    env: command.env,
    detached: true,
    stdio: ["ignore", "ignore", "ignore", "pipe"],
  });
  child.unref();
  const started = await new Promise<boolean>((resolve) => {
    const signal = child.stdio[3] as Readable;
    const settle = (value: boolean) => {
      clearTimeout(timer);
      resolve(value);
    };
    // No answer at all within 15 s (a frozen or overloaded box): treat the job as started, the probe will tell.
    const timer = setTimeout(() => settle(true), 15_000);
    signal.once("data", () => settle(true));
    signal.once("end", () => settle(false));
    signal.once("error", () => settle(false));
    child.once("error", () => settle(false));
  });
  (child.stdio[3] as Readable).destroy();
  if (!started) {
    await waitForFile(path.join(jobDir, "exit"), 2_000);
    const log = await readFile(path.join(jobDir, "log"), "utf8").catch(() => "");
    throw new JobStartError(log.trim() || "the job could not start");
  }
  const waiter = await processRef(child.pid!);
  return { waiter: waiter ?? { pid: child.pid!, startTime: "" } };
}

class JobStartError extends Error {
  override readonly name = "JobStartError";
}

export async function probeJob(jobDir: string, runtime: JobRuntime | null): Promise<JobProbe> {
  const exit = await readFile(path.join(jobDir, "exit"), "utf8").catch(() => null);
  if (exit !== null) return exitProbe(Number(exit.trim()));
  if (runtime && (await isAlive(runtime.waiter))) return { state: "running" };
  // The waiter may have written the file between our two looks.
  const late = await readFile(path.join(jobDir, "exit"), "utf8").catch(() => null);
  if (late !== null) return exitProbe(Number(late.trim()));
  return { state: "lost", reason: "the job's waiter process ended without recording an exit status (host restart or crash)" };
}

/** Shell convention: 128+n means "ended by signal n" (nsenter re-raises the signal its child died of). */
function exitProbe(code: number): JobProbe {
  if (code > 128 && code < 128 + 65) return { state: "exited", exitCode: null, signal: signalName(code - 128) };
  return { state: "exited", exitCode: code, signal: null };
}

export async function readLog(
  jobDir: string,
  range: { offset: number; maxBytes: number } | { tailLines: number; maxBytes: number },
): Promise<LogChunk> {
  const file = path.join(jobDir, "log");
  const size = await stat(file).then(
    (info) => info.size,
    () => 0,
  );
  const truncated = await access(path.join(jobDir, "truncated")).then(
    () => true,
    () => false,
  );
  if ("offset" in range) {
    const start = Math.min(range.offset, size);
    const end = Math.min(size, start + range.maxBytes);
    const raw = await readRange(file, start, end);
    const data = end < size ? wholeCharacters(raw) : raw;
    return { data, offset: start, nextOffset: start + data.length, size, truncated };
  }
  const start = Math.max(0, size - range.maxBytes);
  const raw = await readRange(file, start, size);
  const from = tailStart(raw, range.tailLines, start === 0);
  return { data: raw.subarray(from), offset: start + from, nextOffset: size, size, truncated };
}

async function readRange(file: string, start: number, end: number): Promise<Buffer> {
  if (end <= start) return Buffer.alloc(0);
  const handle = await open(file, "r");
  try {
    const buffer = Buffer.alloc(end - start);
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, start);
    return buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

/** Where the last `lines` lines begin (a trailing newline does not start an empty line). */
function tailStart(data: Buffer, lines: number, atFileStart: boolean): number {
  let end = data.length;
  if (end > 0 && data[end - 1] === 0x0a) end--;
  let found = 0;
  for (let index = end - 1; index >= 0; index--) {
    if (data[index] === 0x0a && ++found === lines) return index + 1;
  }
  if (atFileStart) return 0;
  const firstNewline = data.indexOf(0x0a);
  return firstNewline === -1 ? 0 : firstNewline + 1;
}

/** Resolves when something changes in the job's directory (its exit file appears), or after maxMs. */
export function jobDirChanged(jobDir: string, maxMs: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    let watcher: ReturnType<typeof watch> | undefined;
    const done = () => {
      clearTimeout(timer);
      watcher?.close();
      signal?.removeEventListener("abort", done);
      resolve();
    };
    const timer = setTimeout(done, maxMs);
    signal?.addEventListener("abort", done, { once: true });
    try {
      watcher = watch(jobDir, done);
      watcher.on("error", done);
    } catch {
      // no watch support: the timer still wakes the waiter
    }
  });
}

async function waitForFile(file: string, timeoutMs: number): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    if (
      await stat(file).then(
        () => true,
        () => false,
      )
    )
      return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
