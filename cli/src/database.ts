/**
 * Where each component's database is: `DATABASE_URL` (and per-component overrides), or, when nothing is
 * configured, the embedded PostgreSQL under BANCADA_DATA_DIR, shared by every component (each in its
 * own schema, as on a real server). The database named in the URL is created on first use.
 */
import { existsSync } from "node:fs";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import pg from "pg";
import { EmbeddedPostgresError, startEmbeddedPostgres, type EmbeddedPostgresServer } from "@bancada/embedded-db";
import type { Logger } from "@bancada/service-kit";
import { UsageError, componentDatabaseUrl, type Env } from "./env.js";

export interface Databases {
  /** True when the embedded PostgreSQL serves the components. */
  embedded: boolean;
  urlFor(component: string): Promise<string>;
  stop(): Promise<void>;
}

export async function openDatabases(env: Env, log?: Logger): Promise<Databases> {
  let server: EmbeddedPostgresServer | undefined;
  let base = env.DATABASE_URL;
  if (!base) {
    const dataDir = path.resolve(env.BANCADA_DATA_DIR);
    const first = !existsSync(path.join(dataDir, "pg", "PG_VERSION"));
    log?.info(
      { dataDir },
      first ? "creating the embedded PostgreSQL cluster (first start: a few seconds)" : "starting the embedded PostgreSQL",
    );
    try {
      server = await startEmbeddedPostgres({ dataDir, ...(env.BANCADA_PG_PORT ? { port: env.BANCADA_PG_PORT } : {}) });
    } catch (error) {
      if (error instanceof EmbeddedPostgresError) throw new UsageError(error.message);
      throw error;
    }
    log?.info({ created: server.created, shared: !server.started }, "embedded PostgreSQL ready");
    const url = new URL(server.url);
    url.pathname = "/bancada";
    base = url.toString();
  }
  const ensured = new Set<string>();
  return {
    embedded: server !== undefined,
    async urlFor(component) {
      const url = componentDatabaseUrl(env, component) ?? base;
      if (!ensured.has(url)) {
        await ensureDatabase(url);
        ensured.add(url);
      }
      return url;
    },
    async stop() {
      await server?.stop();
    },
  };
}

/**
 * Creates the database named in the URL when the server has no such database yet (a first start). A connection the
 * server (or a forwarder in front of it) drops, or a server still starting or full, is tried again for a few seconds:
 * the components of the production shape start together, and a migration that gave up on one dropped connection
 * would fail its whole pod. A refused connection or a wrong password is the configuration's, and answered at once.
 */
export async function ensureDatabase(url: string, retryForMs = 5_000): Promise<void> {
  const deadline = Date.now() + retryForMs;
  for (let wait = 100; ; wait = Math.min(wait * 2, 1_000)) {
    const client = new pg.Client({ connectionString: url });
    try {
      await client.connect();
      await client.end();
      return;
    } catch (error) {
      await client.end().catch(() => {});
      if ((error as { code?: string }).code === "3D000") break;
      if (!transient(error) || Date.now() + wait > deadline) throw explain(url, error);
      await sleep(wait);
    }
  }
  const target = new URL(url);
  const name = decodeURIComponent(target.pathname.slice(1));
  const admin = new URL(url);
  admin.pathname = "/postgres";
  const adminClient = new pg.Client({ connectionString: admin.toString() });
  try {
    await adminClient.connect();
    await adminClient.query(`CREATE DATABASE "${name.replaceAll('"', '""')}"`);
  } catch (error) {
    if (!createdMeanwhile(error)) throw explain(url, error);
  } finally {
    await adminClient.end().catch(() => {});
  }
}

/** A dropped connection, a server starting up (57P03) or out of connections (53300). */
function transient(error: unknown): boolean {
  const { code, message } = error as { code?: string; message?: string };
  return code === "57P03" || code === "53300" || code === "ECONNRESET" || /Connection terminated unexpectedly/.test(message ?? "");
}

/**
 * Another process made the database first: the components of the production shape start together, and each
 * creates the missing database. PostgreSQL says so as 42P04, or, when the two CREATE DATABASE ran at once, as a
 * unique violation on pg_database's name index.
 */
function createdMeanwhile(error: unknown): boolean {
  const { code, constraint } = error as { code?: string; constraint?: string };
  return code === "42P04" || (code === "23505" && constraint === "pg_database_datname_index");
}

function explain(url: string, error: unknown): Error {
  return new UsageError(
    `Cannot use the database ${redactedUrl(url)}: ${(error as Error).message}. Is PostgreSQL running, and is DATABASE_URL right?`,
  );
}

/** A database URL as it may be shown: without its password. */
export function redactedUrl(databaseUrl: string): string {
  try {
    const url = new URL(databaseUrl);
    if (url.password) url.password = "***";
    return url.toString();
  } catch {
    return "(DATABASE_URL)";
  }
}
