/**
 * Asset bytes in PostgreSQL, which every replica shares: a blob is a row of `blobs` (hash, size) and its
 * bytes are rows of `blob_chunks`, 256 KiB each. An upload is streamed in: hashed and measured as it
 * arrives, each full chunk written as soon as it is full, and the blob's row and all its chunks commit in
 * one transaction, so a blob is visible whole or not at all (a crash mid-upload leaves nothing). A download
 * reads one chunk per query, when the consumer wants the next one: never a whole asset in memory, and no
 * connection held between two chunks. The store keeps two small pools of its own, apart from Prisma's: one for
 * uploads, which hold a connection while their bytes arrive, and one for the rest, so that slow uploads can never
 * keep a download waiting.
 */
import { createHash, randomUUID } from "node:crypto";
import { Readable } from "node:stream";
import pg from "pg";
import { emptyFile, missingBlob, tooLarge, unsupportedMedia, type BlobStore, type StoredBlob } from "./blob-store.js";
import { sniffBytes, sniffMediaType } from "./media-type.js";

export const chunkBytes = 256 * 1024;

export interface PgBlobStoreOptions {
  connectionString: string;
  /** The Postgres schema of the drafts tables. */
  schema: string;
  maxBytes: number;
  /** Connections of each of the store's two pools, uploads' and reads' (default 6). */
  poolMax?: number;
}

export function createPgBlobStore(options: PgBlobStoreOptions): BlobStore {
  const connect = () => {
    const pool = new pg.Pool({
      connectionString: options.connectionString,
      max: options.poolMax ?? 6,
      options: `-c search_path=${options.schema},public`,
    });
    // An idle connection that fails (the server restarted) must not crash the process; the next query reconnects.
    pool.on("error", () => {});
    return pool;
  };
  const uploads = connect();
  const pool = connect();
  const { maxBytes } = options;

  return {
    maxBytes,
    put: (source, field) => putBlob(uploads, source, field, maxBytes),
    open: (sha256) => openBlob(pool, sha256),
    async size(sha256) {
      const { rows } = await pool.query<{ bytes: number }>("SELECT bytes FROM blobs WHERE sha256 = $1", [sha256]);
      return rows[0]?.bytes ?? null;
    },
    async sweep(referenced, graceMs) {
      let removed = 0;
      let after = "";
      for (;;) {
        const { rows } = await pool.query<{ sha256: string }>(
          `SELECT sha256 FROM blobs WHERE sha256 > $1 AND stored_at < now() - $2::int * interval '1 millisecond'
            ORDER BY sha256 LIMIT 500`,
          [after, graceMs],
        );
        if (!rows.length) return removed;
        after = rows.at(-1)!.sha256;
        const keep = await referenced(rows.map((row) => row.sha256));
        const orphans = rows.map((row) => row.sha256).filter((sha256) => !keep.has(sha256));
        if (orphans.length) removed += await removeBlobs(pool, orphans, graceMs);
      }
    },
    close: async () => {
      await Promise.all([uploads.end(), pool.end()]);
    },
  };
}

/**
 * Deletes the blobs and their chunks in one statement. `stored_at` is checked again under the row lock: an
 * upload of the same bytes that refreshed it in the meantime keeps the blob.
 */
async function removeBlobs(pool: pg.Pool, hashes: string[], graceMs: number): Promise<number> {
  const { rows } = await pool.query<{ removed: number }>(
    `WITH gone AS (
       DELETE FROM blobs WHERE sha256 = ANY($1::text[]) AND stored_at < now() - $2::int * interval '1 millisecond' RETURNING id
     ), chunks AS (
       DELETE FROM blob_chunks WHERE blob_id IN (SELECT id FROM gone)
     )
     SELECT count(*)::int AS removed FROM gone`,
    [hashes, graceMs],
  );
  return rows[0]?.removed ?? 0;
}

/**
 * The upload's transaction: chunks under a fresh id while the bytes arrive, then the blob's row. When the
 * same bytes are already stored, their row is refreshed instead and this upload's chunks are dropped, in the
 * same transaction; two uploads of the same bytes at once meet on the hash's unique index.
 */
async function putBlob(pool: pg.Pool, source: Readable, field: string, maxBytes: number): Promise<StoredBlob> {
  const id = randomUUID();
  let client: pg.PoolClient | undefined;
  const write = async (data: Buffer, ordinal: number) => {
    if (!client) {
      client = await pool.connect();
      await client.query("BEGIN");
    }
    await client.query("INSERT INTO blob_chunks (blob_id, ordinal, data) VALUES ($1, $2, $3)", [id, ordinal, data]);
  };
  try {
    const read = await readInChunks(source, { field, maxBytes, write });
    if (read.bytes === 0) throw emptyFile(field);
    const mime = sniffMediaType(read.head);
    if (!mime) throw unsupportedMedia(field);
    const { rows } = await client!.query<{ id: string }>(
      `INSERT INTO blobs (id, sha256, bytes, chunk_count, stored_at) VALUES ($1, $2, $3, $4, now())
       ON CONFLICT (sha256) DO UPDATE SET stored_at = now()
       RETURNING id::text`,
      [id, read.sha256, read.bytes, read.chunks],
    );
    if (rows[0]!.id !== id) await client!.query("DELETE FROM blob_chunks WHERE blob_id = $1", [id]);
    await client!.query("COMMIT");
    return { sha256: read.sha256, bytes: read.bytes, mime };
  } catch (error) {
    // a connection whose ROLLBACK failed is closed rather than given back to the pool
    const broken = client
      ? await client.query("ROLLBACK").then(
          () => undefined,
          (rollback: Error) => rollback,
        )
      : undefined;
    client?.release(broken);
    client = undefined;
    throw error;
  } finally {
    client?.release();
  }
}

interface ChunkedRead {
  sha256: string;
  bytes: number;
  chunks: number;
  head: Buffer;
}

interface ChunkSink {
  field: string;
  maxBytes: number;
  /** Writes one chunk; the source is paused until it resolves. */
  write: (data: Buffer, ordinal: number) => Promise<void>;
}

/**
 * Reads `source` in chunks of `chunkBytes`, hashing and counting. Refuses with payload_too_large as soon as
 * `maxBytes` is passed, and with invalid_argument as soon as the first chunk is not a supported media type.
 * On a refusal the rest of the source is drained, not destroyed, so that an HTTP client still reads the answer.
 */
function readInChunks(source: Readable, sink: ChunkSink): Promise<ChunkedRead> {
  return new Promise((resolve, reject) => {
    const hash = createHash("sha256");
    let pending: Buffer[] = [];
    let pendingBytes = 0;
    let bytes = 0;
    let chunks = 0;
    let head = Buffer.alloc(0);
    let writing = Promise.resolve();
    let failed = false;
    let ended = false;

    // A refusal waits for the write in flight (if any) to settle: the caller's rollback must come after it.
    const fail = (error: unknown) => {
      if (failed) return;
      failed = true;
      source.off("data", onData);
      source.resume();
      void writing.catch(() => {}).then(() => reject(error));
    };
    /** Writes every full chunk, and with `last` what remains. */
    const flush = async (last: boolean) => {
      while (!failed && (pendingBytes >= chunkBytes || (last && pendingBytes > 0))) {
        const joined = Buffer.concat(pending, pendingBytes);
        const data = joined.subarray(0, chunkBytes);
        const rest = joined.subarray(data.length);
        pending = rest.length ? [rest] : [];
        pendingBytes = rest.length;
        if (chunks === 0 && head.length >= sniffBytes && !sniffMediaType(head)) throw unsupportedMedia(sink.field);
        await sink.write(data, chunks++);
      }
    };
    const onData = (piece: Buffer) => {
      bytes += piece.length;
      if (bytes > sink.maxBytes) return fail(tooLarge(sink.field, sink.maxBytes));
      hash.update(piece);
      if (head.length < sniffBytes) head = Buffer.concat([head, piece.subarray(0, sniffBytes - head.length)]);
      pending.push(piece);
      pendingBytes += piece.length;
      if (pendingBytes < chunkBytes) return;
      source.pause();
      writing = writing.then(() => flush(false));
      writing.then(() => failed || source.resume(), fail);
    };
    source.on("data", onData);
    source.once("error", fail);
    // a client that goes away mid-upload: 'close' without 'end' (or an 'error' first)
    source.once("close", () => ended || fail(new Error("the upload was interrupted before its end")));
    source.once("end", () => {
      ended = true;
      if (failed) return;
      writing = writing.then(() => flush(true));
      writing.then(() => failed || resolve({ sha256: hash.digest("hex"), bytes, chunks, head }), fail);
    });
  });
}

/** A stream of the blob's chunks, each fetched when the consumer asks for more. */
function openBlob(pool: pg.Pool, sha256: string): Readable {
  let blob: { id: string; chunkCount: number } | undefined;
  let next = 0;
  return new Readable({
    // the next chunk is fetched while the consumer sends the one before: two chunks in memory at most
    highWaterMark: 2 * chunkBytes,
    read() {
      fetchNext().then(
        (data) => this.push(data),
        (error: unknown) => this.destroy(error as Error),
      );
    },
  });

  async function fetchNext(): Promise<Buffer | null> {
    if (!blob) {
      const { rows } = await pool.query<{ id: string; chunk_count: number }>("SELECT id::text, chunk_count FROM blobs WHERE sha256 = $1", [
        sha256,
      ]);
      if (!rows[0]) throw missingBlob(sha256);
      blob = { id: rows[0].id, chunkCount: rows[0].chunk_count };
    }
    if (next >= blob.chunkCount) return null;
    const { rows } = await pool.query<{ data: Buffer }>("SELECT data FROM blob_chunks WHERE blob_id = $1 AND ordinal = $2", [
      blob.id,
      next,
    ]);
    if (!rows[0]) throw missingBlob(sha256);
    next++;
    return rows[0].data;
  }
}
