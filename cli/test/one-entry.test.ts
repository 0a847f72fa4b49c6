/**
 * One public entry: the gateway and every service as separate processes (`start --only`, over NATS, on one
 * embedded PostgreSQL), and everything a client or the console needs on the gateway's port alone — the console's
 * index, a REST route of every service, and an upload then a download through the transfer URLs that
 * get_upload_url / get_download_url hand out. The services' REST routes are relayed to their own ports, with the
 * caller's key judged there as on a direct request: another account's key reaches nothing of this one's.
 */
import type { ChildProcessWithoutNullStreams } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { request as httpRequest } from "node:http";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { callTool, connectClient } from "@bancada/testkit";
// the console's own Chromium harness (a test file, not a package export), for its pages on this topology
// eslint-disable-next-line import-x/no-relative-packages
import { browserUnsupported, launchBrowser } from "../../console/test/browser.js";
import { services } from "../src/services.js";
import { eventually, launch, stop } from "./start-bancada.js";

const natsUrl = process.env.NATS_URL;
const adminToken = randomBytes(24).toString("hex");

interface Transfer {
  url: string;
  method: string;
}

/** A port nothing listens on now, for a service's own port (the gateway must know it before the service starts). */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer().listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
    server.once("error", reject);
  });
}

describe.skipIf(!natsUrl || !existsSync("/usr/bin/bwrap"))(
  "the gateway's port as the one entry (skipped without NATS_URL or bubblewrap: the processes meet over NATS, boxes run in bwrap)",
  { timeout: 300_000 },
  () => {
    const children: ChildProcessWithoutNullStreams[] = [];
    const ports: Record<string, number> = {};
    let dataDir: string | undefined;
    let base = "";
    let key = "";
    let otherKey = "";
    let boxId: string | undefined;
    const rest = (method: string, route: string, bearer = key, body?: unknown) =>
      fetch(`${base}${route}`, {
        method,
        headers: { authorization: `Bearer ${bearer}`, ...(body ? { "content-type": "application/json" } : {}) },
        ...(body ? { body: JSON.stringify(body) } : {}),
      });

    beforeAll(async () => {
      dataDir = await mkdtemp(path.join(tmpdir(), "bancada-one-entry-"));
      const { DATABASE_URL: _db, ...inherited } = process.env;
      for (const service of services) ports[service.name] = await freePort();
      // every process reads the same configuration, as the pods of one deployment do
      const env: NodeJS.ProcessEnv = {
        ...inherited,
        NATS_URL: natsUrl,
        BANCADA_DATA_DIR: dataDir,
        BANCADA_SUBJECT_ROOT: `entry_${randomBytes(4).toString("hex")}`,
        BANCADA_ADMIN_TOKEN: adminToken,
        BOXES_SSH_PORT: "off",
        LOG_LEVEL: "info",
        PORT: "0",
        ...Object.fromEntries(services.map((service) => [`${service.name.toUpperCase()}_PORT`, String(ports[service.name])])),
      };
      const gateway = launch(["start", "--only", "gateway"], env);
      children.push(gateway.child);
      const [, mcpUrl, devKey] = await gateway.waitFor(
        /MCP endpoint: (\S+)[\s\S]*development API key \(every scope, writes allowed\): (bnc_\S+)[\s\S]*Press Ctrl-C to stop\./,
      );
      base = new URL(mcpUrl!).origin;
      key = devKey!;
      for (const service of services) {
        const child = launch(["start", "--only", service.name], { ...env, BANCADA_PUBLIC_URL: base });
        children.push(child.child);
        await child.waitFor(/"msg":"REST API, health and metrics listening"/);
      }
      const created = await fetch(`${base}/admin/keys`, {
        method: "POST",
        headers: { authorization: `Bearer ${adminToken}`, "content-type": "application/json" },
        body: JSON.stringify({
          accountId: "other-account",
          personId: "other-person",
          agentId: "test",
          scopes: ["scripts:read", "boxes:read"],
        }),
      });
      expect(created.status).toBe(201);
      otherKey = ((await created.json()) as { key: string }).key;
    });
    afterAll(async () => {
      // a box outlives its service's process by design: deleted here, through the gateway as everything else
      if (boxId) expect((await rest("DELETE", `/v1/boxes/${boxId}?confirm=true&wait=true`)).status).toBe(200);
      // the services first, then the gateway, which owns the embedded PostgreSQL
      for (const child of children.reverse()) await stop(child);
      if (dataDir) await rm(dataDir, { recursive: true, force: true });
    });

    it("when every component runs in its own process, then the console and a REST route of every service answer on the gateway's port", async () => {
      const index = await fetch(`${base}/`);
      expect(index.status).toBe(200);
      expect(index.headers.get("content-type")).toMatch(/text\/html/);
      expect(await index.text()).toMatch(/<script[^>]+src="\/assets\//);

      for (const route of ["/v1/scripts", "/v1/boards", "/v1/search?query=bancada", "/v1/workspaces", "/v1/boxes", "/v1/ssh-keys"]) {
        const answer = await eventually(async () => {
          const response = await rest("GET", route);
          // the first requests may meet a key resolution before the gateway's catalog settles
          if (response.status !== 200) throw new Error(`${route}: ${response.status} ${await response.text()}`);
          return response;
        });
        expect(answer.status, route).toBe(200);
      }
      const keyless = await fetch(`${base}/v1/boards`);
      expect(keyless.status).toBe(401);
      expect(((await keyless.json()) as { error: { code: string } }).error.code).toBe("unauthenticated");
    });

    it.skipIf(browserUnsupported !== null)(
      "when the console is opened on the gateway's port, then every page loads its data there with no failed request or browser error",
      async () => {
        const browser = await launchBrowser();
        try {
          const page = await browser.context.newPage();
          page.setDefaultTimeout(15_000);
          const problems: string[] = [];
          page.on("pageerror", (error) => problems.push(error.message));
          page.on("console", (message) => {
            if (message.type() === "error") problems.push(message.text());
          });
          page.on("response", (response) => {
            if (response.status() >= 400) problems.push(`${response.status()} ${response.url()}`);
          });
          await page.goto(`${base}/`);
          await page.getByLabel("API key").fill(key);
          await page.getByRole("button", { name: "Sign in" }).click();
          await page.getByRole("heading", { name: "Boards" }).waitFor();
          for (const area of ["drafts", "boxes", "keys", "activity", "boards"]) {
            await page.goto(`${base}/#/${area}`);
            await page.waitForLoadState("networkidle");
            expect(await page.getByText(/No route/).count(), area).toBe(0);
          }
          expect(problems).toEqual([]);
        } finally {
          await browser.close();
        }
      },
    );

    it("when a service's own port declares its REST routes, then the gateway relays every one of them (each path lies under one of the service's prefixes)", async () => {
      for (const service of services) {
        const answer = await fetch(`http://127.0.0.1:${ports[service.name]}/v1/openapi.json`, {
          headers: { authorization: `Bearer ${key}` },
        });
        expect(answer.status, service.name).toBe(200);
        const paths = Object.keys(((await answer.json()) as { paths: Record<string, unknown> }).paths).filter(
          (route) => route !== "/v1/openapi.json",
        );
        expect(paths.length, service.name).toBeGreaterThan(0);
        const unrelayed = paths.filter((route) => !service.paths.some((prefix) => route === prefix || route.startsWith(`${prefix}/`)));
        expect(unrelayed, service.name).toEqual([]);
      }
    });

    it("when a box file is uploaded and downloaded through the URLs get_upload_url and get_download_url hand out, then both go through the gateway's port", async () => {
      const created = await rest("POST", "/v1/boxes", key, { name: "one-entry" });
      expect(created.status).toBe(201);
      const box = ((await created.json()) as { box: { id: string } }).box;
      boxId = box.id;
      const client = await connectClient(`${base}/mcp`, key);
      try {
        const upload = await callTool<Transfer>(client, "get_upload_url", { boxId: box.id, path: "relayed.bin" });
        expect(upload.isError, upload.text).toBe(false);
        expect(upload.data.url.startsWith(`${base}/boxes/transfers/upload/`)).toBe(true);
        const bytes = randomBytes(3 * 1024 * 1024);
        const put = await fetch(upload.data.url, { method: upload.data.method, body: bytes });
        expect(put.status, await put.clone().text()).toBe(200);

        // the service's limits hold through the hop, and its refusal comes before the body: nothing is held on the way
        const huge = await callTool<Transfer>(client, "get_upload_url", { boxId: box.id, path: "huge.bin" });
        const refused = await new Promise<{ status: number; body: string }>((resolve, reject) => {
          const req = httpRequest(huge.data.url, { method: "PUT", headers: { "content-length": String(5 * 1024 ** 3 + 1) } }, (res) => {
            let body = "";
            res.on("data", (chunk: Buffer) => (body += chunk.toString()));
            res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
          });
          req.on("error", reject);
          req.write(Buffer.alloc(64 * 1024));
        });
        expect(refused.status).toBe(413);
        expect((JSON.parse(refused.body) as { error: { code: string } }).error.code).toBe("payload_too_large");

        const download = await callTool<Transfer>(client, "get_download_url", { boxId: box.id, path: "relayed.bin" });
        expect(download.isError, download.text).toBe(false);
        expect(download.data.url.startsWith(`${base}/boxes/transfers/download/`)).toBe(true);
        const got = await fetch(download.data.url);
        expect(got.status).toBe(200);
        expect(Buffer.from(await got.arrayBuffer()).equals(bytes)).toBe(true);
      } finally {
        await client.close();
      }
    });

    it("when another account's key is relayed, then it reaches none of this account's scripts or boxes", async () => {
      const created = await rest("POST", "/v1/scripts", key, { title: "mine only", text: "secret" });
      expect(created.status).toBe(201);
      const script = ((await created.json()) as { script: { id: string } }).script;
      expect((await rest("GET", `/v1/scripts/${script.id}`)).status).toBe(200);

      const stranger = await rest("GET", `/v1/scripts/${script.id}`, otherKey);
      expect(stranger.status).toBe(404);
      const theirs = (await (await rest("GET", "/v1/scripts", otherKey)).json()) as { scripts: { id: string }[] };
      expect(theirs.scripts.map((s) => s.id)).not.toContain(script.id);
      const boxes = (await (await rest("GET", "/v1/boxes", otherKey)).json()) as { boxes: unknown[] };
      expect(boxes.boxes).toEqual([]);
    });

    it("when a service's process is gone, then its routes on the gateway answer unavailable in one line", async () => {
      // docs, not boxes: the box is deleted through the gateway at the end
      const docs = children[services.findIndex((service) => service.name === "docs") + 1]!;
      expect(await stop(docs)).toBe(0);
      const answer = await rest("GET", "/v1/search?query=bancada");
      expect(answer.status).toBe(503);
      const { error } = (await answer.json()) as { error: { code: string; message: string } };
      expect(error.code).toBe("unavailable");
      expect(error.message).toMatch(/^The docs service did not answer \(ECONNREFUSED\); try again shortly\.$/);
    });
  },
);
