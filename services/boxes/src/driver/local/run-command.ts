/**
 * Runs one launch to completion and captures it: each output stream kept up to a byte limit (the
 * rest is read and counted, so the command never blocks on a full pipe), stdin written once, and the
 * whole process tree killed at the deadline or when the caller goes away. The call ends when the
 * command's main process ends, and then whatever it left running in the background is killed too:
 * an exec never leaves processes behind (a detached fork bomb included). start_job is for those.
 */
import { spawn, type ChildProcess } from "node:child_process";
import type { Readable } from "node:stream";
import type { Launch } from "./command.js";
import type { ExecOutcome } from "../box-driver.js";

export interface RunOptions {
  stdin?: Buffer;
  timeoutMs: number;
  maxOutputBytes: number;
  signal?: AbortSignal;
  /** Kills the command's whole process tree. */
  killTree: (pid: number) => Promise<void>;
}

export interface RunResult extends Omit<ExecOutcome, "oomKilled"> {
  /** The in-box launcher reached the command (the working directory existed). */
  started: boolean;
}

/** How long to keep reading output after the main process ended and its leftovers were killed. */
const drainMs = 1_000;
/** How long a killed tree may take to go away before the call answers anyway (a frozen box cannot die). */
const killGraceMs = 5_000;

/**
 * A launch started the way runCommand reads it: stdout, stderr and the "started" fd 3 as pipes, in its own process
 * group; `request` adds fd 4, the pipe a warm entry reads its command from.
 */
export function spawnCommand(command: Launch, options: { stdin: boolean; request?: boolean }): ChildProcess {
  return spawn(command.file, command.args, {
    env: command.env,
    detached: true,
    stdio: [options.stdin ? "pipe" : "ignore", "pipe", "pipe", "pipe", ...(options.request ? (["pipe"] as const) : [])],
  });
}

/** Runs a started command (spawnCommand, or a warm entry just handed its command) to completion. */
export function runCommand(child: ChildProcess, options: RunOptions): Promise<RunResult> {
  const started = performance.now();
  const stdout = new Capture(options.maxOutputBytes);
  const stderr = new Capture(options.maxOutputBytes);
  stdout.attach(child.stdout!);
  stderr.attach(child.stderr!);
  let reachedCommand = false;
  (child.stdio[3] as Readable).on("data", () => (reachedCommand = true)).on("error", () => {});
  // A warm entry always has a stdin pipe: without input it is ended at once (the command reads end-of-file).
  if (child.stdin) {
    child.stdin.on("error", () => {});
    child.stdin.end(options.stdin);
  }

  return new Promise<RunResult>((resolve) => {
    let timedOut = false;
    let cancelled = false;
    let exit: { code: number | null; signal: NodeJS.Signals | null } | null = null;
    let graceTimer: NodeJS.Timeout | undefined;
    const kill = () => {
      if (child.pid !== undefined) void options.killTree(child.pid).catch(() => {});
      graceTimer ??= setTimeout(() => finish(), killGraceMs);
    };
    const deadline = setTimeout(() => {
      timedOut = true;
      kill();
    }, options.timeoutMs);
    const onAbort = () => {
      cancelled = true;
      kill();
    };
    options.signal?.addEventListener("abort", onAbort, { once: true });
    if (options.signal?.aborted) onAbort();

    let done = false;
    const finish = () => {
      if (done) return;
      done = true;
      clearTimeout(deadline);
      clearTimeout(graceTimer);
      options.signal?.removeEventListener("abort", onAbort);
      for (const stream of child.stdio) stream?.destroy();
      resolve({
        stdout: stdout.bytes(),
        stderr: stderr.bytes(),
        stdoutBytes: stdout.total,
        stderrBytes: stderr.total,
        exitCode: exit?.code ?? null,
        signal: exit?.signal ?? (exit ? null : "SIGKILL"),
        timedOut,
        cancelled,
        started: reachedCommand,
        durationMs: Math.round(performance.now() - started),
      });
    };
    child.on("exit", (code, signal) => {
      exit = { code, signal };
      if (child.pid !== undefined) void options.killTree(child.pid).catch(() => {});
      setTimeout(finish, drainMs).unref();
    });
    child.on("close", finish);
    child.on("error", (error) => {
      stderr.push(Buffer.from(`bancada: could not start the command: ${error.message}\n`));
      exit = { code: 127, signal: null };
      finish();
    });
  });
}

/** Keeps the first `limit` bytes of a stream and counts the rest. */
class Capture {
  readonly #limit: number;
  readonly #chunks: Buffer[] = [];
  #kept = 0;
  total = 0;

  constructor(limit: number) {
    this.#limit = limit;
  }

  attach(stream: Readable): void {
    stream.on("data", (chunk: Buffer) => this.push(chunk));
    stream.on("error", () => {});
  }

  push(chunk: Buffer): void {
    this.total += chunk.length;
    const room = this.#limit - this.#kept;
    if (room <= 0) return;
    const part = chunk.length <= room ? chunk : chunk.subarray(0, room);
    this.#chunks.push(part);
    this.#kept += part.length;
  }

  bytes(): Buffer {
    return Buffer.concat(this.#chunks);
  }
}
