/**
 * The transfer URLs' file work for a local box, done INSIDE the box by tiny shell helpers, like read_file and
 * write_file (box-files.ts): the kernel resolves `..` and symlinks against the box's own root and the files are
 * the box's user's, so nothing the box controls can make a transfer touch the host.
 *
 * An upload streams into `.bancada-upload.<random>` beside the target and is renamed over it only when the
 * service says COMMIT on fd 4 — after it counted every byte of a request that ended well. A request that breaks
 * off, goes over the limit or loses the service (fd 4 closes without the word) removes the temporary file:
 * an interrupted upload leaves nothing, and the target keeps its old content until the rename.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { finished, Transform, type Readable, type TransformCallback } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { DownloadRequest, PathInfo, UploadOutcome, UploadRequest } from "../box-driver.js";
import type { Launch } from "./command.js";

const inspectScript =
  'p=$1; if [ -d "$p" ]; then if [ "$2" = 1 ]; then b=$(du -sb -- "$p" 2>/dev/null | cut -f1); echo "DIRECTORY ${b:-0}"; ' +
  'else echo "DIRECTORY -"; fi; elif [ ! -e "$p" ]; then echo MISSING; elif [ ! -f "$p" ]; then echo SPECIAL; ' +
  'else echo "FILE $(stat -L -c %s -- "$p")"; fi';

const uploadScript =
  'p=$1; d=${p%/*}; [ -n "$d" ] || d=/; if [ -d "$p" ]; then echo DIRECTORY >&2; exit 0; fi; ' +
  'if [ ! -d "$d" ]; then if [ "$3" = 1 ]; then mkdir -p -- "$d" || exit 1; else echo MISSING_PARENT >&2; exit 0; fi; fi; ' +
  't="$d/.bancada-upload.$4"; cat >"$t" || { rm -f -- "$t"; exit 1; }; read -r word <&4 || word=; ' +
  '[ "$word" = COMMIT ] || { rm -f -- "$t"; echo ABORTED >&2; exit 0; }; ' +
  'chmod "$2" -- "$t" && mv -f -- "$t" "$p" || { rm -f -- "$t"; exit 1; }; echo WRITTEN >&2';

/** A file whole (cat) or a range (tail seeks to the start); the file is checked again in case it changed since it was inspected. */
const readScript =
  'p=$1; [ -f "$p" ] || { echo "$p is no longer a regular file" >&2; exit 3; }; ' +
  'if [ "$2" = all ]; then exec cat -- "$p"; fi; tail -c "+$(($2 + 1))" -- "$p" | head -c "$3"';

const archiveScript = 'cd -- "$1" || exit 3; exec tar --zstd -cf - .';

/** Starts one in-box program with the given stdio (built by the driver: namespaces, user, cgroup). */
export type InBoxSpawner = (
  program: string[],
  stdio: ("pipe" | "ignore")[],
  where?: { cwd: string; env: Record<string, string> },
) => Promise<{ child: ChildProcess; release: () => Promise<void> }>;

export async function inspectPath(spawnInBox: InBoxSpawner, path: string, folderBytes: boolean): Promise<PathInfo> {
  const { child, release } = await spawnInBox(
    ["/bin/sh", "-c", inspectScript, "bancada-stat", path, folderBytes ? "1" : "0"],
    ["ignore", "pipe", "pipe"],
  );
  try {
    const [stdout, stderr, code] = await Promise.all([text(child.stdout!), text(child.stderr!), exited(child)]);
    const [word, number] = stdout.trim().split(" ");
    if (word === "FILE" && number !== undefined) return { kind: "file", size: Number(number) };
    if (word === "DIRECTORY") return { kind: "directory", bytes: number === "-" || number === undefined ? null : Number(number) };
    if (word === "MISSING") return { kind: "missing" };
    if (word === "SPECIAL") return { kind: "special" };
    throw new Error(stderr.trim() || `looking at ${path} failed (exit ${code})`);
  } finally {
    await release();
  }
}

export async function upload(spawnInBox: InBoxSpawner, request: UploadRequest): Promise<UploadOutcome> {
  const tag = randomBytes(8).toString("hex");
  const program = ["/bin/sh", "-c", uploadScript, "bancada-upload", request.path, request.mode.toString(8).padStart(4, "0")];
  const { child, release } = await spawnInBox([...program, request.parents ? "1" : "0", tag], ["pipe", "ignore", "pipe", "ignore", "pipe"]);
  const commit = child.stdio[4] as NodeJS.WritableStream & { on(event: "error", listener: () => void): void };
  commit.on("error", () => {});
  child.stdin!.on("error", () => {});
  const status = text(child.stderr!);
  const counter = new ByteCounter(request.maxBytes);
  let failure: UploadOutcome | null = null;
  try {
    await feed(request.source, counter, child.stdin!, request.signal);
  } catch (error) {
    failure = counter.over ? { kind: "too_large" } : { kind: "interrupted", message: (error as Error).message };
    child.stdin!.destroy();
  }
  try {
    // The helper's `cat` is done once stdin ends; it then waits for the word (or the end of fd 4).
    commit.end(failure ? "" : "COMMIT\n");
    const [words, code] = await Promise.all([status, exited(child)]);
    const word = words.trim();
    // The box's side may answer before it has read the body (a folder it cannot make, a folder at the path): it then
    // closes its input, so sending fails too, but what the caller needs is the box's answer, not "broke off".
    if (failure?.kind === "interrupted" && word !== "" && word !== "ABORTED" && word !== "WRITTEN") failure = null;
    if (failure) return failure;
    if (word === "WRITTEN" && code === 0) return { kind: "written", size: counter.bytes };
    if (word === "DIRECTORY") return { kind: "directory" };
    if (word === "MISSING_PARENT") return { kind: "missing_parent" };
    return { kind: "failed", message: word.replace(/^(mkdir|cat|chmod|mv|sh): /gm, "") || `writing failed (exit ${code})` };
  } finally {
    await release();
  }
}

export async function download(
  spawnInBox: InBoxSpawner,
  request: DownloadRequest,
): Promise<{ stream: Readable; ended: Promise<{ ok: boolean; message: string }> }> {
  const program =
    "archive" in request
      ? ["/bin/sh", "-c", archiveScript, "bancada-archive", request.path]
      : request.range
        ? ["/bin/sh", "-c", readScript, "bancada-download", request.path, String(request.range.start), String(request.range.length)]
        : ["/bin/sh", "-c", readScript, "bancada-download", request.path, "all", "0"];
  const { child, release } = await spawnInBox(program, ["ignore", "pipe", "pipe"]);
  const status = text(child.stderr!);
  const stream = child.stdout!;
  // A reader that goes away ends the helper and whatever it started (tar, zstd, tail).
  stream.once("close", () => {
    if (child.exitCode === null) void release();
  });
  const ended = Promise.all([status, exited(child)]).then(async ([message, code]) => {
    await release();
    return { ok: code === 0, message: message.trim() };
  });
  return { stream, ended };
}

/**
 * The request's bytes through the counter into the box. The source is read, never destroyed here: the HTTP layer
 * still answers on its connection. It ending early, the counter refusing a byte, or the signal (the box is being
 * suspended) ends the box's input without the bytes still on their way.
 */
async function feed(source: Readable, counter: ByteCounter, stdin: NodeJS.WritableStream, signal?: AbortSignal): Promise<void> {
  const stop = (error: Error) => {
    source.unpipe(counter);
    counter.destroy(error);
  };
  const onAbort = () => stop(new Error("the box was suspended"));
  const unwatch = finished(source, (error) => error && stop(error));
  signal?.addEventListener("abort", onAbort, { once: true });
  if (signal?.aborted) onAbort();
  source.pipe(counter);
  try {
    await pipeline(counter, stdin);
  } finally {
    source.unpipe(counter);
    unwatch();
    signal?.removeEventListener("abort", onAbort);
  }
}

/** Counts what passes; past `max` bytes it fails the pipeline (the upload is then refused, nothing written). */
class ByteCounter extends Transform {
  bytes = 0;
  over = false;
  readonly #max: number;

  constructor(max: number) {
    super();
    this.#max = max;
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    this.bytes += chunk.length;
    if (this.bytes > this.#max) {
      this.over = true;
      done(new Error(`more than ${this.#max} bytes`));
      return;
    }
    done(null, chunk);
  }
}

function text(stream: Readable): Promise<string> {
  return new Promise((resolve) => {
    let out = "";
    stream.on("data", (chunk: Buffer) => {
      if (out.length < 64 * 1024) out += chunk.toString("utf8");
    });
    stream.on("error", () => resolve(out));
    stream.on("close", () => resolve(out));
  });
}

function exited(child: ChildProcess): Promise<number | null> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve(child.exitCode);
    child.once("exit", (code) => resolve(code));
    child.once("error", () => resolve(127));
  });
}

export function spawnLaunch(command: Launch, stdio: ("pipe" | "ignore")[]): ChildProcess {
  return spawn(command.file, command.args, { env: command.env, detached: true, stdio });
}
