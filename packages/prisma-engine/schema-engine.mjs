#!/usr/bin/env node
/**
 * A stand-in for Prisma's native `schema-engine` executable.
 *
 * Why it exists
 *   Every Prisma 7 CLI command (`generate`, `validate`, `migrate *`, `db *`) first downloads the native
 *   `schema-engine` binary from Prisma's binary host. Our machines cannot reach that host and no package
 *   ships the binary. The CLI skips the download when `PRISMA_SCHEMA_ENGINE_BINARY` names an existing
 *   file, and then runs that file as the engine. This script is that file: it behaves like the native
 *   engine, but runs Prisma's own WebAssembly schema engine (`@prisma/schema-engine-wasm`) over
 *   `@prisma/adapter-pg`. PostgreSQL only. See docs/prisma-offline.md.
 *
 * What the CLI expects (the same contract as the native binary)
 *   - `--version`: print a version line.
 *   - `--datasource '{"url": …, "shadowDatabaseUrl"?: …}' cli can-connect-to-database | create-database`:
 *     one-shot commands, exit 0 on success; on failure, exit 1 with JSON log lines on stderr
 *     (`{level:"ERROR", target:"schema_engine::logger", fields:{message, error_code}}`). The CLI skips the
 *     first stderr line (the native engine's start-up log line), so we always write one first.
 *   - otherwise (`[--datamodels <file>]… --datasource …`): JSON-RPC 2.0 over stdin/stdout, one object per
 *     line, until stdin closes. Logs go to stderr as JSON lines.
 *
 * Traps handled here (each one was reproduced; docs/prisma-offline.md#traps-the-stand-in-handles)
 *   - `diff`: the Wasm engine returns `{exitCode, stdout}`; the CLI expects a `print` request from us, then
 *     `{exitCode}`. The CLI's answers to `print` come back on stdin without a `method`.
 *   - adapter-pg rejects the catalog types `"char"` (oid 18) and `name` (oid 19) the engine reads while
 *     introspecting: they reach adapter-pg as text, and `"char"` columns then reach the engine as
 *     `Character`, as with the native engine (its describer panics on CHECK constraints otherwise).
 *     See src/catalog-types.mjs.
 *   - adapter-pg's `connectToShadowDb()` applies migrations to the main database when given a URL: we
 *     create our own `prisma_shadow_<uuid>` database and drop it when the engine disposes it.
 *   - adapter-pg's `executeScript` splits a script on every `;` (breaking `DO $$ … $$`, functions,
 *     comments): a migration script is sent as ONE query, as the native engine does.
 *   - `evaluateDataLoss` / `createMigration` need the migrations' shadow schema warmed by a
 *     `diagnoseMigrationHistory` call first.
 *   - An empty datamodel list crashes the Wasm engine: pass `undefined` instead.
 *   - One Postgres schema per service (`?schema=<name>` in the URL, default `public`): the schema goes to
 *     `PrismaPg` (the engine then scopes to it and creates it) AND `search_path` is set to it on every
 *     pooled connection, main and shadow, since migration SQL and `_prisma_migrations` are unqualified.
 *
 * The Wasm package and the CLI are pinned to each other's internals: keep the versions exact in
 * package.json and re-run `pnpm exec vitest run packages/prisma-engine` on any Prisma upgrade.
 */
import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";

import { PrismaPg } from "@prisma/adapter-pg";
import { bindMigrationAwareSqlAdapterFactory, DriverAdapterError } from "@prisma/driver-adapter-utils";
import * as wasmBindings from "@prisma/schema-engine-wasm/schema_engine_bg";
import pg from "pg";

import { CatalogAwareClient, reportCharColumns } from "./src/catalog-types.mjs";

// ---------------------------------------------------------------------------------------------------
// Logging: JSON lines on stderr, the format the CLI parses (it keeps `fields.message` of every line and
// shows the last ERROR line's message when the engine exits with code 1).
// ---------------------------------------------------------------------------------------------------

const LOG_LEVELS = ["ERROR", "WARN", "INFO", "DEBUG", "TRACE"];
const maxLogLevel = logLevelFromEnv(process.env.RUST_LOG);

/** The most verbose level to print: RUST_LOG when it is a plain level (as the CLI sets it), else INFO. */
function logLevelFromEnv(rustLog) {
  const level = String(rustLog ?? "").toUpperCase();
  return LOG_LEVELS.includes(level) ? level : "INFO";
}

function shouldLog(level) {
  const rank = LOG_LEVELS.indexOf(level);
  return rank !== -1 && rank <= LOG_LEVELS.indexOf(maxLogLevel);
}

/** Writes one log line in the native engine's format. */
function log(level, fields, target = "schema_engine") {
  if (!shouldLog(level)) return;
  const line = { timestamp: new Date().toISOString(), level, fields, target };
  process.stderr.write(`${JSON.stringify(line)}\n`);
}

/** Forwards the Wasm engine's own tracing lines (already JSON) to stderr. */
function forwardEngineLog(line) {
  const text = String(line).trim();
  if (!text) return;
  let level = "INFO";
  try {
    level = JSON.parse(text).level ?? level;
  } catch {
    // Not JSON: print it as-is at INFO level.
    log("INFO", { message: text }, "schema_engine_wasm");
    return;
  }
  if (shouldLog(level)) process.stderr.write(`${text}\n`);
}

/** Node's own warnings (e.g. from pg) would break the CLI's JSON parsing of stderr: log them as JSON. */
function routeNodeWarningsToLog() {
  process.removeAllListeners("warning");
  process.on("warning", (warning) => log("WARN", { message: `${warning.name}: ${warning.message}` }));
}

// ---------------------------------------------------------------------------------------------------
// Command line
// ---------------------------------------------------------------------------------------------------

/** Parses the arguments the CLI passes to the native engine. */
function parseArgs(argv) {
  const args = { version: false, datasource: undefined, datamodels: [], cliCommand: undefined };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    switch (arg) {
      case "--version":
      case "-V":
        args.version = true;
        break;
      case "--datasource":
        args.datasource = JSON.parse(argv[++i]);
        break;
      case "--datamodels":
      case "-d":
        args.datamodels.push(argv[++i]);
        break;
      case "--enabled-preview-features":
        i++; // The Wasm engine reads the preview features from the schema itself.
        break;
      case "--extension-types":
        i++;
        log("WARN", { message: "prisma.config.ts `extensions` are not supported by the Wasm schema engine: ignored" });
        break;
      case "cli":
        args.cliCommand = argv[++i];
        break;
      default:
        throw new Error(`schema-engine stand-in: unexpected argument \`${arg}\``);
    }
  }
  return args;
}

/** The engine version: the git hash of prisma-engines the Wasm package was built from. */
function engineVersion() {
  const pkgUrl = new URL("./package.json", import.meta.resolve("@prisma/schema-engine-wasm/schema_engine_bg"));
  const { version } = JSON.parse(readFileSync(pkgUrl, "utf8"));
  return version.split(".").at(-1);
}

// ---------------------------------------------------------------------------------------------------
// Database targets and connections
// ---------------------------------------------------------------------------------------------------

/**
 * Describes a Prisma datasource URL: the URL pg should use (without Prisma's `schema` parameter, with
 * `search_path` set through the `options` startup parameter), the Postgres schema of the service, and
 * the parts error messages mention.
 */
function describeDatabase(url, defaultSchema = "public") {
  if (!url) {
    // The native engine can diff two schemas offline; the Wasm engine always needs a database.
    throw new Error("The stand-in schema engine needs a database: set `datasource.url` in prisma.config.ts.");
  }
  let parsed;
  try {
    parsed = new URL(url);
  } catch {
    throw userFacing("P1013", "The provided database string is invalid. It is not a valid URL.");
  }
  const schema = parsed.searchParams.get("schema") || defaultSchema;
  parsed.searchParams.delete("schema");
  return {
    url: parsed.toString(),
    schema,
    database: decodeURIComponent(parsed.pathname.slice(1)) || "postgres",
    user: decodeURIComponent(parsed.username) || process.env.PGUSER || "postgres",
    host: parsed.searchParams.get("host") || parsed.hostname || "localhost",
    port: parsed.port || "5432",
  };
}

/** The same target, on another database of the same server. */
function onDatabase(target, database) {
  const parsed = new URL(target.url);
  parsed.pathname = `/${encodeURIComponent(database)}`;
  return { ...target, url: parsed.toString(), database };
}

function quoteIdent(name) {
  return `"${String(name).replaceAll('"', '""')}"`;
}

/**
 * Appends `-c search_path=<schema>` to the URL's `options` startup parameter, so that every connection of
 * a pool starts in the service's schema (no extra query, no race with the first statement).
 */
function urlWithSearchPath(target) {
  const parsed = new URL(target.url);
  const escaped = quoteIdent(target.schema).replace(/[\\\s]/g, (c) => `\\${c}`);
  const options = [parsed.searchParams.get("options"), `-c search_path=${escaped}`].filter(Boolean);
  parsed.searchParams.set("options", options.join(" "));
  return parsed.toString();
}

/** Runs `work(client)` on a short-lived connection to the target's database. */
async function withClient(target, work) {
  const client = new pg.Client({ connectionString: target.url });
  client.on("error", () => {}); // A dropped connection surfaces through the pending query instead.
  try {
    await client.connect();
  } catch (error) {
    throw toUserFacingError(error, target) ?? error;
  }
  try {
    return await work(client);
  } finally {
    await client.end().catch(() => {});
  }
}

// ---------------------------------------------------------------------------------------------------
// User-facing errors (Prisma's error codes and messages, as the native engine reports them)
// ---------------------------------------------------------------------------------------------------

const UNREACHABLE_CODES = new Set(["ECONNREFUSED", "ENOTFOUND", "EAI_AGAIN", "EHOSTUNREACH", "ENETUNREACH", "ETIMEDOUT"]);

/** An error carrying a Prisma error code, rendered as the native engine would. */
function userFacing(errorCode, message, meta = {}) {
  return Object.assign(new Error(message), { errorCode, meta, userFacing: true });
}

/** Maps a pg connection error to Prisma's P1000/P1001/P1003/P1009/P1010 errors; null when unknown. */
function toUserFacingError(error, target) {
  if (error?.userFacing) return error;
  const at = `${target.host}:${target.port}`;
  const code = error?.code;
  if (UNREACHABLE_CODES.has(code) || /timeout expired|Connection terminated unexpectedly/i.test(error?.message ?? "")) {
    return userFacing(
      "P1001",
      `Can't reach database server at \`${at}\`\n\nPlease make sure your database server is running at \`${at}\`.`,
      { database_host: target.host, database_port: Number(target.port) },
    );
  }
  switch (code) {
    case "3D000":
      return userFacing("P1003", `Database \`${target.database}\` does not exist on the database server at \`${at}\`.`, {
        database_name: target.database,
        database_host: target.host,
        database_port: Number(target.port),
      });
    case "28P01":
      return userFacing(
        "P1000",
        `Authentication failed against database server at \`${target.host}\`, the provided database credentials for \`${target.user}\` are not valid.\n\nPlease make sure to provide valid database credentials for the database server at \`${target.host}\`.`,
        { database_user: target.user, database_host: target.host },
      );
    case "28000":
      return userFacing("P1010", `User \`${target.user}\` was denied access on the database \`${target.database}\``, {
        database_user: target.user,
        database_name: target.database,
      });
    case "42P04":
      return userFacing("P1009", `Database \`${target.database}\` already exists on the database server at \`${at}\``, {
        database_name: target.database,
        database_host: target.host,
        database_port: Number(target.port),
      });
    default:
      return null;
  }
}

function isWasmPanic(error) {
  return error instanceof WebAssembly.RuntimeError || error?.name === "RuntimeError";
}

/** The `data` of a JSON-RPC error, in the shape the CLI reads (`message`, `error_code`, `is_panic`). */
function errorData(error) {
  if (isWasmPanic(error)) {
    const message = panicRegistry.message || String(error?.message ?? error);
    return { is_panic: true, message, backtrace: error?.stack };
  }
  const errorCode = error?.errorCode ?? error?.code;
  if (typeof errorCode === "string" && /^P\d{4}$/.test(errorCode)) {
    return { is_panic: false, message: error.message, meta: error.meta ?? {}, error_code: errorCode };
  }
  return { is_panic: false, message: String(error?.message ?? error), backtrace: error?.stack };
}

// ---------------------------------------------------------------------------------------------------
// One-shot commands: `cli can-connect-to-database`, `cli create-database`, `cli drop-database`
// ---------------------------------------------------------------------------------------------------

async function canConnectToDatabase(target) {
  await withClient(target, (client) => client.query("SELECT 1"));
  return "Connection successful";
}

async function createDatabase(target) {
  try {
    await withMaintenanceClient(target, (client) => client.query(`CREATE DATABASE ${quoteIdent(target.database)}`));
  } catch (error) {
    throw toUserFacingError(error, target) ?? userFacing("P3000", `Failed to create database: ${error.message}`);
  }
  return target.database;
}

async function dropDatabase(target) {
  await withMaintenanceClient(target, (client) => dropDatabaseWith(client, target.database));
  return "The database was successfully dropped.";
}

/** Runs `work` connected to the server's `postgres` (or `template1`) database, mapping errors. */
async function withMaintenanceClient(target, work) {
  let lastError;
  for (const database of ["postgres", "template1"]) {
    try {
      return await withClient(onDatabase(target, database), work);
    } catch (error) {
      if (error?.errorCode !== "P1003") throw toUserFacingError(error, target) ?? error;
      lastError = error;
    }
  }
  throw lastError;
}

async function dropDatabaseWith(client, database) {
  try {
    await client.query(`DROP DATABASE IF EXISTS ${quoteIdent(database)} WITH (FORCE)`);
  } catch (error) {
    if (error?.code !== "42601") throw error; // PostgreSQL < 13 has no WITH (FORCE).
    await client.query(`DROP DATABASE IF EXISTS ${quoteIdent(database)}`);
  }
}

const CLI_COMMANDS = {
  "can-connect-to-database": canConnectToDatabase,
  "create-database": async (target) => `Database '${await createDatabase(target)}' was successfully created.`,
  "drop-database": dropDatabase,
};

async function runCliCommand(command, datasource) {
  // The CLI skips the first stderr line: the native engine writes its start-up line there.
  log("INFO", { message: "Starting schema engine CLI", git_hash: engineVersion() });
  try {
    const run = CLI_COMMANDS[command];
    if (!run) throw new Error(`Unknown cli command \`${command}\``);
    const target = describeDatabase(datasource?.url);
    log("INFO", { message: await run(target) });
    return 0;
  } catch (error) {
    const data = errorData(toUserFacingError(error, safeTarget(datasource)) ?? error);
    log("ERROR", { is_panic: false, error_code: data.error_code ?? "", message: data.message }, "schema_engine::logger");
    return 1;
  }
}

/** A target for error messages even when the URL is unusable. */
function safeTarget(datasource) {
  try {
    return describeDatabase(datasource?.url);
  } catch {
    return { host: "localhost", port: "5432", database: "", user: "" };
  }
}

// ---------------------------------------------------------------------------------------------------
// The driver adapter factory handed to the Wasm engine
// ---------------------------------------------------------------------------------------------------

/** Adapters not yet fully disposed (main and shadow): disposed, or waited for, on shutdown. */
const openAdapters = new Set();

/**
 * Connects an adapter-pg adapter to `target`, scoped to its schema, with our two fixes: catalog types as
 * the engine expects them (src/catalog-types.mjs) and migration scripts sent as one query.
 */
async function connectAdapter(target, { afterDispose } = {}) {
  const pool = new pg.Pool({ connectionString: urlWithSearchPath(target), Client: CatalogAwareClient, max: 4 });
  pool.on("error", (error) => log("WARN", { message: `idle connection error: ${error.message}` }));
  const adapter = reportCharColumns(await new PrismaPg(pool, { schema: target.schema, disposeExternalPool: true }).connect());
  adapter.executeScript = async (script) => {
    // Empty args: pg uses the simple query protocol, which runs a multi-statement script as one query.
    await adapter.executeRaw({ sql: script, args: [], argTypes: [] });
  };
  const release = adapter.dispose.bind(adapter);
  let disposal;
  // Idempotent, and tracked until done, so that shutdown waits for a shadow database being dropped.
  adapter.dispose = () =>
    (disposal ??= (async () => {
      try {
        await release();
        await afterDispose?.();
      } finally {
        openAdapters.delete(adapter);
      }
    })());
  openAdapters.add(adapter);
  return adapter;
}

/**
 * The shadow database for `migrate dev`/`diff`: the configured `shadowDatabaseUrl` (its service schema
 * reset first), or a fresh `prisma_shadow_<uuid>` database dropped when the engine disposes it.
 */
async function connectShadowAdapter(target, shadowDatabaseUrl) {
  if (shadowDatabaseUrl) {
    const shadow = describeDatabase(shadowDatabaseUrl, target.schema);
    await withClient(shadow, (client) => resetSchema(client, shadow.schema));
    return connectAdapter(shadow);
  }
  const name = `prisma_shadow_${randomUUID()}`;
  const shadow = onDatabase(target, name);
  await createShadowDatabase(target, shadow);
  try {
    return await connectAdapter(shadow, { afterDispose: () => dropShadowDatabase(target, name) });
  } catch (error) {
    await dropShadowDatabase(target, name);
    throw error;
  }
}

async function createShadowDatabase(target, shadow) {
  try {
    await withClient(target, (client) => client.query(`CREATE DATABASE ${quoteIdent(shadow.database)}`));
    if (shadow.schema !== "public") {
      await withClient(shadow, (client) => client.query(`CREATE SCHEMA IF NOT EXISTS ${quoteIdent(shadow.schema)}`));
    }
  } catch (error) {
    // A plain JS error reaches the CLI as "External error id#0": hand the engine a database error.
    throw new DriverAdapterError({
      kind: "postgres",
      code: error.code ?? "N/A",
      severity: error.severity ?? "ERROR",
      message: `Prisma Migrate could not create the shadow database. Please make sure the database user has permission to create databases. Read more about the shadow database (and workarounds) at https://pris.ly/d/migrate-shadow\n\nOriginal error: ${(toUserFacingError(error, target) ?? error).message}`,
    });
  }
}

async function dropShadowDatabase(target, name) {
  try {
    await withClient(target, (client) => dropDatabaseWith(client, name));
  } catch (error) {
    log("WARN", { message: `could not drop the shadow database ${name}: ${error.message}` });
  }
}

async function resetSchema(client, schema) {
  await client.query(`DROP SCHEMA IF EXISTS ${quoteIdent(schema)} CASCADE; CREATE SCHEMA ${quoteIdent(schema)}`);
}

/** The factory the Wasm engine calls: `connect()` for the main database, `connectToShadowDb()`. */
function createAdapterFactory(target, shadowDatabaseUrl) {
  const factory = new PrismaPg({ connectionString: target.url }, { schema: target.schema });
  return bindMigrationAwareSqlAdapterFactory({
    provider: factory.provider,
    adapterName: factory.adapterName,
    connect: () => connectAdapter(target),
    connectToShadowDb: () => connectShadowAdapter(target, shadowDatabaseUrl),
  });
}

// ---------------------------------------------------------------------------------------------------
// The Wasm engine
// ---------------------------------------------------------------------------------------------------

/** Receives the reason of a Wasm panic (the engine calls `global.PRISMA_WASM_PANIC_REGISTRY.set_message`). */
const panicRegistry = {
  message: "",
  set_message(message) {
    this.message = message;
  },
};

/** Instantiates the Wasm module with its JS glue (the package's own entry point needs Wasm ESM imports). */
async function loadWasmEngine() {
  globalThis.PRISMA_WASM_PANIC_REGISTRY = panicRegistry;
  const wasmUrl = new URL("./schema_engine_bg.wasm", import.meta.resolve("@prisma/schema-engine-wasm/schema_engine_bg"));
  const { instance } = await WebAssembly.instantiate(readFileSync(fileURLToPath(wasmUrl)), {
    "./schema_engine_bg.js": wasmBindings,
  });
  wasmBindings.__wbg_set_wasm(instance.exports);
  instance.exports.__wbindgen_start();
  return wasmBindings.SchemaEngine;
}

/** The `--datamodels` files as `[path, content]` pairs; `undefined` when none (an empty list crashes). */
function readDatamodels(paths) {
  if (paths.length === 0) return undefined;
  return paths.map((path) => [path, readFileSync(path, "utf8")]);
}

async function createEngine({ datasource, datamodels }) {
  const target = describeDatabase(datasource?.url);
  const SchemaEngine = await loadWasmEngine();
  const adapterFactory = createAdapterFactory(target, datasource?.shadowDatabaseUrl);
  try {
    return await SchemaEngine.new({ datamodels: readDatamodels(datamodels) }, forwardEngineLog, adapterFactory);
  } catch (error) {
    if (isWasmPanic(error)) throw error;
    // The Wasm engine's connection errors carry no error code: find out what is wrong ourselves.
    throw (await diagnoseConnection(target)) ?? error;
  }
}

/** Why the target cannot be used, as a user-facing error; null when a connection works. */
async function diagnoseConnection(target) {
  try {
    await canConnectToDatabase(target);
    return null;
  } catch (error) {
    return toUserFacingError(error, target);
  }
}

// ---------------------------------------------------------------------------------------------------
// JSON-RPC server
// ---------------------------------------------------------------------------------------------------

function send(message) {
  process.stdout.write(`${JSON.stringify({ jsonrpc: "2.0", ...message })}\n`);
}

/** Requests we sent to the CLI (only `print`), waiting for its answer. */
const pendingClientCalls = new Map();
let nextClientCallId = 1;

function callClient(method, params) {
  const id = nextClientCallId++;
  return new Promise((resolve) => {
    pendingClientCalls.set(id, resolve);
    send({ id, method, params });
  });
}

function onClientAnswer(message) {
  const resolve = pendingClientCalls.get(message.id);
  pendingClientCalls.delete(message.id);
  resolve?.(message.result);
}

/**
 * The CLI prints the diff itself when asked through a `print` request (as the native engine does);
 * the Wasm engine returns it in `stdout` instead.
 */
async function diff(engine, params) {
  const { exitCode, stdout } = await engine.diff(params);
  if (typeof stdout === "string" && stdout.length > 0) {
    await callClient("print", { content: stdout.endsWith("\n") ? stdout.slice(0, -1) : stdout });
  }
  return { exitCode };
}

/** The migrations list `diagnoseMigrationHistory` last warmed the shadow schema for. */
let warmedMigrations;

/**
 * `evaluateDataLoss` and `createMigration` read the shadow schema of the migrations from the engine's
 * cache, which only `diagnoseMigrationHistory` with the shadow database fills: warm it once per list.
 */
async function warmMigrationCache(engine, { migrationsList, filters }) {
  const key = JSON.stringify(migrationsList);
  if (key === warmedMigrations) return;
  await engine.diagnoseMigrationHistory({ migrationsList, optInToShadowDatabase: true, filters });
  warmedMigrations = key;
}

/** Methods that need no engine (nor a connection to the main database). */
const ENGINELESS_METHODS = {
  // `datasource` is a URL container or the schema files; Prisma 7 schemas carry no URL: use --datasource.
  createDatabase: async (params, options) => {
    const url = params?.datasource?.url ?? options.datasource?.url;
    return { databaseName: await createDatabase(describeDatabase(url)) };
  },
};

/** Methods whose name, parameters or result differ from the Wasm engine's. */
const SPECIAL_METHODS = {
  diff,
  getDatabaseVersion: (engine) => engine.version(),
  evaluateDataLoss: async (engine, params) => {
    await warmMigrationCache(engine, params);
    return engine.evaluateDataLoss(params);
  },
  createMigration: async (engine, params) => {
    await warmMigrationCache(engine, params);
    return engine.createMigration(params);
  },
  diagnoseMigrationHistory: async (engine, params) => {
    const result = await engine.diagnoseMigrationHistory(params);
    if (params?.optInToShadowDatabase) warmedMigrations = JSON.stringify(params.migrationsList);
    return result;
  },
  debugPanic: (engine) => engine.debugPanic(),
};

/** Methods passed through unchanged. */
const ENGINE_METHODS = new Set([
  "applyMigrations",
  "dbExecute",
  "devDiagnostic",
  "ensureConnectionValidity",
  "introspect",
  "introspectSql",
  "markMigrationApplied",
  "markMigrationRolledBack",
  "reset",
  "schemaPush",
]);

/** Set once the Wasm engine panicked: no engine method is safe to call after that. */
let panic;

async function invoke({ getEngine, options }, method, params) {
  if (ENGINELESS_METHODS[method]) return ENGINELESS_METHODS[method](params, options);
  const special = SPECIAL_METHODS[method];
  if (!special && !ENGINE_METHODS.has(method)) {
    throw Object.assign(new Error(`Method not found: ${method}`), { rpcCode: -32601 });
  }
  if (panic) throw panic;
  const engine = await getEngine();
  const result = special ? await special(engine, params) : await engine[method](params);
  return result ?? {};
}

/**
 * The request being handled (one at a time). A panic inside the engine's async work (e.g. the describer,
 * after a query) surfaces as an uncaught exception and leaves its promise pending forever: `onPanic` then
 * answers this request. Unanswered, the CLI may see the engine exit and still end with status 0 and no
 * output, as if the command had succeeded.
 */
let pendingRequest;

async function handleRequest(session, request) {
  pendingRequest = request;
  let result;
  try {
    result = await invoke(session, request.method, request.params);
  } catch (error) {
    pendingRequest = undefined;
    sendError(request.id, error);
    if (errorData(error).is_panic) onPanic(error);
    return;
  }
  pendingRequest = undefined;
  send({ id: request.id, result });
}

function sendError(id, error) {
  const data = errorData(error);
  // The CLI shows `error.message` for a panic, and `data.message` (with `data.error_code`) otherwise.
  const message = error?.rpcCode || data.is_panic ? data.message : "An error happened. Check the data field for details.";
  send({ id, error: { code: error?.rpcCode ?? 4466, message, data } });
}

/** Reads requests line by line and answers them one at a time, in order. */
async function serveJsonRpc(options) {
  let enginePromise;
  const session = { options, getEngine: () => (enginePromise ??= createEngine(options)) };
  let queue = Promise.resolve();
  const lines = createInterface({ input: process.stdin, crlfDelay: Infinity });
  lines.on("line", (line) => {
    if (!line.trim()) return;
    let message;
    try {
      message = JSON.parse(line);
    } catch {
      send({ id: null, error: { code: -32700, message: "Parse error" } });
      return;
    }
    if (message.method === undefined) return onClientAnswer(message);
    queue = queue.then(() => handleRequest(session, message));
  });
  await new Promise((resolve) => lines.once("close", resolve));
  await queue;
}

// ---------------------------------------------------------------------------------------------------
// Process lifecycle
// ---------------------------------------------------------------------------------------------------

/** Closes the pools and drops the shadow databases the engine left open. */
async function disposeAll() {
  await Promise.allSettled([...openAdapters].map((adapter) => adapter.dispose()));
}

async function exit(code) {
  await disposeAll();
  process.exit(code);
}

/** After a panic no engine method is safe: answer the pending request with it, log it, exit as the native engine. */
function onPanic(error) {
  if (panic) return;
  panic = error;
  if (pendingRequest) {
    sendError(pendingRequest.id, error);
    pendingRequest = undefined;
  }
  log("ERROR", { is_panic: true, message: panicRegistry.message || String(error?.message ?? error), backtrace: error?.stack });
  void exit(101);
}

async function main() {
  routeNodeWarningsToLog();
  const args = parseArgs(process.argv.slice(2));
  if (args.version) {
    process.stdout.write(`schema-engine-cli ${engineVersion()}\n`);
    return exit(0);
  }
  if (args.cliCommand) return exit(await runCliCommand(args.cliCommand, args.datasource));

  process.on("uncaughtException", onPanic);
  process.on("unhandledRejection", onPanic);
  for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => void exit(0));
  log("INFO", { message: "Starting schema engine RPC server", git_hash: engineVersion() });
  try {
    await serveJsonRpc(args);
  } catch (error) {
    return onPanic(error);
  }
  return exit(0);
}

await main();
