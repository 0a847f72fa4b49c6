#!/usr/bin/env node
// Runs the official MCP conformance suite (server mode) against a running gateway. The suite sends no
// Authorization header, so a loopback proxy adds the API key and forwards everything else untouched
// (the Host header included, so the DNS-rebinding scenario still reaches the gateway's own check).
// Usage: BANCADA_API_KEY=bnc_… node gateway/test/conformance/run.mjs http://127.0.0.1:8787/mcp [scenario…]
// Runs the scenarios each requirement set names (CONFORMANCE_REQUIREMENTS, default 2026-07-28 and 2025-11-25),
// with the suite installed as the gateway's devDependency (nothing is downloaded). On Node 20 node20-shim.mjs
// stands in for fs.globSync, which the suite's bundle imports.
import { spawn } from "node:child_process";
import http from "node:http";
import { createRequire } from "node:module";

const target = new URL(process.argv[2] ?? "http://127.0.0.1:8787/mcp");
const key = process.env.BANCADA_API_KEY;
if (!key) {
  console.error("Set BANCADA_API_KEY to a key of the gateway (pnpm bancada keys create …).");
  process.exit(2);
}
const scenarios = process.argv.slice(3);

const proxy = http.createServer((req, res) => {
  const upstream = http.request(
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
await new Promise((resolve) => proxy.listen(0, "127.0.0.1", resolve));
const url = `http://127.0.0.1:${proxy.address().port}${target.pathname}`;

const specs = (process.env.CONFORMANCE_REQUIREMENTS ?? "2026-07-28,2025-11-25").split(",");
const shim = new URL("./node20-shim.mjs", import.meta.url).pathname;
const suite = createRequire(import.meta.url)
  .resolve("@modelcontextprotocol/conformance/package.json")
  .replace(/package\.json$/, "dist/index.js");
const runs = scenarios.length ? scenarios.map((s) => ["--scenario", s]) : [[]];
let failed = 0;
for (const spec of specs) {
  for (const extra of runs) {
    const code = await new Promise((resolve) => {
      const child = spawn(
        process.execPath,
        [
          "--import",
          shim,
          suite,
          "server",
          "--url",
          url,
          ...(extra.length ? ["--spec-version", spec] : ["--requirements", spec]),
          ...(process.env.CONFORMANCE_OUT ? ["--output-dir", `${process.env.CONFORMANCE_OUT}/${spec}`] : []),
          ...extra,
        ],
        { stdio: "inherit" },
      );
      child.on("exit", resolve);
    });
    if (code !== 0) failed++;
  }
}
proxy.close();
process.exit(failed ? 1 : 0);
