/**
 * Asset bytes, content-addressed on disk: `<root>/sha256/<ab>/<sha256>`. A blob is streamed to a
 * temporary file while it is hashed and measured, then renamed into place (atomic), so a crash never
 * leaves a half-written blob under its address. Equal files are stored once. Blobs no asset refers to
 * any more are swept after a grace period (an upload writes its blob before its row commits).
 * Everything under the root is readable by the service's user only (see owner-only.ts).
 */
import { createHash, randomUUID } from "node:crypto";
import { createReadStream, createWriteStream } from "node:fs";
import { readdir, rename, rm, stat, utimes } from "node:fs/promises";
import path from "node:path";
import type { Readable } from "node:stream";
import { DomainError, ErrorCode, invalidArgument } from "@bancada/contracts";
import { sniffBytes, sniffMediaType, supportedMedia, type MediaType } from "./media-type.js";
import { fileMode, ownerOnlyFolder, tightenTree } from "./owner-only.js";

export interface StoredBlob {
  sha256: string;
  bytes: number;
  mime: MediaType;
}

export interface BlobStore {
  readonly root: string;
  readonly maxBytes: number;
  /** Stores a stream's bytes; `field` names the argument in errors (too large, empty, unsupported). */
  put(source: Readable, field: string): Promise<StoredBlob>;
  open(sha256: string): Readable;
  size(sha256: string): Promise<number | null>;
  /** Removes blobs older than `graceMs` whose hash `referenced` does not return. */
  sweep(referenced: (hashes: string[]) => Promise<Set<string>>, graceMs: number): Promise<number>;
}

export async function createBlobStore(root: string, maxBytes: number): Promise<BlobStore> {
  const absolute = path.resolve(root);
  await ownerOnlyFolder(path.join(absolute, "tmp"));
  await ownerOnlyFolder(path.join(absolute, "sha256"));
  await tightenTree(absolute);
  const pathOf = (sha256: string) => path.join(absolute, "sha256", sha256.slice(0, 2), sha256);

  return {
    root: absolute,
    maxBytes,
    async put(source, field) {
      const temp = path.join(absolute, "tmp", randomUUID());
      try {
        const written = await writeMeasured(source, temp, maxBytes, field);
        const mime = sniffMediaType(written.head);
        if (written.bytes === 0) throw invalidArgument([{ path: field, message: "the file is empty" }]);
        if (!mime) {
          throw invalidArgument([
            { path: field, message: `not a supported image or video (${supportedMedia.join(", ")}), judging by its content` },
          ]);
        }
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
        fail(
          new DomainError(ErrorCode.payloadTooLarge, `Too large: ${field}: an asset may hold at most ${maxBytes} bytes.`, {
            issues: [{ path: field, message: `must be at most ${maxBytes} bytes` }],
            limitBytes: maxBytes,
          }),
        );
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
