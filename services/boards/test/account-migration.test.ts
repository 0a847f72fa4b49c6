/**
 * The migration that gives every board an account meets databases whose rows recorded no account at
 * all. A board takes its creator's account from the gateway's API keys when every key of that person
 * id names one account; otherwise it gets no account ('') and nobody sees it, rather than a tenant
 * that may not be its own. Everything in a board follows the board. It runs as the service's own
 * non-superuser login, which FORCE ROW LEVEL SECURITY would otherwise blind to every row.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { randomBytes, randomUUID } from "node:crypto";
import { cpSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { applyMigrations } from "@bancada/service-kit";
import { adminDatabaseUrl } from "@bancada/testkit";
import { createBoardsDb, migrationsDir, type BoardsDb } from "../src/index.js";
import { listBoards } from "../src/domain/list-boards.js";

const migrations = readdirSync(migrationsDir, { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name)
  .sort();
const accountsMigration = "20261201100000_boards_belong_to_accounts";
const before = migrations.filter((name) => name < accountsMigration);

/** Tables that hold rows of a board, and the board id column of each. */
const boardTables = [
  "board_members",
  "board_quadrants",
  "tags",
  "tasks",
  "task_tags",
  "activity_events",
  "proposals",
  "suggestions",
  "idempotency_records",
];

interface Database {
  ownerUrl: string;
  fixtures: BoardsDb;
  drop(): Promise<void>;
}

describe("migration: boards belong to accounts", () => {
  let admin: BoardsDb;
  let earlier: string;

  beforeAll(async () => {
    admin = createBoardsDb(adminDatabaseUrl, 1);
    earlier = mkdtempSync(path.join(tmpdir(), "boards-before-accounts-"));
    for (const name of before) cpSync(path.join(migrationsDir, name), path.join(earlier, name), { recursive: true });
  });
  afterAll(async () => {
    rmSync(earlier, { recursive: true, force: true });
    await admin?.$disconnect();
  });

  /** A database owned by a fresh non-superuser login, migrated up to the migration under test. */
  async function databaseBefore(): Promise<Database> {
    const login = `boards_acctmig_${randomBytes(4).toString("hex")}`;
    const password = randomBytes(12).toString("hex");
    await admin.$executeRawUnsafe(`CREATE ROLE ${login} LOGIN CREATEROLE PASSWORD '${password}'`);
    await admin.$executeRawUnsafe(`CREATE DATABASE ${login} OWNER ${login}`);
    const url = new URL(adminDatabaseUrl);
    url.pathname = `/${login}`;
    const fixtures = createBoardsDb(url.toString(), 1); // the superuser: FORCE RLS binds the owner itself
    url.username = login;
    url.password = password;
    const ownerUrl = url.toString();
    expect(await applyMigrations({ connectionString: ownerUrl, schema: "boards", migrationsDir: earlier })).toEqual(before);
    return {
      ownerUrl,
      fixtures,
      async drop() {
        await fixtures.$disconnect();
        await admin.$executeRawUnsafe(`DROP DATABASE IF EXISTS ${login} WITH (FORCE)`);
        await admin.$executeRawUnsafe(`DROP ROLE IF EXISTS ${login}`);
      },
    };
  }

  /** A board created by `creator` with a member, a tag, a tagged task, an event, a proposal with a suggestion and an idempotency record. */
  async function oldBoard(db: BoardsDb, creator: string): Promise<string> {
    const board = randomUUID();
    const task = randomUUID();
    const tag = randomUUID();
    const proposal = randomUUID();
    // Fixture values are generated UUIDs and plain names: spliced in, since not every statement uses each one.
    const values: Record<string, string> = { $1: board, $2: task, $3: tag, $4: proposal, $5: creator };
    const run = (sql: string) => db.$executeRawUnsafe(sql.replace(/\$[1-5]/g, (name) => `'${values[name]}'`));
    await run(`INSERT INTO boards.boards (id, name, created_by, created_at, updated_at) VALUES ($1::uuid, 'Old', $5, now(), now())`);
    await run(
      `INSERT INTO boards.board_members (board_id, person_id, role, created_at) VALUES ($1::uuid, $5, 'owner', now()), ($1::uuid, 'pb', 'editor', now())`,
    );
    await run(
      `INSERT INTO boards.board_quadrants (board_id, quadrant, title, subtitle, color) VALUES ($1::uuid, 'backlog', 'Depois', '', 'teal')`,
    );
    await run(`INSERT INTO boards.tags (id, board_id, name, color, created_at) VALUES ($3::uuid, $1::uuid, 'Cliente', 'teal', now())`);
    await run(`INSERT INTO boards.tasks (id, board_id, task_number, title, quadrant, position, status, version, created_by, created_at, updated_at)
               VALUES ($2::uuid, $1::uuid, 1, 't', 'backlog', '4a0', 'active', 1, $5, now(), now())`);
    await run(`INSERT INTO boards.task_tags (task_id, tag_id, board_id) VALUES ($2::uuid, $3::uuid, $1::uuid)`);
    await run(`INSERT INTO boards.activity_events (id, board_id, actor_id, event_type, entity_type, entity_id, metadata, created_at)
               VALUES (gen_random_uuid(), $1::uuid, $5, 'board_created', 'board', $1, '{}', now())`);
    await run(`INSERT INTO boards.proposals (id, board_id, request_id, content_hash, summary, summary_closed, created_by, agent_id, created_at)
               VALUES ($4::uuid, $1::uuid, gen_random_uuid(), 'h', 's', false, $5, 'agent', now())`);
    await run(`INSERT INTO boards.suggestions (id, proposal_id, board_id, ordinal, task_id, version, quadrant, reason, state)
               VALUES (gen_random_uuid(), $4::uuid, $1::uuid, 1, $2::uuid, 1, 'backlog', 'r', 'pending')`);
    await run(`INSERT INTO boards.idempotency_records (request_id, person_id, board_id, tool, args_hash, result, created_at)
               VALUES ($2::uuid, $5, $1::uuid, 'create_task', 'h', '{}', now())`);
    return board;
  }

  /** The accounts of every row of the board, per table: a board's rows must all carry the board's account. */
  async function accountsOf(db: BoardsDb, board: string): Promise<Record<string, string[]>> {
    const out: Record<string, string[]> = {};
    for (const table of ["boards", ...boardTables]) {
      const column = table === "boards" ? "id" : "board_id";
      const rows = await db.$queryRawUnsafe<{ account_id: string }[]>(
        `SELECT DISTINCT account_id FROM boards.${table} WHERE ${column} = $1::uuid`,
        board,
      );
      out[table] = rows.map((row) => row.account_id);
    }
    return out;
  }

  const everywhere = (account: string) => Object.fromEntries(["boards", ...boardTables].map((table) => [table, [account]]));

  it("when the creator's keys name one account, then the board and all its rows get it; ambiguous or unknown creators get none and are hidden", async () => {
    const database = await databaseBefore();
    try {
      const { fixtures } = database;
      // The gateway's table as far as this migration reads it, readable by the service's login.
      await fixtures.$executeRawUnsafe(`CREATE SCHEMA gateway`);
      await fixtures.$executeRawUnsafe(
        `CREATE TABLE gateway.api_keys (id uuid PRIMARY KEY, account_id text NOT NULL, person_id text NOT NULL)`,
      );
      await fixtures.$executeRawUnsafe(
        `INSERT INTO gateway.api_keys VALUES (gen_random_uuid(), 'acct-a', 'ana'), (gen_random_uuid(), 'acct-a', 'ana'),
                                              (gen_random_uuid(), 'acct-a', 'bob'), (gen_random_uuid(), 'acct-b', 'bob')`,
      );
      const login = new URL(database.ownerUrl).username;
      await fixtures.$executeRawUnsafe(`GRANT USAGE ON SCHEMA gateway TO ${login}`);
      await fixtures.$executeRawUnsafe(`GRANT SELECT ON gateway.api_keys TO ${login}`);
      const anas = await oldBoard(fixtures, "ana");
      const bobs = await oldBoard(fixtures, "bob");
      const carls = await oldBoard(fixtures, "carl");

      expect(await applyMigrations({ connectionString: database.ownerUrl, schema: "boards", migrationsDir })).toEqual(
        migrations.filter((name) => !before.includes(name)),
      );

      expect(await accountsOf(fixtures, anas)).toEqual(everywhere("acct-a"));
      expect(await accountsOf(fixtures, bobs)).toEqual(everywhere(""));
      expect(await accountsOf(fixtures, carls)).toEqual(everywhere(""));
      const db = createBoardsDb(database.ownerUrl, 1);
      try {
        const as = (accountId: string, personId: string) => listBoards({ db, accountId, personId, agentId: "test", allowedBoardIds: null });
        expect((await as("acct-a", "ana")).boards.map((board) => board.id)).toEqual([anas]);
        expect((await as("acct-a", "pb")).boards.map((board) => board.id)).toEqual([anas]);
        expect((await as("acct-b", "ana")).boards).toEqual([]);
        expect((await as("acct-a", "bob")).boards).toEqual([]);
        expect((await as("", "bob")).boards).toEqual([]);
        expect((await as("", "carl")).boards).toEqual([]);
      } finally {
        await db.$disconnect();
      }
      const forced = await fixtures.$queryRawUnsafe<{ relname: string }[]>(
        `SELECT relname FROM pg_class WHERE relnamespace = 'boards'::regnamespace AND relkind = 'r' AND relrowsecurity AND NOT relforcerowsecurity AND relname <> '_prisma_migrations'`,
      );
      expect(forced).toEqual([]);
    } finally {
      await database.drop();
    }
  });

  it("when the gateway's keys are not readable, then the migration still applies and existing boards get no account", async () => {
    const database = await databaseBefore();
    try {
      await database.fixtures.$executeRawUnsafe(`CREATE SCHEMA gateway`);
      await database.fixtures.$executeRawUnsafe(
        `CREATE TABLE gateway.api_keys (id uuid PRIMARY KEY, account_id text NOT NULL, person_id text NOT NULL)`,
      );
      await database.fixtures.$executeRawUnsafe(`INSERT INTO gateway.api_keys VALUES (gen_random_uuid(), 'acct-a', 'ana')`);
      const anas = await oldBoard(database.fixtures, "ana");
      expect(await applyMigrations({ connectionString: database.ownerUrl, schema: "boards", migrationsDir })).toContain(accountsMigration);
      expect(await accountsOf(database.fixtures, anas)).toEqual(everywhere(""));
    } finally {
      await database.drop();
    }
  });
});
