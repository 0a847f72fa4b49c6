/**
 * The migration that makes tag names unique ignoring case meets databases where the old check-then-insert
 * already let clashing names in. It must not fail there nor lose a tag: the oldest keeps the name, the
 * others get a numbered suffix within the 40-character limit. It runs as the service's own non-superuser
 * login, which FORCE ROW LEVEL SECURITY would otherwise blind to every row.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { randomBytes, randomUUID } from "node:crypto";
import { cpSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { applyMigrations } from "@bancada/service-kit";
import { adminDatabaseUrl } from "@bancada/testkit";
import { createBoardsDb, migrationsDir, type BoardsDb } from "../src/index.js";

const [initMigration, ...laterMigrations] = readdirSync(migrationsDir, { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name)
  .sort();

describe("migration: tag names unique ignoring case", () => {
  const login = `boards_tagmig_${randomBytes(4).toString("hex")}`;
  const password = randomBytes(12).toString("hex");
  let admin: BoardsDb;
  let ownerUrl: string;
  let superUrl: string;
  let initOnly: string;

  beforeAll(async () => {
    admin = createBoardsDb(adminDatabaseUrl, 1);
    await admin.$executeRawUnsafe(`CREATE ROLE ${login} LOGIN CREATEROLE PASSWORD '${password}'`);
    await admin.$executeRawUnsafe(`CREATE DATABASE ${login} OWNER ${login}`);
    const url = new URL(adminDatabaseUrl);
    url.pathname = `/${login}`;
    superUrl = url.toString();
    url.username = login;
    url.password = password;
    ownerUrl = url.toString();
    initOnly = mkdtempSync(path.join(tmpdir(), "boards-init-"));
    cpSync(path.join(migrationsDir, initMigration!), path.join(initOnly, initMigration!), { recursive: true });
  });
  afterAll(async () => {
    rmSync(initOnly, { recursive: true, force: true });
    await admin?.$executeRawUnsafe(`DROP DATABASE IF EXISTS ${login} WITH (FORCE)`);
    await admin?.$executeRawUnsafe(`DROP ROLE IF EXISTS ${login}`);
    await admin?.$disconnect();
  });

  it("when clashing names exist, then the oldest keeps its name, the others get numbered suffixes within 40 characters, and tasks keep their tags", async () => {
    expect(await applyMigrations({ connectionString: ownerUrl, schema: "boards", migrationsDir: initOnly })).toEqual([initMigration]);
    const board = randomUUID();
    const long = "L".repeat(40);
    const tags = [
      { name: "Urgent", age: 5 },
      { name: "urgent", age: 4 },
      { name: "URGENT", age: 3 },
      { name: long, age: 2 },
      { name: long.toLowerCase(), age: 1 },
      { name: "Só uma", age: 1 },
    ].map((tag) => ({ ...tag, id: randomUUID() }));
    // Fixtures go in as the superuser: the owner itself is bound by FORCE ROW LEVEL SECURITY.
    const fixtures = createBoardsDb(superUrl, 1);
    try {
      await fixtures.$executeRawUnsafe(
        `INSERT INTO boards.boards (id, name, created_by, created_at, updated_at) VALUES ($1::uuid, 'B', 'ana', now(), now())`,
        board,
      );
      for (const tag of tags) {
        await fixtures.$executeRawUnsafe(
          `INSERT INTO boards.tags (id, board_id, name, color, created_at) VALUES ($1::uuid, $2::uuid, $3, 'teal', now() - make_interval(days => $4))`,
          tag.id,
          board,
          tag.name,
          tag.age,
        );
      }
      await fixtures.$executeRawUnsafe(
        `INSERT INTO boards.tasks (id, board_id, task_number, title, quadrant, position, status, version, created_by, created_at, updated_at)
         VALUES ($1::uuid, $2::uuid, 1, 't', 'backlog', '4a0', 'active', 1, 'ana', now(), now())`,
        randomUUID(),
        board,
      );
      await fixtures.$executeRawUnsafe(
        `INSERT INTO boards.task_tags (task_id, tag_id, board_id) SELECT t.id, g.id, t.board_id FROM boards.tasks t, boards.tags g`,
      );

      expect(await applyMigrations({ connectionString: ownerUrl, schema: "boards", migrationsDir })).toEqual(laterMigrations);

      const rows = await fixtures.$queryRawUnsafe<{ id: string; name: string; version: number }[]>(
        `SELECT id::text, name, version FROM boards.tags`,
      );
      const after = new Map(rows.map((row) => [row.id, row]));
      expect(tags.map((tag) => [after.get(tag.id)?.name, after.get(tag.id)?.version])).toEqual([
        ["Urgent", 1],
        ["urgent (2)", 2],
        ["URGENT (3)", 2],
        [long, 1],
        [`${long.toLowerCase().slice(0, 36)} (2)`, 2],
        ["Só uma", 1],
      ]);
      for (const row of rows) expect(row.name.length).toBeLessThanOrEqual(40);
      const [{ n }] = (await fixtures.$queryRawUnsafe<{ n: bigint }[]>(`SELECT count(*) AS n FROM boards.task_tags`)) as [{ n: bigint }];
      expect(Number(n)).toBe(tags.length);
      const [{ forced }] = (await fixtures.$queryRawUnsafe<{ forced: boolean }[]>(
        `SELECT relforcerowsecurity AS forced FROM pg_class WHERE oid = 'boards.tags'::regclass`,
      )) as [{ forced: boolean }];
      expect(forced).toBe(true);
      const clash = `INSERT INTO boards.tags (account_id, id, board_id, name, color, created_at)
                     SELECT account_id, gen_random_uuid(), id, 'só UMA', 'teal', now() FROM boards.boards WHERE id = $1::uuid`;
      await expect(fixtures.$executeRawUnsafe(clash, board)).rejects.toThrow(/23505|unique/i);
    } finally {
      await fixtures.$disconnect();
    }
  });
});
