/** The Host and Origin guards at their edges: hosts are parsed and compared exactly, ports do not matter. */
import { request, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import express from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hostGuard, isLoopback, originGuard, type GuardOptions } from "../src/index.js";

function guarded(options: GuardOptions): express.Express {
  const app = express();
  app.use(hostGuard(options), originGuard(options));
  app.get("/", (_req, res) => void res.json({ ok: true }));
  return app;
}

describe("isLoopback", () => {
  it("when a name only starts like a loopback name, then it is not loopback", () => {
    for (const host of ["localhost", "LOCALHOST", "127.0.0.1", "127.1.2.3", "[::1]", "::1"]) expect(isLoopback(host), host).toBe(true);
    for (const host of ["127.0.0.1.evil.com", "localhost.evil.com", "127.evil.com", "127.0.0.256", "evil.com", "", "[::2]"])
      expect(isLoopback(host), host).toBe(false);
  });
});

describe.each([
  ["a loopback bind", { bindHost: "127.0.0.1", allowedHosts: [], allowedOrigins: ["https://console.example.com"] }],
  ["configured public hosts", { bindHost: "0.0.0.0", allowedHosts: ["bancada.example.com"], allowedOrigins: [] }],
])("the guards on %s", (name, options) => {
  let server: Server;
  let port: number;
  const loopback = name === "a loopback bind";
  const host = loopback ? "127.0.0.1" : "bancada.example.com";
  beforeAll(async () => {
    server = await new Promise<Server>((resolve) => {
      const listening = guarded(options).listen(0, "127.0.0.1", () => resolve(listening));
    });
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const get = (headers: Record<string, string>) =>
    new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = request({ host: "127.0.0.1", port, path: "/", headers }, (res) => {
        let body = "";
        res.on("data", (chunk: Buffer) => (body += chunk.toString()));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
      });
      req.on("error", reject);
      req.end();
    });

  it("when the Host is ours (any port), then it passes; a look-alike Host is refused with the error envelope", async () => {
    expect((await get({ host: `${host}:${port}` })).status).toBe(200);
    expect((await get({ host })).status).toBe(200);
    for (const bad of [`${host}.evil.com`, "localhost.evil.com", `evil.com:${port}`, `user@evil.com`]) {
      const refused = await get({ host: bad });
      expect(refused.status, bad).toBe(403);
      expect(JSON.parse(refused.body)).toMatchObject({ error: { code: "permission_denied" } });
    }
    if (loopback) expect((await get({ host: `[::1]:${port}` })).status).toBe(200);
  });

  it("when the Origin is absent, our own or allowed, then it passes; a look-alike or foreign Origin is refused", async () => {
    const own = { host: `${host}:${port}` };
    expect((await get(own)).status).toBe(200);
    const accepted = loopback
      ? [
          "http://localhost:5173",
          `http://127.0.0.1:${port}`,
          "http://[::1]:3000",
          "https://console.example.com",
          "https://CONSOLE.example.com:443",
        ]
      : ["https://bancada.example.com", `http://bancada.example.com:${port}`];
    for (const origin of accepted) expect((await get({ ...own, origin })).status, origin).toBe(200);
    const refused = [
      "http://127.0.0.1.evil.com",
      "http://localhost.evil.com:8787",
      "https://evil.com",
      "null",
      "https://console.example.com.evil.com",
    ];
    if (!loopback) refused.push("http://localhost:8787");
    for (const origin of refused) {
      const answer = await get({ ...own, origin });
      expect(answer.status, origin).toBe(403);
      expect(JSON.parse(answer.body).error.message).toContain("BANCADA_ALLOWED_ORIGINS");
    }
  });
});
