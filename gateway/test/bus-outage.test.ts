/**
 * The gateway when the bus fails under it, on a nats-server of this file's own (it is killed and restarted):
 * NATS down → every call answers `unavailable` (never `internal`), and calls succeed again once it is back with no
 * restart of anything; a service process killed -9 mid-call → that call answers `unavailable` within seconds (its
 * heartbeats stopped), not at its deadline; a long call whose service lives on → its answer. The bus's metrics are
 * read from /metrics.
 */
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { Router } from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import {
  callTool,
  captureLogs,
  connectClient,
  natsServerPresent,
  startNatsServer,
  startStack,
  type ErrorData,
  type ServiceFactory,
  type Stack,
  type TestNatsServer,
} from "@bancada/e2e";
import { echoFactory, waitCalls } from "./fixtures.js";

interface Outcome {
  code: string;
  message: string;
  tookMs: number;
}

async function echoOutcome(client: Client, message: string): Promise<Outcome> {
  const started = Date.now();
  const result = await callTool<ErrorData & { message: string }>(client, "echo", { message });
  const tookMs = Date.now() - started;
  if (!result.isError) return { code: "ok", message: result.data.message, tookMs };
  return { code: result.data.error.code, message: result.data.error.message, tookMs };
}

async function metricsOf(stack: Stack): Promise<string> {
  return (await fetch(`${stack.baseUrl}/metrics`)).text();
}

/** The value of one sample of the scrape, e.g. `bancada_bus_requests_in_flight{service="echo",operation="call"}`. */
function sample(scrape: string, name: string, labels: Record<string, string>): number | undefined {
  for (const line of scrape.split("\n")) {
    if (!line.startsWith(`${name}{`)) continue;
    const body = line.slice(name.length + 1, line.lastIndexOf("}"));
    if (Object.entries(labels).every(([key, value]) => body.includes(`${key}="${value}"`))) return Number(line.split(" ").at(-1));
  }
  return undefined;
}

describe.skipIf(!natsServerPresent)("the gateway while its NATS server is down (skipped without nats-server)", () => {
  let nats: TestNatsServer;
  let stack: Stack;
  let client: Client;
  const logs = captureLogs("info");

  beforeAll(async () => {
    nats = await startNatsServer();
    stack = await startStack({ services: { echo: echoFactory }, natsUrl: nats.url, log: logs.log });
    client = await connectClient(stack.mcpUrl, await stack.createKey({ scopes: ["docs:read"] }));
  }, 120_000);
  afterAll(async () => {
    await client?.close();
    await stack?.stop();
    await nats?.kill();
  });

  it("when NATS is killed for 4 s while calls are made, then every call answers ok or unavailable (never internal, never a wait for the deadline), a long call in flight too, and calls succeed again once it is back on the same port", async () => {
    const outcomes: (Outcome & { at: number })[] = [];
    let calling = true;
    let n = 0;
    const caller = (async () => {
      while (calling) {
        const at = Date.now();
        outcomes.push({ at, ...(await echoOutcome(client, `m${++n}`)) });
        await sleep(100);
      }
    })();
    await sleep(1_000);
    // a long call in flight when NATS dies: its reply can no longer come back, so it must not wait for its deadline
    const long = (async () => {
      const result = await callTool<ErrorData>(client, "wait", { ms: 10_000 });
      return { code: result.isError ? result.data.error.code : "ok", at: Date.now() };
    })();
    await sleep(500);
    const killedAt = Date.now();
    await nats.kill();
    await sleep(4_000);
    await nats.restart();
    const restartedAt = Date.now();
    // until a few calls in a row succeed again (the bus reconnects by itself), at most 20 s
    while (Date.now() - restartedAt < 20_000 && !outcomes.slice(-5).every((o) => o.code === "ok" && o.at > restartedAt)) await sleep(200);
    calling = false;
    await caller;

    const longOutcome = await long;
    expect(longOutcome.code).toBe("unavailable");
    expect(longOutcome.at - killedAt).toBeLessThan(6_000); // the outage grace is 2 s; the wait tool's deadline 15 s
    // the service, which lived through the outage, was told to stop the call nobody waited for any more
    expect(waitCalls.at(-1)?.aborted).toBe(true);

    const codes = new Set(outcomes.map((o) => o.code));
    expect([...codes].filter((code) => code !== "ok" && code !== "unavailable")).toEqual([]);
    const down = outcomes.filter((o) => o.code === "unavailable");
    expect(down.length).toBeGreaterThan(0);
    expect(down.every((o) => o.message.includes("retry"))).toBe(true);
    expect(down.some((o) => o.message.startsWith("The message bus is unreachable"))).toBe(true);
    // none waited for the echo tool's deadline (35 s): the outage grace (2 s) plus a loaded machine's slack
    expect(Math.max(...outcomes.map((o) => o.tookMs))).toBeLessThan(8_000);
    expect(outcomes.some((o) => o.at > killedAt + 2_500 && o.at < restartedAt && o.code === "unavailable")).toBe(true);
    expect(outcomes.slice(-5).every((o) => o.code === "ok" && o.at > restartedAt)).toBe(true);

    // one line per change of state, not one per call
    const messages = logs.lines().map((line) => String(line.msg));
    expect(messages.filter((m) => m.startsWith("NATS connection lost")).length).toBe(1);
    expect(messages.filter((m) => m.startsWith("NATS unreachable")).length).toBe(1);
    expect(messages.filter((m) => m.startsWith("NATS reconnected")).length).toBe(1);
    expect(logs.text()).not.toContain("max_payload");

    const scrape = await metricsOf(stack);
    expect(
      sample(scrape, "bancada_bus_request_failures_total", { service: "echo", operation: "call", reason: "unreachable" }),
    ).toBeGreaterThan(0);
    expect(sample(scrape, "bancada_service_errors_total", { service: "echo", code: "unavailable" })).toBe(down.length + 1);
    expect(sample(scrape, "bancada_bus_request_duration_seconds_count", { service: "echo", operation: "call" })).toBeGreaterThan(0);
  }, 90_000);
});

describe.skipIf(!natsServerPresent)("a service process killed -9 while it runs a call (skipped without nats-server)", () => {
  let nats: TestNatsServer;
  let stack: Stack;
  let client: Client;
  let echo: ChildProcessWithoutNullStreams | undefined;

  /** The echo service in a process of its own (fixtures/echo-process.ts), on the stack's NATS and subject root. */
  const echoProcess: ServiceFactory = async ({ bus, subjects }) => {
    const child = spawn(process.execPath, ["--import", "tsx", path.join(import.meta.dirname, "fixtures/echo-process.ts")], {
      env: {
        ...process.env,
        ECHO_NATS_URL: nats.url,
        ECHO_VERIFY_KEY: bus.keys.only(["echo"]).export().verifyKey,
        ECHO_SUBJECT_ROOT: subjects.authResolve.replace(/\.auth\.resolve$/, ""),
      },
    });
    echo = child;
    const orphanGuard = () => child.kill("SIGKILL");
    process.once("exit", orphanGuard);
    let output = "";
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`the echo process did not start: ${output}`)), 90_000);
      const read = (chunk: Buffer) => {
        output += chunk.toString();
        if (!output.includes("ready\n")) return;
        clearTimeout(timer);
        resolve();
      };
      child.stdout.on("data", read);
      child.stderr.on("data", read);
      child.once("exit", (code) => reject(new Error(`the echo process exited with ${code}: ${output}`)));
    });
    return {
      name: "echo",
      routes: Router(),
      stop: async () => {
        process.removeListener("exit", orphanGuard);
        if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
      },
    };
  };

  beforeAll(async () => {
    nats = await startNatsServer();
    stack = await startStack({ services: { echo: echoProcess }, natsUrl: nats.url });
    client = await connectClient(stack.mcpUrl, await stack.createKey({ scopes: ["docs:read"] }));
  }, 180_000);
  afterAll(async () => {
    await client?.close();
    await stack?.stop();
    await nats?.kill();
  });

  it("when the call runs longer than five heartbeats and the process lives, then the call answers with its result", async () => {
    const started = Date.now();
    const pending = callTool<{ waited: number }>(client, "wait", { ms: 7_000 });
    await sleep(1_500);
    const scrape = await metricsOf(stack);
    expect(sample(scrape, "bancada_bus_requests_in_flight", { service: "echo", operation: "call" })).toBe(1);
    const result = await pending;
    expect(result.isError).toBe(false);
    expect(result.data.waited).toBe(7_000);
    expect(Date.now() - started).toBeGreaterThanOrEqual(7_000);
    expect(sample(await metricsOf(stack), "bancada_bus_requests_in_flight", { service: "echo", operation: "call" })).toBe(0);
  }, 60_000);

  it("when NATS restarts, then the service process subscribes again by itself and its calls succeed with no restart", async () => {
    expect((await echoOutcome(client, "before")).code).toBe("ok");
    await nats.kill();
    await sleep(3_000);
    await nats.restart();
    const restartedAt = Date.now();
    let outcome = await echoOutcome(client, "after");
    while (outcome.code !== "ok" && Date.now() - restartedAt < 20_000) {
      expect(outcome.code).toBe("unavailable");
      await sleep(200);
      outcome = await echoOutcome(client, "after");
    }
    expect(outcome).toMatchObject({ code: "ok", message: "after" });
  }, 60_000);

  it("when the process running the call is killed -9, then the call answers unavailable within seconds (not at its 15 s deadline), saying to retry with the same idempotency key", async () => {
    const lost = { service: "echo", operation: "call", reason: "responder_lost" };
    const unavailable = { service: "echo", code: "unavailable" };
    const before = await metricsOf(stack);
    const pending = callTool<ErrorData>(client, "wait", { ms: 10_000 });
    await sleep(1_500);
    const killedAt = Date.now();
    echo!.kill("SIGKILL");
    const result = await pending;
    const afterKillMs = Date.now() - killedAt;
    expect(result.isError).toBe(true);
    expect(result.data.error.code).toBe("unavailable");
    expect(result.data.error.details).toEqual({ service: "echo", lost: true });
    expect(result.data.error.message).toMatch(/stopped answering .*retry it, with the same idempotency key/);
    // the silence limit is 3 s; the rest is a loaded machine's slack, far below the deadline
    expect(afterKillMs).toBeLessThan(7_000);
    const after = await metricsOf(stack);
    const grew = (name: string, labels: Record<string, string>) => (sample(after, name, labels) ?? 0) - (sample(before, name, labels) ?? 0);
    expect(grew("bancada_bus_request_failures_total", lost)).toBe(1);
    expect(grew("bancada_service_errors_total", unavailable)).toBe(1);
  }, 60_000);
});
