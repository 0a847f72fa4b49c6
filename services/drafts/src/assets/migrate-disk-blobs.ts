/**
 * Moves the asset files an earlier version kept on disk (`<folder>/sha256/<ab>/<sha256>`) into the blob
 * store, at start, before the service serves. Each file is streamed in, its hash checked against its name,
 * and deleted from disk once its blob has committed: what is left on disk is what is left to move, so an
 * interrupted migration resumes where it stopped, and running it again (or on two replicas at once) moves
 * nothing twice. A file that cannot be moved (its bytes do not match its name, or are not media) stays on
 * disk and is named in the log; the asset referring to it reports its bytes missing, as before.
 */
import { createReadStream } from "node:fs";
import { readdir, rm, rmdir } from "node:fs/promises";
import path from "node:path";
import type { Logger } from "@bancada/service-kit";
import type { BlobStore } from "./blob-store.js";

export interface DiskMigrationReport {
  found: number;
  moved: number;
  /** Already in the store (moved by an earlier, interrupted run or by another replica): deleted from disk. */
  alreadyStored: number;
  failed: number;
  bytes: number;
}

const hashName = /^[0-9a-f]{64}$/;
const progressEveryMs = 5_000;

/** Undefined when the folder holds no asset files (a new installation, or a migration already done). */
export async function migrateDiskBlobs(folder: string, store: BlobStore, log: Logger): Promise<DiskMigrationReport | undefined> {
  const root = path.resolve(folder);
  const files = await blobFiles(root);
  if (!files.length) return undefined;
  const report: DiskMigrationReport = { found: files.length, moved: 0, alreadyStored: 0, failed: 0, bytes: 0 };
  log.info({ folder: root, files: files.length }, "moving asset files from disk into PostgreSQL");
  let lastProgress = Date.now();
  for (const file of files) {
    await moveOne(file, store, report, log);
    if (Date.now() - lastProgress >= progressEveryMs) {
      lastProgress = Date.now();
      log.info({ done: report.moved + report.alreadyStored + report.failed, of: report.found, bytes: report.bytes }, "moving asset files");
    }
  }
  await removeEmptyFolders(root);
  log.info(
    { ...report, folder: root },
    report.failed
      ? "asset files moved into PostgreSQL, except those named above (left on disk)"
      : "asset files moved into PostgreSQL; the folder is no longer used",
  );
  return report;
}

async function moveOne(file: string, store: BlobStore, report: DiskMigrationReport, log: Logger): Promise<void> {
  const name = path.basename(file);
  try {
    if ((await store.size(name)) === null) {
      const stored = await store.put(createReadStream(file), "file");
      if (stored.sha256 !== name) {
        // the blob went in under its true hash and, as nothing refers to it, the sweep removes it
        report.failed++;
        log.warn({ file, sha256: stored.sha256 }, "an asset file's bytes do not match its name; it stays on disk");
        return;
      }
      report.moved++;
      report.bytes += stored.bytes;
    } else {
      report.alreadyStored++;
    }
    await rm(file, { force: true });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT" && (await store.size(name)) !== null) {
      report.alreadyStored++; // another replica moved it meanwhile
      return;
    }
    report.failed++;
    log.warn({ file, err: error }, "an asset file could not be moved into PostgreSQL; it stays on disk");
  }
}

async function blobFiles(root: string): Promise<string[]> {
  const shards = await readdir(path.join(root, "sha256")).catch(() => [] as string[]);
  const files: string[] = [];
  for (const shard of shards.sort()) {
    const names = await readdir(path.join(root, "sha256", shard)).catch(() => [] as string[]);
    files.push(...names.filter((name) => hashName.test(name)).map((name) => path.join(root, "sha256", shard, name)));
  }
  return files;
}

/** Empty shard folders, the upload leftovers of `tmp/`, and the folder itself once nothing else is in it. */
async function removeEmptyFolders(root: string): Promise<void> {
  await rm(path.join(root, "tmp"), { recursive: true, force: true });
  const shards = await readdir(path.join(root, "sha256")).catch(() => [] as string[]);
  for (const shard of shards) await rmdir(path.join(root, "sha256", shard)).catch(() => {});
  await rmdir(path.join(root, "sha256")).catch(() => {});
  await rmdir(root).catch(() => {});
}
