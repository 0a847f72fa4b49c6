/**
 * Row-level security holds below the application: raw SQL without any filter, run as the app role with
 * the per-transaction settings, sees only the caller's boards; writes elsewhere are refused by PostgreSQL.
 * The caller is an account and a person together: the same person id in another account sees nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { randomBytes, randomUUID } from "node:crypto";
import { readdirSync } from "node:fs";
import { applyMigrations } from "@bancada/service-kit";
import { freshDatabase, startStack, type Stack } from "@bancada/e2e";
import { createBoardsDb, migrationsDir, type BoardsDb } from "../src/index.js";
import { createBoard } from "../src/domain/manage-board.js";
import { listBoards } from "../src/domain/list-boards.js";
import { boardsFactory } from "./stack.js";
import { closeAll, defaultAccount, makeBoard, makeTag, makeTask, ok, person, type Board, type Person } from "./helpers.js";

const tables = [
  "boards",
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
const boardColumn = (table: string) => (table === "boards" ? "id" : "board_id");
const allMigrations = readdirSync(migrationsDir, { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name)
  .sort();

describe("row-level security", () => {
  let stack: Stack;
  let db: BoardsDb;
  let ana: Person;
  let bob: Person;
  let boardA: Board;
  let boardB: Board;
  let otherAna: Person; // "ana" of another account
  let boardOther: Board;

  beforeAll(async () => {
    stack = await startStack({ services: { boards: boardsFactory } });
    db = createBoardsDb(stack.database.url, 2);
    ana = await person(stack, "ana");
    bob = await person(stack, "bob");
    otherAna = await person(stack, "ana", { accountId: "acct-other" });
    for (const [who, name] of [
      [ana, "A"],
      [bob, "B"],
      [otherAna, "Other"],
    ] as const) {
      const board = await makeBoard(who, name, { viewer: "viewer" });
      await who.rest("PUT", `/v1/boards/${board.id}/quadrants/urgent-important`, {
        expectedVersion: 1,
        title: "Agora",
        subtitle: "",
        color: "teal",
      });
      const tag = await makeTag(who, board.id, "Cliente");
      const task = await makeTask(who, board.id, { tagIds: [tag.id] });
      await ok(who.client, "submit_board_proposal", {
        requestId: randomUUID(),
        boardId: board.id,
        summary: "s",
        suggestions: [{ taskId: task.id, version: 1, quadrant: "urgent-important", reason: "r" }],
      });
      if (who === ana) boardA = board;
      else if (who === bob) boardB = board;
      else boardOther = board;
    }
  });
  afterAll(async () => {
    await closeAll(ana, bob, otherAna);
    await db?.$disconnect();
    await stack?.stop();
  });

  /** Board ids of every row of every table, as the app role sees them with these settings, no WHERE clause at all. */
  async function visible(settings: { account?: string; person?: string; allowed?: string }): Promise<Record<string, string[]>> {
    return db.$transaction(async (tx) => {
      if (settings.account !== undefined) await tx.$executeRawUnsafe(`SELECT set_config('app.account_id', $1, true)`, settings.account);
      if (settings.person !== undefined) await tx.$executeRawUnsafe(`SELECT set_config('app.person_id', $1, true)`, settings.person);
      if (settings.allowed !== undefined) await tx.$executeRawUnsafe(`SELECT set_config('app.allowed_boards', $1, true)`, settings.allowed);
      await tx.$executeRawUnsafe(`SELECT set_config('role', 'bancada_boards_app', true)`);
      const seen: Record<string, string[]> = {};
      for (const table of tables) {
        const rows = await tx.$queryRawUnsafe<{ board: string }[]>(`SELECT ${boardColumn(table)}::text AS board FROM boards.${table}`);
        seen[table] = [...new Set(rows.map((row) => row.board))];
      }
      return seen;
    });
  }

  it("when the app role selects every table without a filter, then only the rows of the person's boards come back", async () => {
    const everything = await db.$queryRawUnsafe<{ n: bigint }[]>(`SELECT count(DISTINCT board_id) AS n FROM boards.tasks`);
    expect(Number(everything[0]!.n)).toBe(3);
    const seen = await visible({ account: defaultAccount, person: "ana", allowed: "*" });
    for (const table of tables) expect(seen[table], table).toEqual([boardA.id]);
    const viewer = await visible({ account: defaultAccount, person: "viewer", allowed: "*" });
    for (const table of tables.filter((t) => t !== "idempotency_records"))
      expect(viewer[table]?.sort(), table).toEqual([boardA.id, boardB.id].sort());
    expect(viewer.idempotency_records).toEqual([]);
  });

  it("when the key's allowlist leaves a board out, then no row of it is visible, whatever the membership", async () => {
    const onlyB = await visible({ account: defaultAccount, person: "viewer", allowed: boardB.id });
    for (const table of tables.filter((t) => t !== "idempotency_records")) expect(onlyB[table], table).toEqual([boardB.id]);
    const none = await visible({ account: defaultAccount, person: "viewer", allowed: "" });
    for (const table of tables) expect(none[table], table).toEqual([]);
    const foreign = await visible({ account: defaultAccount, person: "ana", allowed: boardB.id });
    for (const table of tables.filter((t) => t !== "idempotency_records")) expect(foreign[table], table).toEqual([]);
  });

  it("when the same person id acts in another account, then only that account's rows are visible, and without an account none", async () => {
    const other = await visible({ account: "acct-other", person: "ana", allowed: "*" });
    for (const table of tables) expect(other[table], table).toEqual([boardOther.id]);
    const viewerElsewhere = await visible({ account: "acct-other", person: "viewer", allowed: "*" });
    for (const table of tables.filter((t) => t !== "idempotency_records")) expect(viewerElsewhere[table], table).toEqual([boardOther.id]);
    for (const account of ["", "acct-none"]) {
      const seen = await visible({ account, person: "ana", allowed: "*" });
      for (const table of tables) expect(seen[table], `${table} in ${JSON.stringify(account)}`).toEqual([]);
    }
    const noAccount = await visible({ person: "ana", allowed: "*" });
    for (const table of tables) expect(noAccount[table], table).toEqual([]);
  });

  it("when the settings are missing, then the app role sees nothing at all", async () => {
    const seen = await visible({});
    for (const table of tables) expect(seen[table], table).toEqual([]);
  });

  async function asApp<T>(
    personId: string,
    work: (run: (sql: string, ...values: unknown[]) => Promise<number>) => Promise<T>,
    accountId = defaultAccount,
  ): Promise<T> {
    return db.$transaction(async (tx) => {
      await tx.$executeRawUnsafe(
        `SELECT set_config('app.account_id', $1, true), set_config('app.person_id', $2, true), set_config('app.allowed_boards', '*', true), set_config('role', 'bancada_boards_app', true)`,
        accountId,
        personId,
      );
      return work((sql, ...values) => tx.$executeRawUnsafe(sql, ...values));
    });
  }

  it("when the app role updates or deletes another board's rows without a filter, then no row changes, in its account or another", async () => {
    for (const target of [boardB, boardOther]) {
      const changed = await asApp("ana", async (run) => [
        await run(`UPDATE boards.tasks SET title = 'hijacked' WHERE board_id = $1::uuid`, target.id),
        await run(`DELETE FROM boards.tags WHERE board_id = $1::uuid`, target.id),
        await run(`UPDATE boards.boards SET name = 'hijacked' WHERE id = $1::uuid`, target.id),
        await run(`DELETE FROM boards.board_members WHERE board_id = $1::uuid`, target.id),
      ]);
      expect(changed, target.name).toEqual([0, 0, 0, 0]);
      const [row] = await db.$queryRawUnsafe<{ title: string }[]>(`SELECT title FROM boards.tasks WHERE board_id = $1::uuid`, target.id);
      expect(row!.title).toBe("Tarefa");
    }
  });

  it("when the app role inserts into another board or claims ownership of it, in its account or another, then PostgreSQL refuses with 42501", async () => {
    const attempts = [
      `INSERT INTO boards.tasks (account_id, id, board_id, task_number, title, quadrant, position, status, version, created_by, created_at, updated_at)
       VALUES ($2, gen_random_uuid(), $1::uuid, 99, 'x', 'backlog', '4zz', 'active', 1, 'ana', now(), now())`,
      `INSERT INTO boards.board_members (account_id, board_id, person_id, role, created_at) VALUES ($2, $1::uuid, 'ana', 'owner', now())`,
      `INSERT INTO boards.activity_events (account_id, id, board_id, actor_id, event_type, entity_type, entity_id, metadata, created_at)
       VALUES ($2, gen_random_uuid(), $1::uuid, 'ana', 'x', 'board', 'x', '{}', now())`,
    ];
    const targets: [string, string][] = [
      [boardB.id, defaultAccount], // a board of the caller's account that the person is no member of
      [boardOther.id, "acct-other"], // a board of another account whose member has the caller's person id
      [boardOther.id, defaultAccount], // the same, with the row claiming the caller's own account
    ];
    for (const sql of attempts) {
      for (const [boardId, accountId] of targets) {
        await expect(asApp("ana", (run) => run(sql, boardId, accountId))).rejects.toThrow(/42501|row-level security/);
      }
    }
  });

  it("when a viewer updates a task of the board it can read, then no row changes", async () => {
    const changed = await asApp("viewer", (run) => run(`UPDATE boards.tasks SET title = 'viewer edit'`));
    expect(changed).toBe(0);
  });

  it("when the migration runs in three fresh databases at once, then every run succeeds (roles are shared by the server)", async () => {
    const databases = await Promise.all(Array.from({ length: 3 }, () => freshDatabase("boards_rls")));
    try {
      const applied = await Promise.all(
        databases.map((database) => applyMigrations({ connectionString: database.url, schema: "boards", migrationsDir })),
      );
      for (const names of applied) expect(names).toEqual(allMigrations);
    } finally {
      await Promise.all(databases.map((database) => database.drop()));
    }
  });

  it("when the service logs in as a non-superuser that owns the tables, then FORCE RLS binds it too: it sees nothing outside a session", async () => {
    const login = `boards_login_${randomBytes(4).toString("hex")}`;
    const password = randomBytes(12).toString("hex"); // trust (CI) or scram (embedded PostgreSQL) alike
    await db.$executeRawUnsafe(`CREATE ROLE ${login} LOGIN CREATEROLE PASSWORD '${password}'`);
    await db.$executeRawUnsafe(`CREATE DATABASE ${login} OWNER ${login}`);
    const url = new URL(stack.database.url);
    url.username = login;
    url.password = password;
    url.pathname = `/${login}`;
    const own = createBoardsDb(url.toString(), 2);
    try {
      expect(await applyMigrations({ connectionString: url.toString(), schema: "boards", migrationsDir })).toEqual(allMigrations);
      const ctx = { db: own, accountId: defaultAccount, personId: "ana", agentId: "test", allowedBoardIds: null };
      const { board } = await createBoard(ctx, { requestId: randomUUID(), name: "Owned" });
      expect((await listBoards(ctx)).boards.map((b) => b.id)).toEqual([board.id]);
      expect((await listBoards({ ...ctx, personId: "bob" })).boards).toEqual([]);
      expect((await listBoards({ ...ctx, accountId: "acct-other" })).boards).toEqual([]);
      const raw = await own.$queryRawUnsafe<{ n: bigint }[]>(`SELECT count(*) AS n FROM boards.boards`);
      expect(Number(raw[0]!.n)).toBe(0);
    } finally {
      await own.$disconnect();
      await db.$executeRawUnsafe(`DROP DATABASE IF EXISTS ${login} WITH (FORCE)`);
      await db.$executeRawUnsafe(`DROP ROLE IF EXISTS ${login}`);
    }
  });
});
