/**
 * read_file / write_file for a local box, done INSIDE the box by tiny shell helpers: the kernel then
 * resolves `..` and symlinks against the box's own root, so no path can reach the host (a symlink to
 * `/` is the box's `/`). Resolving paths on the host (even through /proc/<pid>/root) would follow an
 * absolute symlink to the host's root. Status goes to stderr as one word; data on stdout / stdin.
 * Writes are atomic: a temporary file in the same directory, chmod, then rename over the target.
 */
import type { FileRead, FileWrite, FileWriteOutcome, FolderEntry, FolderList } from "../box-driver.js";

const readScript =
  'p=$1; if [ -d "$p" ]; then echo DIRECTORY >&2; exit 0; fi; if [ ! -e "$p" ]; then echo MISSING >&2; exit 0; fi; ' +
  'if [ ! -f "$p" ]; then echo SPECIAL >&2; exit 0; fi; ' +
  // /proc and /sys hold the kernel's interfaces, not files: /proc/self/mem fails, /proc/kmsg blocks
  'case "$(readlink -f -- "$p")" in /proc/*|/sys/*) echo KERNEL >&2; exit 0;; esac; exec head -c "$2" -- "$p"';

const writeScript =
  'p=$1; d=${p%/*}; [ -n "$d" ] || d=/; if [ -d "$p" ]; then echo DIRECTORY >&2; exit 0; fi; ' +
  'if [ ! -d "$d" ]; then if [ "$3" = 1 ]; then mkdir -p -- "$d" || exit 1; else echo MISSING_PARENT >&2; exit 0; fi; fi; ' +
  't="$d/.bancada-write.$$"; cat >"$t" || { rm -f -- "$t"; exit 1; }; ' +
  'chmod "$2" -- "$t" && mv -f -- "$t" "$p" || { rm -f -- "$t"; exit 1; }; echo WRITTEN >&2';

/**
 * One folder's entries, one record each: the entry's type letter and its target's (GNU find's %y and %Y: they
 * differ for a symbolic link), size, modification time, name; records end in NUL, so any name (a newline in it,
 * say) comes back whole. Only the first $2 are listed.
 */
const listScript =
  'p=$1; if [ ! -e "$p" ]; then echo MISSING >&2; exit 0; fi; if [ ! -d "$p" ]; then echo NOT_FOLDER >&2; exit 0; fi; ' +
  'case "$(readlink -f -- "$p")" in /proc|/proc/*|/sys|/sys/*) echo KERNEL >&2; exit 0;; esac; ' +
  'find "$p/" -mindepth 1 -maxdepth 1 -printf \'%y%Y/%s/%T@/%f\\0\' 2>/dev/null | head -z -n "$2"; echo LISTED >&2';

export interface HelperResult {
  stdout: Buffer;
  stderr: Buffer;
  stdoutBytes: number;
  exitCode: number | null;
}

export function readOutcome(result: HelperResult, maxBytes: number): FileRead {
  const status = result.stderr.toString("utf8").trim();
  if (status === "DIRECTORY") return { kind: "directory" };
  if (status === "MISSING") return { kind: "missing" };
  if (status === "SPECIAL") return { kind: "special" };
  if (status === "KERNEL") return { kind: "kernel" };
  if (result.exitCode !== 0)
    return { kind: "failed", message: status.replace(/^head: /gm, "") || `reading failed (exit ${result.exitCode})` };
  if (result.stdoutBytes > maxBytes) return { kind: "too_large", size: result.stdoutBytes };
  return { kind: "file", data: result.stdout };
}

export function writeOutcome(result: HelperResult): FileWriteOutcome {
  const status = result.stderr.toString("utf8").trim();
  if (status === "WRITTEN" && result.exitCode === 0) return { kind: "written" };
  if (status === "DIRECTORY") return { kind: "directory" };
  if (status === "MISSING_PARENT") return { kind: "missing_parent" };
  return { kind: "failed", message: status.replace(/^(mkdir|cat|chmod|mv|sh): /gm, "") || `writing failed (exit ${result.exitCode})` };
}

export function readArgsFor(path: string, limit: number): string[] {
  return ["/bin/sh", "-c", readScript, "bancada-read", path, String(limit)];
}

export function writeArgs(write: FileWrite): string[] {
  return ["/bin/sh", "-c", writeScript, "bancada-write", write.path, write.mode.toString(8).padStart(4, "0"), write.parents ? "1" : "0"];
}

export function listArgsFor(path: string, limit: number): string[] {
  return ["/bin/sh", "-c", listScript, "bancada-list", path, String(limit)];
}

const entryTypes: Record<string, FolderEntry["type"]> = { f: "file", d: "folder" };

export function listOutcome(result: HelperResult): FolderList {
  const status = result.stderr.toString("utf8").trim();
  if (status === "MISSING") return { kind: "missing" };
  if (status === "NOT_FOLDER") return { kind: "not_folder" };
  if (status === "KERNEL") return { kind: "kernel" };
  if (status !== "LISTED") return { kind: "failed", message: status || `listing failed (exit ${result.exitCode})` };
  const entries = result.stdout
    .toString("utf8")
    .split("\0")
    .filter(Boolean)
    .map((record): FolderEntry => {
      const [types = "", size = "0", mtime = "0", ...name] = record.split("/");
      return {
        name: name.join("/"),
        type: entryTypes[types.charAt(1)] ?? "other",
        link: types.charAt(0) === "l",
        size: Number(size),
        modifiedAt: new Date(Number(mtime) * 1000).toISOString(),
      };
    });
  return { kind: "folder", entries };
}
