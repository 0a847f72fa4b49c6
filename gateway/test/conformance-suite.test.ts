/**
 * The official MCP conformance suite (`@modelcontextprotocol/conformance`, a devDependency: nothing is downloaded)
 * against the gateway with the conformance fixture service loaded (test/conformance/fixture-service/), over the
 * real bus (NATS when NATS_URL is set), for both requirement sets: 2026-07-28 and 2025-11-25. The test fails on
 * any failing check of a scored scenario, except the scenarios listed below with the reason each still fails.
 */
import { spawn } from "node:child_process";
import { mkdtemp, readFile, readdir, rm } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startStack, type Stack } from "@bancada/e2e";
import { conformanceFactory } from "./conformance/fixture-service/service.js";
import { echoFactory, scriptsFactory } from "./fixtures.js";

/** Scenarios allowed to fail, each with why (the test prints every failing check, allowed or not). */
const notYet: Record<string, string> = {
  // Tasks extension (not scored): a task's handler cannot ask its client yet — a task carries no client side, and
  // tasks/update only acknowledges — so a tool that asks and then runs as a task (test_tool_with_task), and input
  // delivered to a working task (confirm_delete, multi_input), are not served
  "tasks-mrtr-composition": "questions inside a task",
  "tasks-mrtr-input": "tasks/update input",
  // Tasks extension (not scored): the check wants the greeting as the first content block; every Bancada tool result
  // starts with its structured JSON as text (what every client shows), and the fixture keeps that contract
  "tasks-request-headers": "first content block is the JSON result",
  // tools with x-mcp-header annotations (SEP-2243, not scored): no tool of ours declares one
  "http-custom-header-server-validation": "x-mcp-header tools",
};

interface Check {
  id: string;
  status: "SUCCESS" | "FAILURE" | "WARNING" | "SKIPPED" | "INFO";
  errorMessage?: string;
}

const suiteBin = createRequire(import.meta.url)
  .resolve("@modelcontextprotocol/conformance/package.json")
  .replace(/package\.json$/, "dist/index.js");
const shim = path.join(import.meta.dirname, "conformance/node20-shim.mjs");

/** Runs one requirement set; the checks of every scenario run, by scenario, and the output for a failure's message. */
async function runSuite(url: string, revision: string, outDir: string): Promise<{ scenarios: Map<string, Check[]>; output: string }> {
  const output = await new Promise<string>((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ["--import", shim, suiteBin, "server", "--url", url, "--requirements", revision, "--output-dir", outDir],
      {
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
    let text = "";
    child.stdout.on("data", (chunk: Buffer) => (text += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (text += chunk.toString()));
    child.on("error", reject);
    child.on("exit", () => resolve(text));
  });
  const scenarios = new Map<string, Check[]>();
  for (const entry of await readdir(outDir)) {
    // server-<scenario>-<ISO timestamp>
    const name = entry.replace(/^server-/, "").replace(/-\d{4}-\d{2}-\d{2}T[\d-]+Z$/, "");
    scenarios.set(name, JSON.parse(await readFile(path.join(outDir, entry, "checks.json"), "utf8")) as Check[]);
  }
  return { scenarios, output };
}

/** The scenarios a requirement set scores: the suite prints the ones it does not (extensions, pending, later additions). */
function unscored(output: string): Set<string> {
  const section = output.split(/Not scored for [^:]+:/)[1] ?? "";
  return new Set([...section.matchAll(/^\s+[✓✗]\s+(\S+)\s+\(/gm)].map((match) => match[1]!));
}

describe("the MCP conformance suite", () => {
  let stack: Stack;
  let url: string;
  let proxyClose: () => Promise<void>;
  let outRoot: string;

  beforeAll(async () => {
    stack = await startStack({ services: { scripts: scriptsFactory, echo: echoFactory, conformance: conformanceFactory } });
    const key = await stack.createKey({ scopes: [...stack.gateway.keys.scopes] });
    // the suite sends no Authorization header: a loopback proxy adds the key and forwards the rest untouched
    const { createServer, request } = await import("node:http");
    const target = new URL(stack.mcpUrl);
    const proxy = createServer((req, res) => {
      const upstream = request(
        {
          host: target.hostname,
          port: target.port,
          path: req.url,
          method: req.method,
          headers: { ...req.headers, authorization: `Bearer ${key}` },
        },
        (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
        },
      );
      upstream.on("error", (error) => res.writeHead(502).end(String(error)));
      req.pipe(upstream);
    });
    await new Promise<void>((resolve) => proxy.listen(0, "127.0.0.1", resolve));
    url = `http://127.0.0.1:${(proxy.address() as { port: number }).port}${target.pathname}`;
    proxyClose = () => new Promise((resolve) => proxy.close(() => resolve()));
    outRoot = await mkdtemp(path.join(tmpdir(), "bancada-conformance-"));
  }, 180_000);
  afterAll(async () => {
    await proxyClose?.();
    await stack?.stop();
    if (outRoot) await rm(outRoot, { recursive: true, force: true });
  });

  for (const revision of ["2026-07-28", "2025-11-25"]) {
    it(`when the suite runs the ${revision} requirements, then every scored scenario passes (but those listed as not yet)`, async () => {
      const { scenarios, output } = await runSuite(url, revision, path.join(outRoot, revision));
      const skip = unscored(output);
      expect(scenarios.size, output).toBeGreaterThan(20);
      const failing: string[] = [];
      let passed = 0;
      let failed = 0;
      for (const [name, checks] of scenarios) {
        const failures = checks.filter((check) => check.status === "FAILURE");
        passed += checks.filter((check) => check.status === "SUCCESS").length;
        failed += failures.length;
        for (const check of failures)
          console.info(`  ${revision} ${name}${skip.has(name) ? " (unscored)" : ""}: ${check.id} ${check.errorMessage ?? ""}`);
        if (failures.length && !skip.has(name) && !(name in notYet))
          failing.push(`${name}: ${failures.map((check) => `${check.id} (${check.errorMessage ?? "failed"})`).join("; ")}`);
      }
      console.info(`conformance ${revision}: ${passed} checks passed, ${failed} failed`);
      expect(failing).toEqual([]);
    }, 600_000);
  }
});
