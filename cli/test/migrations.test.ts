/**
 * Every component's committed migrations apply to an empty database, each in its own Postgres schema,
 * a second run applies nothing, and Prisma's own CLI (through our schema-engine stand-in) agrees:
 * `migrate status` is up to date and `migrate diff` finds no drift between schema.prisma and the migrations.
 */
import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { applyMigrations } from "@bancada/service-kit";
import { freshDatabase, type TestDatabase } from "@bancada/testkit";
import { migrationSets } from "../src/services.js";

const run = promisify(execFile);

describe("migrations", () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await freshDatabase("bancada_migrations");
  });
  afterAll(async () => database?.drop());

  it("when every component migrates an empty database, then each gets its tables and bookkeeping in its own schema, and a second run applies nothing", async () => {
    for (const set of migrationSets) {
      const applied = await applyMigrations({ connectionString: database.url, schema: set.schema, migrationsDir: set.dir });
      expect(applied.length).toBeGreaterThan(0);
    }
    for (const set of migrationSets) {
      expect(await applyMigrations({ connectionString: database.url, schema: set.schema, migrationsDir: set.dir })).toEqual([]);
    }
    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    const { rows } = await client.query<{ table_schema: string; table_name: string }>(
      `SELECT table_schema, table_name FROM information_schema.tables WHERE table_schema = ANY($1) ORDER BY 1, 2`,
      [migrationSets.map((set) => set.schema)],
    );
    await client.end();
    const bySchema = (schema: string) => rows.filter((row) => row.table_schema === schema).map((row) => row.table_name);
    expect(bySchema("scripts")).toEqual(["_prisma_migrations", "changes", "create_requests", "feed_heads", "scripts"]);
    expect(bySchema("gateway")).toEqual([
      "_prisma_migrations",
      "api_keys",
      "mcp_resource_subscriptions",
      "mcp_tasks",
      "oauth_grants",
      "oauth_records",
      "tool_calls",
    ]);
  });

  const prismaEnv = (set: (typeof migrationSets)[number]) => ({
    ...process.env,
    DATABASE_URL: database.url,
    [`${set.component.toUpperCase()}_DATABASE_URL`]: database.url,
  });
  const cwdOf = (set: (typeof migrationSets)[number]) => path.dirname(path.dirname(set.dir));

  it.each(migrationSets.map((set) => [set.component, set]))(
    "when Prisma's CLI looks at the %s schema, then migrate status is up to date",
    async (_name, set) => {
      const cwd = cwdOf(set);
      const status = await run(path.join(cwd, "node_modules/.bin/prisma"), ["migrate", "status"], {
        cwd,
        env: prismaEnv(set),
        timeout: 120_000,
      });
      expect(status.stdout).toMatch(/Database schema is up to date/);
    },
  );

  it.each(migrationSets.map((set) => [set.component, set]))(
    "when Prisma's CLI diffs the %s schema against schema.prisma, then it finds no drift",
    async (_name, set) => {
      const cwd = cwdOf(set);
      // `--script` prints the drift as SQL (shown when this fails); `--exit-code` exits 2 when there is one.
      const diff: { code?: number; stdout: string; stderr: string } = await run(
        path.join(cwd, "node_modules/.bin/prisma"),
        ["migrate", "diff", "--from-config-datasource", "--to-schema", "prisma/schema.prisma", "--script", "--exit-code"],
        { cwd, env: prismaEnv(set), timeout: 120_000 },
      ).catch((error: { code: number; stdout: string; stderr: string }) => error);
      expect({ code: diff.code ?? 0, drift: diff.stdout.trim() }, diff.stderr).toEqual({
        code: 0,
        drift: "-- This is an empty migration.",
      });
    },
  );
});
