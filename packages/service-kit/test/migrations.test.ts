/** Start-up migrations: an older database gets only what it lacks, a failure leaves nothing half-done, two starters apply once. */
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freshDatabase, type TestDatabase } from "@bancada/testkit";
import { applyMigrations } from "../src/index.js";

describe("applyMigrations", () => {
  let database: TestDatabase;
  let dir: string;
  const addMigration = async (name: string, sql: string) => {
    await mkdir(path.join(dir, name), { recursive: true });
    await writeFile(path.join(dir, name, "migration.sql"), sql);
  };
  const query = async (sql: string) => {
    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    try {
      return (await client.query(sql)).rows as Record<string, unknown>[];
    } finally {
      await client.end();
    }
  };
  const apply = (schema = "svc") => applyMigrations({ connectionString: database.url, schema, migrationsDir: dir });

  beforeAll(async () => {
    database = await freshDatabase("bancada_kit_migrations");
    dir = await mkdtemp(path.join(tmpdir(), "migrations-"));
  });
  afterAll(async () => {
    await database?.drop();
    await rm(dir, { recursive: true, force: true });
  });

  it("when a database made by an older version starts with a newer one, then only the new migration applies and the data stays", async () => {
    await addMigration("20260101000000_init", `CREATE TABLE "notes" ("id" INTEGER PRIMARY KEY, "body" TEXT NOT NULL);`);
    expect(await apply()).toEqual(["20260101000000_init"]);
    await query(`INSERT INTO svc.notes VALUES (1, 'kept')`);
    await addMigration("20260201000000_add_title", `ALTER TABLE "notes" ADD COLUMN "title" TEXT NOT NULL DEFAULT 'untitled';`);
    expect(await apply()).toEqual(["20260201000000_add_title"]);
    expect(await query(`SELECT id, body, title FROM svc.notes`)).toEqual([{ id: 1, body: "kept", title: "untitled" }]);
    expect(await apply()).toEqual([]);
  });

  it("when a migration fails, then nothing of it stays and the error names it", async () => {
    await addMigration("20260301000000_broken", `ALTER TABLE "notes" ADD COLUMN "half" TEXT; SELECT * FROM "no_such_table";`);
    await expect(apply()).rejects.toThrow(/Migration 20260301000000_broken failed: .*no_such_table/);
    const columns = await query(`SELECT column_name FROM information_schema.columns WHERE table_schema = 'svc' AND table_name = 'notes'`);
    expect(columns.map((c) => c.column_name)).not.toContain("half");
    expect(await query(`SELECT migration_name FROM svc._prisma_migrations WHERE migration_name LIKE '%broken'`)).toEqual([]);
    await rm(path.join(dir, "20260301000000_broken"), { recursive: true });
  });

  it("when two replicas start at once on an empty schema, then each migration is applied exactly once", async () => {
    const results = await Promise.all([apply("twin"), apply("twin"), apply("twin")]);
    expect(results.flat().sort()).toEqual(["20260101000000_init", "20260201000000_add_title"]);
    expect(await query(`SELECT count(*)::int AS n FROM twin._prisma_migrations`)).toEqual([{ n: 2 }]);
  });

  it("when two components that create the same extension start at once, then both apply (one lock for every schema)", async () => {
    const shared = await mkdtemp(path.join(tmpdir(), "migrations-extension-"));
    try {
      // The sleep keeps the first creator's pg_extension row uncommitted while the second one tries: with a lock
      // per schema the second waits for it and then fails on pg_extension's unique index.
      await mkdir(path.join(shared, "20260301000000_extension"), { recursive: true });
      await writeFile(
        path.join(shared, "20260301000000_extension", "migration.sql"),
        `CREATE EXTENSION IF NOT EXISTS btree_gin WITH SCHEMA public; SELECT pg_sleep(0.3);`,
      );
      const applyShared = (schema: string) => applyMigrations({ connectionString: database.url, schema, migrationsDir: shared });
      const results = await Promise.all([applyShared("first_component"), applyShared("second_component")]);
      expect(results).toEqual([["20260301000000_extension"], ["20260301000000_extension"]]);
    } finally {
      await rm(shared, { recursive: true, force: true });
    }
  });
});
