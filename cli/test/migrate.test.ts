/** `bancada migrate` as a deployment runs it before the components serve: a real database, a real process. */
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freshDatabase, type TestDatabase } from "@bancada/testkit";
import { bin } from "./start-bancada.js";

const run = promisify(execFile);

describe("bancada migrate", { timeout: 240_000 }, () => {
  let database: TestDatabase;
  let env: NodeJS.ProcessEnv;
  const bancada = (...args: string[]) => run(process.execPath, [bin, ...args], { env, timeout: 120_000 });

  beforeAll(async () => {
    database = await freshDatabase("bancada_migrate");
    const { NATS_URL: _ignored, ...rest } = process.env;
    env = { ...rest, DATABASE_URL: database.url, LOG_LEVEL: "warn", BANCADA_KEY_PEPPER: "migrate-test-pepper" };
  });
  afterAll(async () => database?.drop());

  it("when run for some components, then it applies only theirs, and a second run says they are up to date", async () => {
    const first = await bancada("migrate", "--only", "gateway,scripts");
    expect(first.stdout).toMatch(/^gateway: applied \S/m);
    expect(first.stdout).toMatch(/^scripts: applied \S/m);
    expect(first.stdout).not.toMatch(/^boards:/m);
    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    try {
      const { rows } = await client.query<{ schema: string }>(
        `SELECT nspname AS schema FROM pg_namespace WHERE nspname IN ('gateway', 'scripts', 'boards') ORDER BY 1`,
      );
      expect(rows.map((row) => row.schema)).toEqual(["gateway", "scripts"]);
    } finally {
      await client.end();
    }
    const again = await bancada("migrate", "--only", "scripts");
    expect(again.stdout.trim()).toBe("scripts: up to date");
  });

  it("when every component migrates at once on an empty database, then none collides with another (scripts and docs both create pg_trgm)", async () => {
    const empty = await freshDatabase("bancada_migrate_race");
    try {
      const components = ["gateway", "scripts", "boards", "docs", "drafts", "boxes"];
      const migrate = (name: string) =>
        run(process.execPath, [bin, "migrate", "--only", name], { env: { ...env, DATABASE_URL: empty.url }, timeout: 120_000 });
      const outcomes = await Promise.all(components.map(migrate));
      for (const [index, outcome] of outcomes.entries())
        expect(outcome.stdout).toMatch(new RegExp(`^${components[index]}: applied \\S`, "m"));
    } finally {
      await empty.drop();
    }
  });

  it("when a component is unknown, then a one-line error names the choices and the exit is non-zero", async () => {
    const failed = (await bancada("migrate", "--only", "billing").catch((error: unknown) => error)) as { code: number; stderr: string };
    expect(failed.code).toBe(1);
    expect(failed.stderr.trim().split("\n").at(-1)).toBe(
      "Unknown component(s) billing; choose from gateway, scripts, boards, docs, drafts, boxes.",
    );
  });
});
