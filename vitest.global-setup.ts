/**
 * Where the tests find PostgreSQL and NATS. CI (and any machine with servers) sets DATABASE_URL and
 * NATS_URL. Without DATABASE_URL, one embedded PostgreSQL serves the whole run (every test file still
 * makes its own database); without NATS_URL, stacks run on the in-process bus and NATS-only tests skip.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { startEmbeddedPostgres } from "@bancada/embedded-db";

export default async function setup(): Promise<() => Promise<void>> {
  if (!process.env.NATS_URL) {
    process.env.BANCADA_TEST_BUS = "memory";
    console.log("NATS_URL is not set: stacks use the in-process bus; tests that need NATS are skipped.");
  }
  if (process.env.DATABASE_URL) return async () => {};
  const dataDir = await mkdtemp(path.join(tmpdir(), "bancada-test-pg-"));
  const server = await startEmbeddedPostgres({ dataDir, persistent: false });
  process.env.DATABASE_URL = server.url;
  console.log(`DATABASE_URL is not set: using an embedded PostgreSQL for this run (${dataDir}).`);
  return async () => {
    await server.stop();
    await rm(dataDir, { recursive: true, force: true });
  };
}
