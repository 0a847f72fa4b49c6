/**
 * The one idempotency mechanism, on a real table in a real Postgres: a retry replays without writing, racing
 * calls write once, another request under the key is the service's conflict, a failed write frees its key, and an
 * expired record is claimed anew only where the service reclaims.
 */
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freshDatabase, type TestDatabase } from "@bancada/testkit";
import { claimIdempotencyKey, idempotentWrite, type IdempotencyRecords } from "../src/index.js";

class Conflict extends Error {}

describe("idempotentWrite", () => {
  let database: TestDatabase;
  let pool: pg.Pool;

  beforeAll(async () => {
    database = await freshDatabase("bancada_kit_idempotency");
    pool = new pg.Pool({ connectionString: database.url, max: 6 });
    // pool.end() resolves before its connections have closed, and dropping the database (WITH FORCE) then ends them
    // from the server's side: the pool reports that as an error, which without a listener is an uncaught exception.
    pool.on("error", () => {});
    await pool.query(
      `CREATE TABLE records (key TEXT PRIMARY KEY, hash TEXT NOT NULL, stored JSONB NOT NULL, expired BOOLEAN NOT NULL DEFAULT false)`,
    );
    await pool.query(`CREATE TABLE things (id SERIAL PRIMARY KEY, name TEXT NOT NULL)`);
  });
  afterAll(async () => {
    await pool?.end();
    await database?.drop();
  });

  const recordsOf = (client: pg.PoolClient, key: string, reclaims = false): IdempotencyRecords<{ id: number }> => ({
    insert: async (hash) =>
      (await client.query(`INSERT INTO records (key, hash, stored) VALUES ($1, $2, '{}') ON CONFLICT DO NOTHING`, [key, hash])).rowCount ??
      0,
    find: async () => {
      const { rows } = await client.query<{ hash: string; stored: { id: number }; expired: boolean }>(
        `SELECT hash, stored, expired FROM records WHERE key = $1 FOR UPDATE`,
        [key],
      );
      return rows[0] ?? null;
    },
    ...(reclaims
      ? {
          reclaim: async (hash: string) =>
            void (await client.query(`UPDATE records SET hash = $2, expired = false WHERE key = $1`, [key, hash])),
        }
      : {}),
    save: async (stored) => void (await client.query(`UPDATE records SET stored = $2 WHERE key = $1`, [key, JSON.stringify(stored)])),
  });

  /** One write in its own transaction: makes a thing named `name` under `key`. */
  const makeThing = async (key: string, name: string, options: { fail?: boolean; reclaims?: boolean } = {}) => {
    const client = await pool.connect();
    try {
      await client.query("BEGIN");
      const result = await idempotentWrite(recordsOf(client, key, options.reclaims), {
        hash: name,
        conflict: () => new Conflict(`key ${key} was used for another request`),
        run: async () => {
          const { rows } = await client.query<{ id: number }>(`INSERT INTO things (name) VALUES ($1) RETURNING id`, [name]);
          if (options.fail) throw new Error("the write failed");
          return rows[0]!;
        },
      });
      await client.query("COMMIT");
      return result;
    } catch (error) {
      await client.query("ROLLBACK");
      throw error;
    } finally {
      client.release();
    }
  };
  const count = async (name: string) => Number((await pool.query(`SELECT count(*) FROM things WHERE name = $1`, [name])).rows[0].count);

  it("when a write is retried with its key, then the first result comes back and nothing is written again", async () => {
    const first = await makeThing("k1", "one");
    expect(await makeThing("k1", "one")).toEqual(first);
    expect(await count("one")).toBe(1);
  });

  it("when five calls race with one key, then one writes and the others answer its result", async () => {
    const results = await Promise.all(Array.from({ length: 5 }, () => makeThing("k2", "raced")));
    expect(new Set(results.map((result) => result.id)).size).toBe(1);
    expect(await count("raced")).toBe(1);
  });

  it("when the key is reused for another request, then the service's conflict error is thrown and nothing is written", async () => {
    await makeThing("k3", "first");
    await expect(makeThing("k3", "second")).rejects.toBeInstanceOf(Conflict);
    expect(await count("second")).toBe(0);
  });

  it("when a write fails, then its claim rolls back with it and a retry with the key writes", async () => {
    await expect(makeThing("k4", "retried", { fail: true })).rejects.toThrow("the write failed");
    expect((await pool.query(`SELECT 1 FROM records WHERE key = 'k4'`)).rowCount).toBe(0);
    await makeThing("k4", "retried");
    expect(await count("retried")).toBe(1);
  });

  it("when a record has expired, then a service that reclaims runs the new request, and one that does not still holds the key", async () => {
    await makeThing("k5", "old");
    await makeThing("k6", "old");
    await pool.query(`UPDATE records SET expired = true WHERE key IN ('k5', 'k6')`);
    await makeThing("k5", "new", { reclaims: true });
    expect(await count("new")).toBe(1);
    await expect(makeThing("k6", "new")).rejects.toBeInstanceOf(Conflict);
  });

  it("when a key is claimed in two steps (claim, make, save), then the replay carries what was saved", async () => {
    const client = await pool.connect();
    try {
      const records = recordsOf(client, "k7");
      const conflict = () => new Conflict("k7");
      expect(await claimIdempotencyKey(records, "h", conflict)).toEqual({ kind: "claimed" });
      await records.save({ id: 42 });
      expect(await claimIdempotencyKey(records, "h", conflict)).toEqual({ kind: "replay", stored: { id: 42 } });
      await expect(claimIdempotencyKey(records, "other", conflict)).rejects.toBeInstanceOf(Conflict);
    } finally {
      client.release();
    }
  });
});
