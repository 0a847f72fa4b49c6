/**
 * End-to-end test of the stand-in schema engine: the real Prisma CLI (services/scripts' `prisma`), run on
 * small temporary projects against the real PostgreSQL, with PRISMA_SCHEMA_ENGINE_BINARY pointing to
 * schema-engine.mjs. Each CLI call costs 1–3 s, so the steps share one database and build on each other,
 * and independent steps run concurrently.
 *
 * Needs a PostgreSQL superuser (CREATEDB for `migrate dev`'s shadow database) at DATABASE_URL, default
 * postgres://postgres@127.0.0.1:5432/postgres. Creates prisma_engine_test_<random>[_deploy] and drops them.
 */
import { execFile } from "node:child_process";
import { randomBytes } from "node:crypto";
import { cp, mkdir, mkdtemp, readdir, readFile, realpath, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { schemaEnginePath } from "../index.mjs";

const repoRoot = fileURLToPath(new URL("../../../", import.meta.url));
const prismaBin = path.join(repoRoot, "services/scripts/node_modules/.bin/prisma");
const baseUrl = process.env.DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
const database = `prisma_engine_test_${randomBytes(4).toString("hex")}`;
const deployDatabase = `${database}_deploy`;
const unreachableUrl = "postgres://postgres@127.0.0.1:1/nowhere?schema=a";
const STEP_TIMEOUT = 120_000; // Generous: a loaded 2-core machine makes each CLI call several times slower.

// --- helpers ------------------------------------------------------------------------------------------

/** A URL of the test server, on `db`, with `?schema=` when given. */
function urlFor(db: string, schema?: string): string {
  const url = new URL(baseUrl);
  url.pathname = `/${db}`;
  url.searchParams.delete("schema");
  if (schema) url.searchParams.set("schema", schema);
  return url.toString();
}

async function query<T = Record<string, unknown>>(url: string, sql: string): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(sql)).rows as T[];
  } finally {
    await client.end();
  }
}

async function dropDatabase(db: string): Promise<void> {
  await query(urlFor("postgres"), `DROP DATABASE IF EXISTS "${db}" WITH (FORCE)`);
}

interface Run {
  code: number;
  stdout: string;
  stderr: string;
  output: string;
}

/** Runs an executable, resolving (never rejecting) with its exit code and output. */
function run(file: string, args: string[], options: { cwd?: string; env?: NodeJS.ProcessEnv } = {}): Promise<Run> {
  return new Promise((resolve) => {
    execFile(file, args, { ...options, maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) => {
      const code = error ? (typeof error.code === "number" ? error.code : 1) : 0;
      resolve({ code, stdout, stderr, output: `${stdout}\n${stderr}` });
    });
  });
}

/** Environment of a CLI call: offline-friendly, and the stand-in unless `viaConfigOnly`. */
function cliEnv({ viaConfigOnly = false } = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    CHECKPOINT_DISABLE: "1",
    PRISMA_HIDE_UPDATE_MESSAGE: "1",
    NO_COLOR: "1",
    PRISMA_SCHEMA_ENGINE_BINARY: schemaEnginePath,
  };
  if (viaConfigOnly) delete env.PRISMA_SCHEMA_ENGINE_BINARY; // prisma.config.ts sets it (`??=`).
  return env;
}

function prisma(cwd: string, args: string[], options: { viaConfigOnly?: boolean } = {}): Promise<Run> {
  return run(prismaBin, args, { cwd, env: cliEnv(options) });
}

/** Fails with the CLI's whole output, which is what one needs to see when a step breaks. */
function expectSuccess(result: Run): void {
  if (result.code !== 0) throw new Error(`prisma exited with ${result.code}:\n${result.output}`);
}

let workDir: string;
let prismaConfigModule: string;

/** Writes a temporary Prisma project: schema.prisma (models given) and a prisma.config.ts for `url`. */
async function writeProject(name: string, url: string, models: string): Promise<string> {
  const dir = path.join(workDir, name);
  await mkdir(dir, { recursive: true });
  const schema = `generator client {
  provider = "prisma-client"
  output   = "./generated"
}

datasource db {
  provider = "postgresql"
}
${models}`;
  // The same shape as a service's prisma.config.ts, with absolute imports (the project is outside the repo).
  const config = `import { defineConfig } from ${JSON.stringify(prismaConfigModule)};
import { schemaEnginePath } from ${JSON.stringify(path.join(repoRoot, "packages/prisma-engine/index.mjs"))};

process.env.PRISMA_SCHEMA_ENGINE_BINARY ??= schemaEnginePath;

export default defineConfig({
  schema: "schema.prisma",
  migrations: { path: "migrations" },
  datasource: { url: ${JSON.stringify(url)} },
});
`;
  await writeFile(path.join(dir, "schema.prisma"), schema);
  await writeFile(path.join(dir, "prisma.config.ts"), config);
  return dir;
}

const itemModel = `
model Item {
  id    Int    @id @default(autoincrement())
  title String
}
`;

/** Hand-written SQL the old adapter-pg `executeScript` (split on every `;`) could not run. */
const extrasMigration = `-- Hand-written: an extension in the shared schema; a function; a DO block; semicolons; everywhere.
CREATE EXTENSION IF NOT EXISTS pg_trgm WITH SCHEMA public;

CREATE FUNCTION title_similarity(a text, b text) RETURNS real LANGUAGE sql IMMUTABLE AS $$
  SELECT public.similarity(a, b);
$$;

DO $$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM "Item") THEN
    INSERT INTO "Item" ("title") VALUES ('seeded; by a DO block');
  END IF;
END
$$;
`;

/** A table with CHECK constraints: describing it makes the engine read pg_constraint.contype, a `"char"`. */
const gaugeModel = `
model Gauge {
  id    Int @id
  level Int
}
`;
const gaugeMigration = `CREATE TABLE "Gauge" (
  "id" INTEGER NOT NULL,
  "level" INTEGER NOT NULL CONSTRAINT "Gauge_level_range" CHECK ("level" BETWEEN 0 AND 10),
  CONSTRAINT "Gauge_pkey" PRIMARY KEY ("id")
);
ALTER TABLE "Gauge" ADD CONSTRAINT "Gauge_id_positive" CHECK ("id" > 0);
`;

/** Two tables and a foreign key, whose on-delete action a test corrupts to make the describer panic. */
const petModel = `
model Owner {
  id   Int   @id
  pets Pet[]
}

model Pet {
  id      Int   @id
  ownerId Int
  owner   Owner @relation(fields: [ownerId], references: [id])
}
`;

/** Writes `migrations/<name>/migration.sql` of a project. */
async function writeMigration(project: string, name: string, sql: string): Promise<void> {
  const dir = path.join(project, "migrations", name);
  await mkdir(dir, { recursive: true });
  await writeFile(path.join(dir, "migration.sql"), sql);
}

async function migrationCount(db: string, schema: string): Promise<number> {
  const rows = await query<{ n: number }>(
    urlFor(db),
    `SELECT count(*)::int AS n FROM "${schema}"._prisma_migrations WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL`,
  );
  return rows[0]?.n ?? 0;
}

async function columnsOf(db: string, schema: string, table: string): Promise<string[]> {
  const rows = await query<{ column_name: string }>(
    urlFor(db),
    `SELECT column_name FROM information_schema.columns WHERE table_schema = '${schema}' AND table_name = '${table}' ORDER BY ordinal_position`,
  );
  return rows.map((row) => row.column_name);
}

// --- the test -------------------------------------------------------------------------------------------

describe("schema-engine.mjs, the stand-in for Prisma's native schema engine", () => {
  let serviceA: string;

  beforeAll(async () => {
    workDir = await mkdtemp(path.join(tmpdir(), "prisma-engine-test-"));
    prismaConfigModule = path.join(await realpath(path.join(repoRoot, "services/scripts/node_modules/prisma")), "config.js");
    await query(urlFor("postgres"), `CREATE DATABASE "${database}"`);
    serviceA = await writeProject("service-a", urlFor(database, "a"), itemModel);
  }, STEP_TIMEOUT);

  afterAll(async () => {
    await dropDatabase(database);
    await dropDatabase(deployDatabase);
    if (workDir) await rm(workDir, { recursive: true, force: true });
  }, STEP_TIMEOUT);

  // Steps that only need the project run side by side, then the migration steps in order, then the
  // steps that only need service a's migrations side by side again.
  it.concurrent("answers --version and the one-shot cli commands like the native engine", { timeout: STEP_TIMEOUT }, async ({ expect }) => {
    const version = await run(schemaEnginePath, ["--version"]);
    expect(version.stdout.trim()).toMatch(/^schema-engine-cli [0-9a-f]{40}$/);

    const canConnect = (url: string) => run(schemaEnginePath, ["--datasource", JSON.stringify({ url }), "cli", "can-connect-to-database"]);
    expect((await canConnect(urlFor(database, "a"))).code).toBe(0);

    // The CLI skips the first stderr line and reads the error from the JSON lines after it.
    const errorOf = async (url: string) => {
      const result = await canConnect(url);
      expect(result.code).toBe(1);
      const lines = result.stderr
        .trim()
        .split("\n")
        .slice(1)
        .map((line) => JSON.parse(line));
      return lines.find((line) => line.level === "ERROR" && line.target === "schema_engine::logger").fields;
    };
    expect(await errorOf(unreachableUrl)).toMatchObject({ error_code: "P1001" });
    expect(await errorOf(urlFor(`${database}_missing`))).toMatchObject({
      error_code: "P1003",
      message: expect.stringContaining(`Database \`${database}_missing\` does not exist`),
    });
  });

  it.concurrent("migrate diff prints the SQL script of a schema", { timeout: STEP_TIMEOUT }, async ({ expect }) => {
    const result = await prisma(serviceA, ["migrate", "diff", "--from-empty", "--to-schema", "schema.prisma", "--script"]);
    expectSuccess(result);
    expect(result.stdout).toContain('CREATE TABLE "Item"');
  });

  it.concurrent("prisma generate works without downloading anything", { timeout: STEP_TIMEOUT }, async ({ expect }) => {
    expectSuccess(await prisma(serviceA, ["generate"]));
    expect(await readdir(path.join(serviceA, "generated"))).toContain("client.ts");
  });

  it("migrate dev creates the first migration and applies it in the service's schema", { timeout: STEP_TIMEOUT }, async () => {
    expectSuccess(await prisma(serviceA, ["migrate", "dev", "--name", "init"]));

    const init = (await readdir(path.join(serviceA, "migrations"))).find((name) => name.endsWith("_init"));
    if (!init) throw new Error("migrate dev wrote no *_init migration");
    expect(await readFile(path.join(serviceA, "migrations", init, "migration.sql"), "utf8")).toContain('CREATE TABLE "Item"');
    expect(await columnsOf(database, "a", "Item")).toEqual(["id", "title"]);
    expect(await migrationCount(database, "a")).toBe(1);
    expect(await columnsOf(database, "public", "Item")).toEqual([]); // Nothing leaked into `public`.
  });

  it("migrate dev applies a hand-written migration with a DO $$ block and an extension", { timeout: STEP_TIMEOUT }, async () => {
    const dir = path.join(serviceA, "migrations", "20991231000000_extras");
    await mkdir(dir);
    await writeFile(path.join(dir, "migration.sql"), extrasMigration);

    // Replays every migration on a shadow database, then applies the new one to the main database.
    expectSuccess(await prisma(serviceA, ["migrate", "dev"]));

    const rows = await query(urlFor(database), `SELECT title, a.title_similarity(title, 'seeded') > 0 AS similar FROM a."Item"`);
    expect(rows).toEqual([{ title: "seeded; by a DO block", similar: true }]);
    expect(await migrationCount(database, "a")).toBe(2);
  });

  it("migrate status says the database is up to date", { timeout: STEP_TIMEOUT }, async () => {
    const result = await prisma(serviceA, ["migrate", "status"]);
    expectSuccess(result);
    expect(result.stdout).toContain("Database schema is up to date!");
  });

  it.concurrent("migrate deploy creates a second database and applies the migrations", { timeout: STEP_TIMEOUT }, async ({ expect }) => {
    const deploy = await writeProject("service-a-deploy", urlFor(deployDatabase, "a"), itemModel);
    await cp(path.join(serviceA, "migrations"), path.join(deploy, "migrations"), { recursive: true });

    const result = await prisma(deploy, ["migrate", "deploy"]);
    expectSuccess(result);
    expect(result.stdout).toContain("All migrations have been successfully applied.");
    expect(await migrationCount(deployDatabase, "a")).toBe(2);
    expect(await query(urlFor(deployDatabase), `SELECT title FROM a."Item"`)).toEqual([{ title: "seeded; by a DO block" }]);
  });

  it.concurrent(
    "two services in one database each get their tables and _prisma_migrations in their own schema",
    { timeout: STEP_TIMEOUT },
    async ({ expect }) => {
      // Same table name as service a, other columns; the engine comes from prisma.config.ts alone.
      const serviceB = await writeProject(
        "service-b",
        urlFor(database, "b"),
        `
model Item {
  id    Int    @id @default(autoincrement())
  label String
}
`,
      );
      expectSuccess(await prisma(serviceB, ["migrate", "dev", "--name", "init"], { viaConfigOnly: true }));

      expect(await columnsOf(database, "b", "Item")).toEqual(["id", "label"]);
      expect(await migrationCount(database, "b")).toBe(1);
      expect(await columnsOf(database, "a", "Item")).toEqual(["id", "title"]);
      expect(await migrationCount(database, "a")).toBe(2);

      // Resetting service b leaves service a's schema and data alone.
      expectSuccess(await prisma(serviceB, ["migrate", "reset", "--force"]));
      expect(await migrationCount(database, "b")).toBe(1);
      expect(await query(urlFor(database), `SELECT title FROM a."Item"`)).toEqual([{ title: "seeded; by a DO block" }]);
    },
  );

  it.concurrent("db push syncs a schema without migrations", { timeout: STEP_TIMEOUT }, async ({ expect }) => {
    const serviceC = await writeProject(
      "service-c",
      urlFor(database, "c"),
      `
model Flag {
  id   Int    @id
  kind String @db.Char(1)
}
`,
    );
    expectSuccess(await prisma(serviceC, ["db", "push"]));
    expect(await columnsOf(database, "c", "Flag")).toEqual(["id", "kind"]);
    expect(await columnsOf(database, "c", "_prisma_migrations")).toEqual([]);
  });

  it.concurrent(
    "when the database has CHECK constraints, then migrate diff describes it and finds only the real drift",
    { timeout: STEP_TIMEOUT },
    async ({ expect }) => {
      const serviceD = await writeProject("service-d", urlFor(database, "d"), gaugeModel);
      await writeMigration(serviceD, "20990101000000_gauge", gaugeMigration);
      expectSuccess(await prisma(serviceD, ["migrate", "deploy"]));
      const diff = (schema: string) =>
        prisma(serviceD, ["migrate", "diff", "--from-config-datasource", "--to-schema", schema, "--script", "--exit-code"]);

      // In sync: exit code 0, and the CHECK constraints (which Prisma does not model) are left alone.
      const inSync = await diff("schema.prisma");
      expect(inSync.output).not.toContain("panicked");
      expect(inSync.code).toBe(0);
      expect(inSync.stdout).not.toMatch(/DROP CONSTRAINT|ALTER TABLE/);

      // One more column in schema.prisma: exit code 2 (`--exit-code`: a difference), and exactly that difference.
      await writeFile(
        path.join(serviceD, "drifted.prisma"),
        (await readFile(path.join(serviceD, "schema.prisma"), "utf8")).replace("level Int", "level Int\n  label String?"),
      );
      const drifted = await diff("drifted.prisma");
      expect(drifted.output).not.toContain("panicked");
      expect(drifted.code).toBe(2);
      expect(drifted.stdout).toContain('ALTER TABLE "Gauge" ADD COLUMN     "label" TEXT;');
      expect(drifted.stdout).not.toContain("DROP CONSTRAINT");
    },
  );

  it.concurrent(
    "when the Wasm engine panics while describing the database, then the CLI fails with the panic, never silently",
    { timeout: STEP_TIMEOUT },
    async ({ expect }) => {
      const serviceE = await writeProject("service-e", urlFor(database, "e"), petModel);
      const init = await prisma(serviceE, ["migrate", "diff", "--from-empty", "--to-schema", "schema.prisma", "--script"]);
      expectSuccess(init);
      await writeMigration(serviceE, "20990101000000_pets", init.stdout);
      expectSuccess(await prisma(serviceE, ["migrate", "deploy"]));
      // An on-delete action the describer does not know ('?') makes it panic after its foreign-key query:
      // the panic surfaces as an uncaught exception while the request is pending, not as a rejected call.
      await query(
        urlFor(database),
        `UPDATE pg_constraint SET confdeltype = '?' WHERE conname = 'Pet_ownerId_fkey' AND connamespace = 'e'::regnamespace`,
      );

      // Left unanswered, the request ended the CLI with status 0 about half of the time: try a few times.
      const runs = await Promise.all(
        [1, 2, 3].map(() =>
          prisma(serviceE, ["migrate", "diff", "--from-config-datasource", "--to-schema", "schema.prisma", "--exit-code"]),
        ),
      );
      for (const run of runs) {
        expect(run.code).toBe(1);
        expect(run.output).toContain("unrecognized foreign key action (on delete) '?'");
      }
    },
  );

  it.concurrent("reports an unreachable database as Prisma's P1001", { timeout: STEP_TIMEOUT }, async ({ expect }) => {
    const offline = await writeProject("offline", unreachableUrl, itemModel);
    const result = await prisma(offline, ["migrate", "status"]);
    expect(result.code).not.toBe(0);
    expect(result.output).toContain("P1001");
    expect(result.output).toContain("Can't reach database server at `127.0.0.1:1`");
  });
});
