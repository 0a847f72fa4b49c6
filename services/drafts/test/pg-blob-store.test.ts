/**
 * The PostgreSQL blob store on its own (a real database): a blob is visible whole or not at all — an upload that
 * breaks off, is too large or is not media leaves no chunk behind and gives its connection back; equal bytes
 * uploaded at once are stored once; a download is the bytes uploaded, chunk by chunk; the sweep removes a blob's
 * chunks with it.
 */
import { createHash } from "node:crypto";
import { PassThrough, Readable } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { applyMigrations } from "@bancada/service-kit";
import { freshDatabase, type TestDatabase } from "@bancada/testkit";
import {
  chunkBytes,
  createDraftsDb,
  createPgBlobStore,
  migrationsDir,
  postgresSchema,
  type BlobStore,
  type DraftsDb,
} from "../src/index.js";
import { mp4, png } from "./helpers.js";
import { streamBytes } from "./stack.js";

const sha256 = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");
/** The bytes in pieces of 64 KiB, as an HTTP body arrives. */
const pieces = (bytes: Uint8Array) =>
  Readable.from(
    Array.from({ length: Math.ceil(bytes.length / 65_536) }, (_, i) => Buffer.from(bytes.subarray(i * 65_536, (i + 1) * 65_536))),
  );

describe("the PostgreSQL blob store", () => {
  let database: TestDatabase;
  let db: DraftsDb;
  let store: BlobStore;
  const maxBytes = 2 * 1024 * 1024;

  beforeAll(async () => {
    database = await freshDatabase("bancada_blobs");
    await applyMigrations({ connectionString: database.url, schema: postgresSchema, migrationsDir });
    db = createDraftsDb(database.url, 2);
    // two connections: an upload that leaked its connection would soon leave none
    store = createPgBlobStore({ connectionString: database.url, schema: postgresSchema, maxBytes, poolMax: 2 });
  });
  afterAll(async () => {
    await store?.close();
    await db?.$disconnect();
    await database?.drop();
  });

  const counts = async () => {
    const [row] = await db.$queryRaw<{ blobs: number; chunks: number }[]>`
      SELECT (SELECT count(*)::int FROM blobs) AS blobs, (SELECT count(*)::int FROM blob_chunks) AS chunks`;
    return row!;
  };

  it("when a multi-chunk file is stored, then it is read back byte for byte, in chunks of 256 KiB", async () => {
    const video = mp4(3 * chunkBytes + 1_234);
    const before = await counts();
    const stored = await store.put(pieces(video), "file");
    expect(stored).toEqual({ sha256: sha256(video), bytes: video.length, mime: "video/mp4" });
    expect(await counts()).toEqual({ blobs: before.blobs + 1, chunks: before.chunks + 4 });
    expect(await store.size(stored.sha256)).toBe(video.length);
    const parts: number[] = [];
    for await (const part of store.open(stored.sha256)) parts.push((part as Buffer).length);
    expect(parts).toEqual([chunkBytes, chunkBytes, chunkBytes, 1_234]);
    expect(sha256(await streamBytes(store.open(stored.sha256)))).toBe(sha256(video));
  });

  it("when uploads break off, are too large or are not media, then nothing of them is stored and their connections come back", async () => {
    const before = await counts();
    for (let i = 0; i < 5; i++) {
      const body = new PassThrough();
      const put = store.put(body, "body");
      body.write(Buffer.from(png(chunkBytes + 10)));
      body.write(Buffer.from(png(chunkBytes)));
      await new Promise((resolve) => setTimeout(resolve, 20));
      body.destroy(new Error("the client went away"));
      await expect(put).rejects.toThrow();
    }
    await expect(store.put(pieces(png(maxBytes + 1)), "body")).rejects.toMatchObject({ code: "payload_too_large" });
    const text = new Uint8Array(chunkBytes * 2).fill(0x41);
    await expect(store.put(pieces(text), "body")).rejects.toMatchObject({ code: "invalid_argument" });
    await expect(store.put(pieces(new Uint8Array()), "body")).rejects.toMatchObject({ code: "invalid_argument" });
    expect(await counts()).toEqual(before);
    const after = await store.put(pieces(png(5_000)), "file");
    expect(await store.size(after.sha256)).toBe(5_000);
  });

  it("when the same bytes are uploaded four times at once, then one blob holds them and no chunk is left over", async () => {
    const bytes = png(2 * chunkBytes + 99);
    const before = await counts();
    const stored = await Promise.all([1, 2, 3, 4].map(() => store.put(pieces(bytes), "file")));
    expect(new Set(stored.map((blob) => blob.sha256))).toEqual(new Set([sha256(bytes)]));
    expect(await counts()).toEqual({ blobs: before.blobs + 1, chunks: before.chunks + 3 });
  });

  it("when a blob is missing, then size is null and reading it fails with not_found", async () => {
    expect(await store.size("0".repeat(64))).toBeNull();
    await expect(streamBytes(store.open("0".repeat(64)))).rejects.toMatchObject({ code: "not_found" });
  });

  it("when nothing refers to blobs past the grace period, then the sweep removes them with their chunks, and keeps the rest", async () => {
    const kept = await store.put(pieces(png(chunkBytes + 1)), "file");
    const swept = await store.put(pieces(mp4(chunkBytes + 2)), "file");
    const young = await store.put(pieces(png(777)), "file");
    await db.$executeRaw`UPDATE blobs SET stored_at = now() - interval '2 hours' WHERE sha256 <> ${young.sha256}`;
    const removed = await store.sweep(async (hashes) => new Set(hashes.filter((hash) => hash === kept.sha256)), 3600_000);
    expect(removed).toBeGreaterThanOrEqual(1);
    expect(await store.size(swept.sha256)).toBeNull();
    expect(await store.size(kept.sha256)).toBe(chunkBytes + 1);
    expect(await store.size(young.sha256)).toBe(777);
    const [orphans] = await db.$queryRaw<{ n: number }[]>`
      SELECT count(*)::int AS n FROM blob_chunks c WHERE NOT EXISTS (SELECT 1 FROM blobs b WHERE b.id = c.blob_id)`;
    expect(orphans!.n).toBe(0);
  });
});
