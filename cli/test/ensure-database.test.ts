/**
 * The components of the production shape start together on a database that does not exist yet: each creates it,
 * and the ones that lose the race must go on with the database the winner made.
 */
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { ensureDatabase } from "../src/database.js";

const server = process.env.DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
const name = `bancada_ensure_${process.pid}`;

async function admin<T>(work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: server });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

describe("ensureDatabase", () => {
  afterAll(() => admin((client) => client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)));

  it("when six processes' starts create the same missing database at once, then every one of them goes on with it", async () => {
    const url = new URL(server);
    url.pathname = `/${name}`;
    for (let round = 0; round < 3; round++) {
      await admin((client) => client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
      const outcomes = await Promise.allSettled(Array.from({ length: 6 }, () => ensureDatabase(url.toString())));
      expect(outcomes.filter((outcome) => outcome.status === "rejected")).toEqual([]);
    }
    const { rows } = await admin((client) => client.query("SELECT 1 FROM pg_database WHERE datname = $1", [name]));
    expect(rows).toHaveLength(1);
  });
});
