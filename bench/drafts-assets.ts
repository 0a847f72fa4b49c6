/**
 * Asset bytes in PostgreSQL (the drafts service's store: 256 KiB `bytea` chunks, one transaction per upload, one
 * query per chunk on download) beside the disk store earlier versions used (a file per blob, the baseline), in the
 * same run: each iteration uploads a file of fresh bytes (no deduplication) from a stream of 64 KiB pieces, as an
 * HTTP body arrives, then downloads it whole and checks its hash. The stores take turns in rotating order. Sizes
 * beyond the service's 10 MiB asset limit are measured with the store's limit raised for the run. Any error, or a
 * download that differs from its upload, stops the run with a non-zero exit.
 * Env: DATABASE_URL (local server), SIZES_MIB (1,20), ITERATIONS (40 for ≤ 2 MiB, else 8, per store per round),
 * ROUNDS (2), IN_FLIGHT (1: one upload+download at a time; more runs that many at once).
 */
import "./lib/env.js";
import { createHash } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import { applyMigrations } from "@bancada/service-kit";
import { freshDatabase } from "@bancada/testkit";
import { createDiskBlobStore, createPgBlobStore, migrationsDir, postgresSchema, type BlobStore } from "@bancada/drafts";
import { ms, progress, run, summarize, table, type Run } from "./lib/stats.js";

const MiB = 1024 * 1024;
const SIZES = (process.env.SIZES_MIB ?? "1,20").split(",").map((size) => Number(size) * MiB);
const ROUNDS = Number(process.env.ROUNDS ?? 2);
const IN_FLIGHT = Number(process.env.IN_FLIGHT ?? 1);
const iterationsFor = (bytes: number) => Number(process.env.ITERATIONS ?? (bytes <= 2 * MiB ? 40 : 8));
const piece = 64 * 1024;

/** `bytes` of MP4 whose content depends on `seed`, streamed in 64 KiB pieces, built piece by piece. */
function mediaStream(bytes: number, seed: number): Readable {
  return Readable.from(
    (function* () {
      for (let at = 0; at < bytes; at += piece) {
        const part = Buffer.alloc(Math.min(piece, bytes - at));
        for (let i = 0; i + 4 <= part.length; i += 4) part.writeUInt32LE((seed * 2_654_435_761 + at + i) >>> 0, i);
        if (at === 0) part.set([0, 0, 0, 0x18, ...Buffer.from("ftypisom")]);
        yield part;
      }
    })(),
  );
}

async function sha256Of(stream: Readable): Promise<{ sha256: string; bytes: number }> {
  const hash = createHash("sha256");
  let bytes = 0;
  for await (const part of stream) {
    hash.update(part as Buffer);
    bytes += (part as Buffer).length;
  }
  return { sha256: hash.digest("hex"), bytes };
}

interface Sample {
  upload: Run[];
  download: Run[];
}

const database = await freshDatabase("bancada_bench_assets");
const folder = mkdtempSync(path.join(os.tmpdir(), "bancada-bench-assets-"));
let stores: Record<string, BlobStore> = {};
try {
  await applyMigrations({ connectionString: database.url, schema: postgresSchema, migrationsDir });
  const maxBytes = Math.max(...SIZES);
  stores = {
    "disk (baseline)": await createDiskBlobStore(folder, maxBytes),
    PostgreSQL: createPgBlobStore({ connectionString: database.url, schema: postgresSchema, maxBytes }),
  };
  const names = Object.keys(stores);
  const results = new Map<string, Sample>();
  let seed = 0;
  for (const bytes of SIZES) {
    const iterations = iterationsFor(bytes);
    for (let round = 0; round < ROUNDS; round++) {
      for (const offset of names.keys()) {
        const name = names[(round + offset) % names.length]!;
        const store = stores[name]!;
        progress(`${bytes / MiB} MiB, ${name}, round ${round + 1}/${ROUNDS}: ${iterations} uploads + downloads`);
        const hashes: string[] = [];
        const upload = await run(iterations, IN_FLIGHT, async (i) => {
          const stored = await store.put(mediaStream(bytes, ++seed), "file");
          if (stored.bytes !== bytes) throw new Error(`${name}: stored ${stored.bytes} bytes of ${bytes}`);
          hashes[i] = stored.sha256;
        });
        const download = await run(iterations, IN_FLIGHT, async (i) => {
          const read = await sha256Of(store.open(hashes[i]!));
          if (read.bytes !== bytes || read.sha256 !== hashes[i]) throw new Error(`${name}: a download differs from its upload`);
        });
        const key = `${bytes / MiB} MiB|${name}`;
        const sample = results.get(key) ?? { upload: [], download: [] };
        sample.upload.push(upload);
        sample.download.push(download);
        results.set(key, sample);
      }
    }
  }

  const rows: string[][] = [];
  for (const [key, sample] of results) {
    const [size, name] = key.split("|") as [string, string];
    const mb = Number.parseFloat(size) * (MiB / 1e6);
    for (const [what, runs] of [
      ["upload", sample.upload],
      ["download", sample.download],
    ] as const) {
      const summary = summarize(runs);
      rows.push([size, name, what, String(summary.calls), ms(summary.p50), ms(summary.p99), (summary.perSecond * mb).toFixed(0)]);
    }
  }
  process.stdout.write(
    `\n### Asset bytes: PostgreSQL vs disk (${IN_FLIGHT} in flight, ${ROUNDS} rounds)\n\n` +
      `${table(["size", "store", "operation", "calls", "p50 ms", "p99 ms", "MB/s"], rows, 3)}\n`,
  );
} catch (error) {
  process.stderr.write(`[bench] failed: ${(error as Error).stack ?? String(error)}\n`);
  process.exitCode = 1;
} finally {
  await Promise.all(Object.values(stores).map((store) => store.close()));
  rmSync(folder, { recursive: true, force: true });
  await database.drop();
}
