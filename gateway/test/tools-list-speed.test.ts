/**
 * tools/list with the whole catalog (every service's descriptors, served by a stand-in service from the
 * catalog snapshot) stays fast: the list per access is built once per catalog version (listed-tools.ts).
 * Prints p50/p99 of sequential raw requests in both eras.
 *
 * The time is asserted on what a loaded machine distorts least: the gateway's CPU time per request, with the
 * client in a child process so that this process's CPU is the server's alone (a request's p50 cannot be under
 * its CPU time). On a machine busier than its cores (load average over the core count) the processes share
 * caches and cores and the bound grows in proportion (bound × load ÷ cores). The wall-clock p50, read on the
 * gateway's HTTP server from a request's arrival to its last byte written, is printed, and asserted only on a
 * quiet machine: on a shared one whole processes wait for a core for milliseconds at a time.
 *
 * The bound is the goal, 2 ms: the route answers tools/list itself (http/mcp-fast-path.ts) with the list's JSON
 * written once per list, where the SDK's per-request server, transport and web Request/Response cost about 5.7 ms
 * of CPU per request before. The 2025-era request is the one a 1.x client sends, the 2026-07-28 one a v2 client's.
 */
import { spawn } from "node:child_process";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import { Router } from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { encodeJson, signReply } from "@bancada/service-kit";
import { startStack, type ServiceFactory, type Stack } from "@bancada/e2e";
import catalog from "./fixtures/catalog.json" with { type: "json" };
import { scriptsFactory } from "./fixtures.js";
import { modernVersion } from "./mcp-clients.js";

/** A raw tools/list request of one era: the body and the headers beside the key and content type. */
const eraRequest = (era: string): { body: unknown; headers: Record<string, string> } =>
  era === modernVersion
    ? {
        body: {
          jsonrpc: "2.0",
          id: 1,
          method: "tools/list",
          params: {
            _meta: {
              "io.modelcontextprotocol/protocolVersion": modernVersion,
              "io.modelcontextprotocol/clientCapabilities": {},
              "io.modelcontextprotocol/clientInfo": { name: "t", version: "1" },
            },
          },
        },
        headers: { "mcp-protocol-version": modernVersion, "mcp-method": "tools/list" },
      }
    : { body: { jsonrpc: "2.0", id: 1, method: "tools/list", params: {} }, headers: {} };

/** Every tool of the snapshot but the scripts service's own (served for real next to it). */
const catalogFactory: ServiceFactory = async ({ bus, subjects }) => {
  const tools = catalog.filter((tool) => !tool.scope.startsWith("scripts:"));
  const body = { service: "catalog", version: "1", instructions: "", tools, prompts: [] };
  // tagged as a service tags its catalog: the gateway takes no other
  const served = bus.serve(subjects.catalog("catalog"), async (request) => {
    const data = encodeJson(body);
    return { data, headers: signReply(bus.keys.for("catalog"), subjects.catalog("catalog"), request, data) };
  });
  return { name: "catalog", routes: Router(), stop: async () => served.unsubscribe() };
};

/** Sequential tools/list requests from another process: `warmup`, then "ready" on stdout, then `calls` more, then "done". */
const clientScript = `
const { url, key, body, headers, warmup, calls } = JSON.parse(process.env.LIST_CLIENT);
const list = async () => {
  const response = await fetch(url, { method: "POST", headers: { authorization: "Bearer " + key, "content-type": "application/json",
    accept: "application/json, text/event-stream", ...headers }, body });
  const text = await response.text();
  if (response.status !== 200 || !text.includes('"tools":[')) throw new Error("tools/list failed: " + response.status + " " + text.slice(0, 200));
};
(async () => {
  for (let i = 0; i < warmup; i++) await list();
  process.stdout.write("ready\\n");
  for (let i = 0; i < calls; i++) await list();
  process.stdout.write("done\\n");
})().catch((error) => { console.error(error); process.exit(1); });
`;

function listFromChild(env: Record<string, unknown>, onReady: () => void): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["-e", clientScript], { env: { ...process.env, LIST_CLIENT: JSON.stringify(env) } });
    let err = "";
    child.stderr.on("data", (chunk: Buffer) => (err += chunk.toString()));
    child.stdout.on("data", (chunk: Buffer) => {
      if (chunk.toString().includes("ready")) onReady();
    });
    child.once("exit", (code) => (code === 0 ? resolve() : reject(new Error(`the tools/list client failed: ${err}`))));
  });
}

const median = (samples: number[]) => [...samples].sort((a, b) => a - b)[Math.floor(samples.length / 2)]!;

describe("tools/list with the whole catalog", () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack({ services: { scripts: scriptsFactory, catalog: catalogFactory } });
  });
  afterAll(async () => stack?.stop());

  it("when a key with every scope lists tools, then the gateway spends under 2 ms per request, in both eras", async () => {
    const key = await stack.createKey({ scopes: [...new Set(catalog.map((tool) => tool.scope))].filter((scope) => scope !== "none") });
    // the gateway's own app on a server of our own, so that each request's handling time is read where it arrives
    const handled: number[] = [];
    const server: Server = createServer(stack.gateway.app);
    server.prependListener("request", (_req, res) => {
      const arrived = performance.now();
      res.once("finish", () => handled.push(performance.now() - arrived));
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;
    const calls = 300;
    const goalMs = 2;
    const busy = Math.max(1, os.loadavg()[0]! / os.cpus().length);
    try {
      for (const era of ["2025-11-25", modernVersion]) {
        const { body, headers } = eraRequest(era);
        let cpu = process.cpuUsage();
        await listFromChild({ url, key, body: JSON.stringify(body), headers, warmup: 50, calls }, () => {
          cpu = process.cpuUsage();
          handled.length = 0;
        });
        const used = process.cpuUsage(cpu);
        const cpuMs = (used.user + used.system) / 1000 / calls;
        const p50 = median(handled);
        console.log(
          `tools/list ${era}: gateway CPU ${cpuMs.toFixed(2)} ms per request; server-side p50 ${p50.toFixed(2)} ms ` +
            `(load average ${os.loadavg()[0]!.toFixed(1)} on ${os.cpus().length} cores)`,
        );
        expect(handled.length).toBe(calls);
        expect(cpuMs).toBeLessThan(goalMs * busy);
        if (busy === 1) expect(p50).toBeLessThan(goalMs);
      }
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  }, 180_000);

  it("when a key with every scope lists tools, then every tool it may call is listed, and the time per request is printed", async () => {
    const key = await stack.createKey({ scopes: [...new Set(catalog.map((tool) => tool.scope))].filter((scope) => scope !== "none") });
    const eras = { "2025-11-25": eraRequest("2025-11-25"), [modernVersion]: eraRequest(modernVersion) };
    const lines: string[] = [];
    for (const [era, { body, headers }] of Object.entries(eras)) {
      const samples: number[] = [];
      let count = 0;
      const cpu = process.cpuUsage();
      for (let i = 0; i < 300; i++) {
        const started = performance.now();
        const response = await fetch(stack.mcpUrl, {
          method: "POST",
          headers: {
            authorization: `Bearer ${key}`,
            "content-type": "application/json",
            accept: "application/json, text/event-stream",
            ...headers,
          },
          body: JSON.stringify(body),
        });
        const text = await response.text();
        samples.push(performance.now() - started);
        const json = text.startsWith("{")
          ? text
          : text
              .split("\n")
              .find((line) => line.startsWith("data: "))!
              .slice(6);
        count = (JSON.parse(json) as { result: { tools: unknown[] } }).result.tools.length;
      }
      const used = process.cpuUsage(cpu);
      samples.sort((a, b) => a - b);
      const p50 = samples[149]!;
      const cpuMs = (used.user + used.system) / 1000 / 300;
      lines.push(
        `${era}: ${count} tools, p50 ${p50.toFixed(2)} ms, p99 ${samples[296]!.toFixed(2)} ms, CPU ${cpuMs.toFixed(2)} ms per request (client included)`,
      );
      expect(count).toBe(catalog.filter((tool) => tool.transports.includes("http")).length);
      // 2 ms is the goal on a quiet machine; on a shared one the number says more about the neighbours, so it is printed, not asserted
    }
    console.log(`tools/list over HTTP, sequential, client in the same process:\n  ${lines.join("\n  ")}`);
  }, 120_000);
});
