#!/usr/bin/env node
// Runs the official MCP conformance suite (server mode) against a running gateway. The suite sends no
// Authorization header, so a loopback proxy adds the API key and forwards everything else untouched
// (the Host header included, so the DNS-rebinding scenario still reaches the gateway's own check).
// Usage: BANCADA_API_KEY=bnc_… node gateway/test/conformance/run.mjs http://127.0.0.1:8787/mcp [scenario…]
// Runs each scenario for every spec version the suite knows of ours (CONFORMANCE_SPECS, default 2025-06-18 and
// 2025-11-25; suite 0.1.16 has no 2026-07-28 server scenarios yet). On Node 20 node20-shim.mjs stands in for
// fs.globSync, which the suite's bundle imports.
import { spawn } from "node:child_process";
import http from "node:http";

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

const specs = (process.env.CONFORMANCE_SPECS ?? "2025-06-18,2025-11-25").split(",");
const shim = new URL("./node20-shim.mjs", import.meta.url).pathname;
const runs = scenarios.length ? scenarios.map((s) => ["--scenario", s]) : [[]];
let failed = 0;
for (const spec of specs) {
  for (const extra of runs) {
    const code = await new Promise((resolve) => {
      const child = spawn(
        "npm",
        [
          "exec",
          "--yes",
          "--package=@modelcontextprotocol/conformance@0.1.16",
          "--",
          "conformance",
          "server",
          "--url",
          url,
          "--spec-version",
          spec,
          ...(process.env.CONFORMANCE_OUT ? ["--output-dir", `${process.env.CONFORMANCE_OUT}/${spec}`] : []),
          ...extra,
        ],
        { stdio: "inherit", env: { ...process.env, NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ""} --import ${shim}`.trim() } },
      );
      child.on("exit", resolve);
    });
    if (code !== 0) failed++;
  }
}
proxy.close();
process.exit(failed ? 1 : 0);
