/**
 * The whole of Bancada in this test process, as `bancada start` runs it (cli/src/runtime.ts): every service and
 * the gateway on one port, a fresh database, the in-process bus, the rate limit lifted. For tests that need every
 * route and every tool at once.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { freshDatabase } from "@bancada/testkit";
import { loadEnv } from "../src/env.js";
import { startRuntime, type Runtime } from "../src/runtime.js";

export interface InProcess {
  runtime: Runtime;
  baseUrl: string;
  mcpUrl: string;
  /** A key of account `acct-fuzz` with every scope and writes allowed. */
  key: string;
  stop(): Promise<void>;
}

export async function startInProcess(): Promise<InProcess> {
  const database = await freshDatabase("bancada_inproc");
  const dataDir = await mkdtemp(path.join(tmpdir(), "bancada-inproc-"));
  const { NATS_URL: _nats, ...rest } = process.env;
  const env = loadEnv({
    ...rest,
    DATABASE_URL: database.url,
    PORT: "0",
    LOG_LEVEL: process.env.LOG_LEVEL ?? "silent",
    BANCADA_DATA_DIR: dataDir,
    BANCADA_KEY_PEPPER: "in-process-test-pepper",
    BOXES_SECRETS_KEY: Buffer.alloc(32, "in-process-secrets").toString("base64"),
    DOCS_INGEST_ACCOUNTS: "acct-fuzz",
    BANCADA_RATE_BURST: "1000000",
    BANCADA_RATE_PER_SEC: "1000000",
  });
  const runtime = await startRuntime({ env });
  const mcpUrl = runtime.mcpUrl!;
  const { key } = await runtime.gateway!.keys.create({
    accountId: "acct-fuzz",
    personId: "person-fuzz",
    agentId: "fuzz",
    scopes: [...runtime.gateway!.keys.scopes],
    allowWrites: true,
    allowedBoardIds: null,
  });
  return {
    runtime,
    mcpUrl,
    baseUrl: mcpUrl.replace(/\/mcp$/, ""),
    key,
    async stop() {
      await runtime.stop();
      await rm(dataDir, { recursive: true, force: true });
      await database.drop();
    },
  };
}
