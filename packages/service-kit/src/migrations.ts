/**
 * Applies a service's committed Prisma migrations at start, without the Prisma CLI (which takes
 * seconds per call): the same `_prisma_migrations` bookkeeping and checksums, so `prisma migrate
 * status` agrees afterwards. Each migration and its bookkeeping row commit together; an advisory lock
 * keeps two replicas starting at once from applying the same migration twice.
 */
import { createHash, randomUUID } from "node:crypto";
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import pg from "pg";
import type { Logger } from "./logger.js";

export interface MigrationTarget {
  connectionString: string;
  schema: string;
  migrationsDir: string;
  log?: Logger;
  /** The level of each "migration applied" line (info by default; the embedded start says one summary instead). */
  appliedLevel?: "info" | "debug";
}

const bookkeeping = `CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
  "id" VARCHAR(36) PRIMARY KEY NOT NULL,
  "checksum" VARCHAR(64) NOT NULL,
  "finished_at" TIMESTAMPTZ,
  "migration_name" VARCHAR(255) NOT NULL,
  "logs" TEXT,
  "rolled_back_at" TIMESTAMPTZ,
  "started_at" TIMESTAMPTZ NOT NULL DEFAULT now(),
  "applied_steps_count" INTEGER NOT NULL DEFAULT 0
)`;

/** Returns the names of the migrations it applied (empty when the schema was up to date). */
export async function applyMigrations(target: MigrationTarget): Promise<string[]> {
  const migrations = await readMigrations(target.migrationsDir);
  const client = new pg.Client({ connectionString: target.connectionString });
  await client.connect();
  try {
    const schema = quoteIdent(target.schema);
    // One lock for every component, not one per schema: migrations also create database-wide objects
    // (extensions), and two components creating the same extension at once collide in pg_extension.
    await client.query(`SELECT pg_advisory_lock(hashtext('bancada-migrate'))`);
    await client.query(`CREATE SCHEMA IF NOT EXISTS ${schema}`);
    await client.query(`SET search_path TO ${schema}, public`);
    await client.query(bookkeeping);
    const { rows } = await client.query<{ migration_name: string; checksum: string; finished_at: Date | null }>(
      `SELECT migration_name, checksum, finished_at FROM "_prisma_migrations" WHERE rolled_back_at IS NULL`,
    );
    const done = new Map(rows.map((row) => [row.migration_name, row]));
    const applied: string[] = [];
    for (const migration of migrations) {
      const previous = done.get(migration.name);
      if (previous?.finished_at) {
        if (previous.checksum !== migration.checksum) {
          target.log?.warn({ migration: migration.name, schema: target.schema }, "an applied migration was edited after it was applied");
        }
        continue;
      }
      if (previous) {
        throw new Error(
          `Migration ${migration.name} in schema ${target.schema} started earlier and did not finish. ` +
            `Inspect the database, then mark it with 'prisma migrate resolve'.`,
        );
      }
      await applyOne(client, migration);
      target.log?.[target.appliedLevel ?? "info"]({ migration: migration.name, schema: target.schema }, "migration applied");
      applied.push(migration.name);
    }
    return applied;
  } finally {
    await client.query(`SELECT pg_advisory_unlock(hashtext('bancada-migrate'))`).catch(() => {});
    await client.end();
  }
}

interface Migration {
  name: string;
  sql: string;
  checksum: string;
}

async function readMigrations(dir: string): Promise<Migration[]> {
  const entries = await readdir(dir, { withFileTypes: true });
  const names = entries
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort();
  return Promise.all(
    names.map(async (name) => {
      const sql = await readFile(path.join(dir, name, "migration.sql"), "utf8");
      return { name, sql, checksum: createHash("sha256").update(sql).digest("hex") };
    }),
  );
}

async function applyOne(client: pg.Client, migration: Migration): Promise<void> {
  await client.query("BEGIN");
  try {
    const id = randomUUID();
    await client.query(`INSERT INTO "_prisma_migrations" (id, checksum, migration_name) VALUES ($1, $2, $3)`, [
      id,
      migration.checksum,
      migration.name,
    ]);
    await client.query(migration.sql);
    await client.query(`UPDATE "_prisma_migrations" SET finished_at = now(), applied_steps_count = 1 WHERE id = $1`, [id]);
    await client.query("COMMIT");
  } catch (error) {
    await client.query("ROLLBACK");
    throw new Error(`Migration ${migration.name} failed: ${(error as Error).message}`, { cause: error });
  }
}

export function quoteIdent(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}
