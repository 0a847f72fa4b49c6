/**
 * The components of the production shape start together on a database that does not exist yet: each creates it,
 * and the ones that lose the race must go on with the database the winner made. A connection dropped on the way
 * (a forwarder, a server starting) is tried again; a refused one is answered at once.
 */
import { connect, createServer, type Server, type Socket } from "node:net";
import type { AddressInfo } from "node:net";
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

  /** A forwarder to the server that drops the first `drops` connections the moment they arrive. */
  async function droppingForwarder(drops: number): Promise<{ url: string; server: Server; dropped: () => number }> {
    const target = new URL(server);
    let dropped = 0;
    const forwarder = createServer((socket: Socket) => {
      if (dropped < drops) {
        dropped++;
        socket.destroy();
        return;
      }
      const upstream = connect(Number(target.port || 5432), target.hostname);
      socket.pipe(upstream).pipe(socket);
      upstream.on("error", () => socket.destroy());
      socket.on("error", () => upstream.destroy());
    }).listen(0, "127.0.0.1");
    await new Promise((resolve) => forwarder.once("listening", resolve));
    const url = new URL(server);
    url.host = `127.0.0.1:${(forwarder.address() as AddressInfo).port}`;
    url.pathname = `/${name}`;
    return { url: url.toString(), server: forwarder, dropped: () => dropped };
  }

  it("when the first connections are dropped on the way, then it tries again and goes on; when every one is, it says so in one line", async () => {
    const flaky = await droppingForwarder(2);
    try {
      await ensureDatabase(flaky.url);
      expect(flaky.dropped()).toBe(2);
    } finally {
      flaky.server.close();
    }
    const dead = await droppingForwarder(Number.POSITIVE_INFINITY);
    try {
      const started = Date.now();
      await expect(ensureDatabase(dead.url, 600)).rejects.toThrow(/^Cannot use the database .*Is PostgreSQL running/);
      expect(dead.dropped()).toBeGreaterThan(1);
      expect(Date.now() - started).toBeLessThan(3_000);
    } finally {
      dead.server.close();
    }
  });

  it("when the connection is refused, then it answers at once without trying again", async () => {
    const closed = createServer().listen(0, "127.0.0.1");
    await new Promise((resolve) => closed.once("listening", resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const started = Date.now();
    await expect(ensureDatabase(`postgres://postgres@127.0.0.1:${port}/${name}`)).rejects.toThrow(/ECONNREFUSED/);
    expect(Date.now() - started).toBeLessThan(1_000);
  });
});
