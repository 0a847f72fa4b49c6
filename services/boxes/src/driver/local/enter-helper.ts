/**
 * The one-exec way into a box (native/bancada-enter.c): joining the box's cgroups, its namespaces and its root,
 * and dropping every privilege, done by one small program instead of a chain of four (sh, nsenter, setpriv, sh).
 * It is built from its source with the machine's C compiler (`cc`) the first time a driver starts, statically
 * where the C library allows, into a folder only root may write (`~/.cache/bancada/`, checked: owned by this
 * user, not writable by group or others), named by the hash of the source and the compiler, so a changed source
 * is built again and every later start only checks the file. Without a compiler (or when building fails) the
 * driver uses the chain (command.ts) and says so once in the log: the same namespaces and privileges, a few process
 * starts slower, but no seccomp filter on the entered command (setpriv cannot load one). Where the machine has no
 * compiler by design — the boxes image — the helper is built with the image and named by BOXES_ENTER_HELPER
 * (`prebuilt`): it is checked like a built one (owned by this user, writable by nobody else) and used as it is.
 */
import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import { chmod, lstat, readFile, rename, rm, stat, writeFile } from "node:fs/promises";
import { makeOwnFolder } from "@bancada/service-kit";
import { homedir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";

const run = promisify(execFile);

/** The source, beside the package's src/ folder (the same place from src/ and from a build's dist/). */
const helperSource = fileURLToPath(new URL("../../../native/bancada-enter.c", import.meta.url));

export type HelperBuild = { path: string; reason: null } | { path: null; reason: string };

/** Builds (or finds, already built) the helper; `cacheDir` defaults to ~/.cache/bancada. `prebuilt`: its path, built elsewhere. */
export async function buildEnterHelper(cacheDir = path.join(homedir(), ".cache", "bancada"), prebuilt?: string): Promise<HelperBuild> {
  if (prebuilt) {
    try {
      await checkPrivate(prebuilt, false);
      return { path: prebuilt, reason: null };
    } catch (error) {
      return { path: null, reason: `the prebuilt helper BOXES_ENTER_HELPER cannot be used: ${(error as Error).message}` };
    }
  }
  const compiler = await findCompiler();
  if (!compiler) return { path: null, reason: "no C compiler (cc) on this machine" };
  try {
    const source = await readFile(helperSource);
    const hash = createHash("sha256").update(source).update(compiler).digest("hex").slice(0, 16);
    await makeOwnFolder(cacheDir, 0o700);
    await checkPrivate(cacheDir, true);
    const target = path.join(cacheDir, `bancada-enter-${hash}`);
    if (
      await stat(target).then(
        () => true,
        () => false,
      )
    ) {
      await checkPrivate(target, false);
      return { path: target, reason: null };
    }
    const aside = `${target}.${process.pid}.tmp`;
    try {
      const flags = ["-O2", "-Wall", "-o", aside, helperSource];
      // Static: nothing is loaded at run time; where libc.a is missing, dynamic (loaded on the host, before it enters).
      await run(compiler, ["-static", ...flags]).catch(() => run(compiler, flags));
      await chmod(aside, 0o700);
      await rename(aside, target);
    } finally {
      await rm(aside, { force: true });
    }
    return { path: target, reason: null };
  } catch (error) {
    const stderr = String((error as { stderr?: unknown }).stderr ?? "").trim();
    return { path: null, reason: `the helper could not be built: ${stderr || (error as Error).message}` };
  }
}

/**
 * The box's seccomp filter (seccomp.ts) as a file the helper reads (`--seccomp=`) before it enters: in the same
 * private folder, named by its hash, written aside and renamed, so a running helper never reads half of one.
 */
export async function saveSeccompFilter(program: Buffer, cacheDir = path.join(homedir(), ".cache", "bancada")): Promise<string> {
  await makeOwnFolder(cacheDir, 0o700);
  await checkPrivate(cacheDir, true);
  const target = path.join(cacheDir, `box-seccomp-${createHash("sha256").update(program).digest("hex").slice(0, 16)}.bpf`);
  const saved = await readFile(target).catch(() => null);
  if (saved?.equals(program)) {
    await checkPrivate(target, false);
    return target;
  }
  const aside = `${target}.${process.pid}.tmp`;
  try {
    await writeFile(aside, program, { mode: 0o400 });
    await rename(aside, target);
  } finally {
    await rm(aside, { force: true });
  }
  await checkPrivate(target, false);
  return target;
}

async function findCompiler(): Promise<string | null> {
  for (const compiler of ["/usr/bin/cc", "/usr/bin/gcc", "/usr/bin/clang"]) {
    const found = await stat(compiler).then(
      () => true,
      () => false,
    );
    if (found) return compiler;
  }
  return null;
}

/** A file run as root must be this user's and writable by nobody else (nor may its folder be). */
async function checkPrivate(file: string, folder: boolean): Promise<void> {
  const info = await lstat(file);
  const uid = process.getuid?.() ?? 0;
  if (info.uid !== uid || (info.mode & 0o022) !== 0 || (folder ? !info.isDirectory() : !info.isFile()))
    throw new Error(`${file} must be a ${folder ? "folder" : "file"} owned by uid ${uid} and writable by it only`);
}
