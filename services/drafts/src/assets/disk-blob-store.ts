/**
 * Asset bytes on disk, as versions before the PostgreSQL store kept them: `<root>/sha256/<ab>/<sha256>`. A
 * blob is streamed to a temporary file while it is hashed and measured, then renamed into place (atomic).
 * Everything under the root is readable by the service's user only (see owner-only.ts). The service no
 * longer stores here: the migration at start moves what it finds here into PostgreSQL (migrate-disk-blobs.ts),
 * and the asset benchmark uses this store as its baseline. Replicas cannot share it unless they share a disk.
 */
import { createHash, randomUUID } from "node:crypto";
import { createReadStream, createWriteStream } from "node:fs";
import { readdir, rename, rm, stat, utimes } from "node:fs/promises";
import path from "node:path";
import type { Readable } from "node:stream";
import { emptyFile, tooLarge, unsupportedMedia, type BlobStore } from "./blob-store.js";
import { sniffBytes, sniffMediaType } from "./media-type.js";
import { fileMode, ownerOnlyFolder, tightenTree } from "./owner-only.js";

export interface DiskBlobStore extends BlobStore {
  readonly root: string;
  /** Where the blob of this hash is (or would be). */
  pathOf(sha256: string): string;
}

export async function createDiskBlobStore(root: string, maxBytes: number): Promise<DiskBlobStore> {
  const absolute = path.resolve(root);
  await ownerOnlyFolder(path.join(absolute, "tmp"));
  await ownerOnlyFolder(path.join(absolute, "sha256"));
  await tightenTree(absolute);
  const pathOf = (sha256: string) => path.join(absolute, "sha256", sha256.slice(0, 2), sha256);

  return {
    root: absolute,
    maxBytes,
    pathOf,
    async put(source, field) {
      const temp = path.join(absolute, "tmp", randomUUID());
      try {
        const written = await writeMeasured(source, temp, maxBytes, field);
        const mime = sniffMediaType(written.head);
        if (written.bytes === 0) throw emptyFile(field);
        if (!mime) throw unsupportedMedia(field);
        const target = pathOf(written.sha256);
        await ownerOnlyFolder(path.dirname(target));
        if (await exists(target)) {
          // Already stored: refresh its age so that a concurrent sweep leaves it to the row about to refer to it.
          const now = new Date();
          await utimes(target, now, now);
        } else {
          await rename(temp, target);
        }
        return { sha256: written.sha256, bytes: written.bytes, mime };
      } finally {
        await rm(temp, { force: true });
      }
    },
    open: (sha256) => createReadStream(pathOf(sha256)),
    async size(sha256) {
      return stat(pathOf(sha256)).then(
        (info) => info.size,
        () => null,
      );
    },
    async sweep(referenced, graceMs) {
      const shards = await readdir(path.join(absolute, "sha256")).catch(() => [] as string[]);
      let removed = 0;
      for (const shard of shards) {
        const names = await readdir(path.join(absolute, "sha256", shard)).catch(() => [] as string[]);
        if (names.length === 0) continue;
        const keep = await referenced(names);
        for (const name of names.filter((candidate) => !keep.has(candidate))) {
          const file = path.join(absolute, "sha256", shard, name);
          const info = await stat(file).catch(() => null);
          if (info && Date.now() - info.mtimeMs > graceMs) {
            await rm(file, { force: true });
            removed++;
          }
        }
      }
      return removed;
    },
    close: async () => {},
  };
}

interface Written {
  sha256: string;
  bytes: number;
  head: Uint8Array;
}

/** Streams into `file`, hashing and counting; refuses with payload_too_large as soon as `maxBytes` is passed. */
function writeMeasured(source: Readable, file: string, maxBytes: number, field: string): Promise<Written> {
  return new Promise((resolve, reject) => {
    const hash = createHash("sha256");
    const out = createWriteStream(file, { mode: fileMode });
    let bytes = 0;
    let head = Buffer.alloc(0);
    let failed = false;
    const fail = (error: unknown) => {
      if (failed) return;
      failed = true;
      source.unpipe(out);
      source.resume();
      out.destroy();
      reject(error);
    };
    source.on("data", (chunk: Buffer) => {
      bytes += chunk.length;
      if (bytes > maxBytes) {
        fail(tooLarge(field, maxBytes));
        return;
      }
      hash.update(chunk);
      if (head.length < sniffBytes) head = Buffer.concat([head, chunk.subarray(0, sniffBytes - head.length)]);
    });
    source.on("error", fail);
    out.on("error", fail);
    out.on("finish", () => {
      if (!failed) resolve({ sha256: hash.digest("hex"), bytes, head });
    });
    source.pipe(out);
  });
}

async function exists(file: string): Promise<boolean> {
  return stat(file).then(
    () => true,
    () => false,
  );
}
