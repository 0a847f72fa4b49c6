/**
 * A service's health and readiness against its file descriptors: /healthz reports how many are open of the soft
 * limit and keeps answering; /readyz fails from 90 % of it. The test lowers its own soft limit (allowed without
 * privileges), opens descriptors up to the edge, and puts everything back. And the start's raise of the limit.
 */
import { execFileSync } from "node:child_process";
import { closeSync, openSync, readFileSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { PassThrough } from "node:stream";
import { createServer, type Server } from "node:http";
import { Router } from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLogger, createServiceApp, raiseDescriptorLimit } from "../src/index.js";

interface Health {
  status: string;
  reason?: string;
  descriptors: { open: number; limit: number };
}

const limits = (): { soft: number; hard: number } => {
  const line = readFileSync("/proc/self/limits", "utf8")
    .split("\n")
    .find((row) => row.startsWith("Max open files"))!;
  const [soft, hard] = line.slice("Max open files".length).trim().split(/\s+/);
  return { soft: Number(soft), hard: Number(hard) };
};

const setSoftLimit = (soft: number, hard: number) =>
  execFileSync("prlimit", ["--pid", String(process.pid), `--nofile=${soft}:${hard}`], { stdio: "ignore" });

describe("health and file descriptors", () => {
  let server: Server;
  let base: string;
  const app = createServiceApp({
    routes: [Router()],
    resolver: { resolve: async () => null },
    log: createLogger("test", "silent"),
    guards: { bindHost: "127.0.0.1", allowedHosts: [], allowedOrigins: [] },
  });
  const get = async (path: string) => {
    const response = await fetch(`${base}${path}`, { headers: { connection: "close" } });
    return { status: response.status, body: (await response.json()) as Health };
  };
  beforeAll(async () => {
    server = createServer(app);
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it("when descriptors are plenty, then /healthz reports them and /readyz is ready", async () => {
    const health = await get("/healthz");
    expect(health.status).toBe(200);
    expect(health.body.descriptors.limit).toBe(limits().soft);
    expect(health.body.descriptors.open).toBeGreaterThan(3);
    expect(health.body.descriptors.open).toBeLessThan(health.body.descriptors.limit);
    expect(await get("/readyz")).toMatchObject({ status: 200, body: { status: "ready" } });
  });

  it("when 90 % of the soft limit is open, then /healthz still answers with the numbers and /readyz fails", async () => {
    const before = limits();
    const open = (await get("/healthz")).body.descriptors.open;
    const limit = open + 200;
    const held: number[] = [];
    setSoftLimit(limit, before.hard);
    try {
      // room left for the requests' own sockets; at or over 90 % of the limit
      while (open + held.length < limit - 15) held.push(openSync("/dev/null", "r"));
      const health = await get("/healthz");
      expect(health.status).toBe(200);
      expect(health.body.descriptors.limit).toBe(limit);
      expect(health.body.descriptors.open).toBeGreaterThanOrEqual(limit * 0.9);
      const ready = await get("/readyz");
      expect(ready.status).toBe(503);
      expect(ready.body.reason).toContain(`of ${limit} file descriptors are open`);
    } finally {
      for (const fd of held) closeSync(fd);
      setSoftLimit(before.soft, before.hard);
    }
    expect((await get("/readyz")).status).toBe(200);
  });

  it("when the limit is under 65,536 at start, then it is raised where permitted, else a warning says how to raise it", async () => {
    const before = limits();
    setSoftLimit(Math.min(before.soft, 4_096), before.hard);
    const lines = new PassThrough();
    let logged = "";
    lines.on("data", (chunk: Buffer) => (logged += chunk.toString()));
    try {
      const after = raiseDescriptorLimit(createLogger("test", "info", lines));
      await new Promise((resolve) => setImmediate(resolve));
      expect(after).toBe(limits().soft);
      if (after === 65_536) expect(logged).toContain("raised the file descriptor limit");
      else {
        expect(after).toBe(Math.min(before.soft, 4_096));
        expect(logged).toContain("ulimit -Hn");
      }
    } finally {
      setSoftLimit(before.soft, Math.max(before.hard, limits().hard));
    }
  });
});
