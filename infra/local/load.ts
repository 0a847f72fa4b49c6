/**
 * Clients of the rehearsal: MCP clients spread over the gateways, each writing scripts with its own idempotency
 * keys and retrying a failed create with the same key until it succeeds. What every call came to is recorded,
 * so the caller can tell what an outage cost (infra/test/rehearsal.test.ts, infra/local/bench.ts).
 */
import { randomUUID } from "node:crypto";
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { McpError } from "@modelcontextprotocol/sdk/types.js";
import { connectClient, type ErrorData } from "@bancada/testkit";

export const repo = fileURLToPath(new URL("../..", import.meta.url));

export interface ClusterFile {
  gateways: string[];
  nats: { url: string; pid: number; monitor: string; log: string }[];
  processes: { component: string; n: number; pid: number; url: string; log: string; env: Record<string, string> }[];
  apiKey: string;
  auth: boolean;
  /** The CA the NATS servers' certificates chain to (null: the rehearsal ran without TLS). */
  tls: { caFile: string; /** the name the servers' certificate carries, where clients reach them by address */ serverName?: string } | null;
  root: string;
}

/** Runs `node infra/local/cluster.mjs <args>`; resolves with its output, rejects when it fails or outlasts `timeoutMs`. */
export function runCluster(args: string[], env: NodeJS.ProcessEnv, timeoutMs: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [path.join(repo, "infra/local/cluster.mjs"), ...args], { cwd: repo, env });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
    const timer = setTimeout(() => child.kill("SIGTERM"), timeoutMs);
    child.once("exit", (code) => {
      clearTimeout(timer);
      if (code === 0) resolve(output);
      else reject(new Error(`cluster.mjs ${args[0]} exited with ${code}:\n${output}`));
    });
  });
}

export function readCluster(dir: string): ClusterFile {
  return JSON.parse(readFileSync(path.join(dir, "cluster.json"), "utf8")) as ClusterFile;
}

/** How one call ended: ok, a tool error with its code, or the connection to the gateway failing. */
export type Outcome =
  { kind: "ok"; data: Record<string, unknown> } | { kind: "error"; code: string; message: string } | { kind: "transport"; message: string };

export async function call(
  client: Client,
  tool: string,
  args: Record<string, unknown>,
  options: { timeoutMs?: number; signal?: AbortSignal } = {},
): Promise<Outcome> {
  try {
    const result = await client.callTool({ name: tool, arguments: args }, undefined, {
      timeout: options.timeoutMs ?? 60_000,
      ...(options.signal ? { signal: options.signal } : {}),
    });
    const text = (result.content as { type: string; text?: string }[])[0]?.text ?? "";
    const data = (result.structuredContent ?? JSON.parse(text)) as Record<string, unknown>;
    if (result.isError !== true) return { kind: "ok", data };
    const error = (data as unknown as ErrorData).error;
    return { kind: "error", code: error.code, message: error.message };
  } catch (error) {
    if (options.signal?.aborted) return { kind: "transport", message: `connection lost: ${String(options.signal.reason)}` };
    // a JSON-RPC error is the gateway answering (or the client giving up): never an outage's retryable failure
    if (error instanceof McpError) return { kind: "error", code: `mcp_${error.code}`, message: error.message };
    return { kind: "transport", message: (error as Error).message };
  }
}

/** One MCP client that moves to the next gateway when its own stops answering. */
export class Caller {
  #client: Client | undefined;
  #index: number;
  readonly moves: string[] = [];
  constructor(
    readonly gateways: string[],
    readonly apiKey: string,
    index: number,
  ) {
    this.#index = index % gateways.length;
  }

  get gateway(): string {
    return this.gateways[this.#index]!;
  }

  /**
   * The SDK leaves a call waiting for its timeout when the gateway's response stream breaks: the client's
   * `onerror` (the stream disconnected) ends every call in flight on that connection as a transport failure.
   */
  #inFlight = new Set<AbortController>();

  async client(): Promise<Client> {
    if (!this.#client) {
      const client = await connectClient(this.gateway, this.apiKey);
      const inFlight = new Set<AbortController>();
      client.onerror = (error) => inFlight.forEach((controller) => controller.abort(error.message));
      this.#client = client;
      this.#inFlight = inFlight;
    }
    return this.#client;
  }

  /** A call; on a transport error it moves to the next gateway (the outcome still says what happened). */
  async call(tool: string, args: Record<string, unknown>, timeoutMs?: number): Promise<Outcome> {
    let outcome: Outcome;
    const controller = new AbortController();
    try {
      const client = await this.client();
      const inFlight = this.#inFlight;
      inFlight.add(controller);
      outcome = await call(client, tool, args, { ...(timeoutMs ? { timeoutMs } : {}), signal: controller.signal }).finally(() =>
        inFlight.delete(controller),
      );
    } catch (error) {
      outcome = { kind: "transport", message: `connect: ${(error as Error).message}` };
    }
    if (outcome.kind === "transport") await this.move();
    return outcome;
  }

  async move(): Promise<void> {
    const old = this.#client;
    this.#client = undefined;
    await old?.close().catch(() => {});
    this.moves.push(this.gateway);
    this.#index = (this.#index + 1) % this.gateways.length;
  }

  async close(): Promise<void> {
    await this.#client?.close().catch(() => {});
  }
}

export interface Attempt {
  key: string;
  at: number;
  ms: number;
  gateway: string;
  outcome: Outcome["kind"];
  code?: string;
  message?: string;
}

export interface WriteLog {
  /** idempotency key → the script id of its acknowledged create */
  acknowledged: Map<string, string>;
  attempts: Attempt[];
  /** keys that never succeeded within the bounds */
  abandoned: string[];
}

/**
 * `workers` callers write until `stop()` says so; each create is retried with its key until it succeeds
 * (`maxAttempts`, with a short pause), so every key ends acknowledged or abandoned.
 */
export async function writeUnderLoad(options: {
  gateways: string[];
  apiKey: string;
  workers: number;
  tag: string;
  stop: () => boolean;
  maxAttempts?: number;
  log?: WriteLog;
}): Promise<WriteLog> {
  const log: WriteLog = options.log ?? { acknowledged: new Map(), attempts: [], abandoned: [] };
  const maxAttempts = options.maxAttempts ?? 60;
  const worker = async (index: number) => {
    const caller = new Caller(options.gateways, options.apiKey, index);
    try {
      while (!options.stop()) {
        const key = randomUUID();
        let done = false;
        for (let attempt = 0; attempt < maxAttempts && !done; attempt++) {
          const started = Date.now();
          const gateway = caller.gateway;
          const outcome = await caller.call("create_script", {
            title: `${options.tag} ${key}`,
            text: `written by worker ${index} of the rehearsal`,
            idempotencyKey: key,
          });
          const entry: Attempt = { key, at: started, ms: Date.now() - started, gateway, outcome: outcome.kind };
          if (outcome.kind === "ok") {
            log.acknowledged.set(key, (outcome.data.script as { id: string }).id);
            done = true;
          } else {
            entry.code = outcome.kind === "error" ? outcome.code : "transport";
            entry.message = outcome.message;
            await new Promise((resolve) => setTimeout(resolve, 200));
          }
          log.attempts.push(entry);
        }
        if (!done) log.abandoned.push(key);
      }
    } finally {
      await caller.close();
    }
  };
  await Promise.all(Array.from({ length: options.workers }, (_, index) => worker(index)));
  return log;
}

/** Every script whose title starts with `tag`, through list_scripts pages. */
export async function listTagged(client: Client, tag: string): Promise<{ id: string; title: string }[]> {
  const found: { id: string; title: string }[] = [];
  for (let offset = 0; offset < 100_000; offset += 100) {
    const outcome = await call(client, "list_scripts", { query: tag, limit: 100, offset });
    if (outcome.kind !== "ok") throw new Error(`list_scripts failed: ${JSON.stringify(outcome)}`);
    const page = outcome.data as { scripts: { id: string; title: string }[]; hasMore: boolean };
    found.push(...page.scripts.filter((item) => item.title.startsWith(tag)));
    if (!page.hasMore) break;
  }
  return found;
}

export function percentile(values: number[], p: number): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}
