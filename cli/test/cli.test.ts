/** The `bancada` command as a user runs it: keys, start, stdio — real processes, a real database. */
import { execFile } from "node:child_process";
import { generateKeyPairSync } from "node:crypto";
import { mkdir, mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { BusKeys } from "@bancada/service-kit";
import { callTool, connectClient, freshDatabase, type TestDatabase } from "@bancada/testkit";
import { bin, startBancada } from "./start-bancada.js";

const run = promisify(execFile);
/** A real database needs a configured pepper: the tests give one, as an operator would. */
const testPepper = "cli-test-pepper-not-a-secret";
/** And a key for the boxes' workspace secrets (32 bytes). */
const testSecretsKey = Buffer.alloc(32, "cli-test-secrets-key").toString("base64");

// Each test starts real processes (tsx, PostgreSQL, migrations): minutes on a loaded 2-core machine.
describe("the bancada command", { timeout: 240_000 }, () => {
  let database: TestDatabase;
  let env: NodeJS.ProcessEnv;
  const bancada = (...args: string[]) => run(process.execPath, [bin, ...args], { env, timeout: 120_000 });

  beforeAll(async () => {
    database = await freshDatabase("bancada_cli");
    const { NATS_URL: _ignored, ...rest } = process.env;
    env = { ...rest, DATABASE_URL: database.url, LOG_LEVEL: "warn", BANCADA_KEY_PEPPER: testPepper, BOXES_SECRETS_KEY: testSecretsKey };
  });
  afterAll(async () => database?.drop());

  it("when a key is created, listed and revoked, then each step says so and the key shows up as revoked", async () => {
    const created = await bancada(
      "keys",
      "create",
      "--account",
      "acme",
      "--person",
      "ana",
      "--agent",
      "cli",
      "--scopes",
      "scripts:read",
      "--json",
    );
    const key = JSON.parse(created.stdout) as { key: string; id: string; scopes: string[]; allowWrites: boolean };
    expect(key.key).toMatch(/^bnc_[A-Za-z0-9_-]{32}$/);
    // where the key went, so a key written to the wrong database is not a surprise (the password never shown)
    const shown = new URL(database.url);
    if (shown.password) shown.password = "***";
    expect(created.stderr).toContain(`keys are read from and written to the database ${shown.toString()}`);
    // the password never shown (the embedded PostgreSQL a test run starts without DATABASE_URL has one)
    if (new URL(database.url).password) expect(created.stderr).not.toContain(new URL(database.url).password);
    expect(key.scopes).toEqual(["scripts:read"]);
    expect(key.allowWrites).toBe(false);
    const listed = JSON.parse((await bancada("keys", "list", "--json")).stdout) as { id: string; revokedAt: string | null }[];
    expect(listed.map((k) => k.id)).toContain(key.id);
    expect((await bancada("keys", "revoke", key.id)).stdout).toContain("Revoked");
    const after = JSON.parse((await bancada("keys", "list", "--json")).stdout) as { id: string; revokedAt: string | null }[];
    expect(after.find((k) => k.id === key.id)?.revokedAt).not.toBeNull();
  });

  it("when a key is created with an unknown scope or without --account, then a one-line error and a non-zero exit", async () => {
    const bad = await bancada("keys", "create", "--account", "a", "--person", "p", "--agent", "x", "--scopes", "scripts:admin").catch(
      (e: unknown) => e,
    );
    expect((bad as { code: number }).code).toBe(1);
    expect((bad as { stderr: string }).stderr).toMatch(/Unknown scope\(s\): scripts:admin/);
    const missing = await bancada("keys", "create", "--person", "p").catch((e: unknown) => e);
    expect((missing as { stderr: string }).stderr).toMatch(/Missing --account/);
  });

  it("when DATABASE_URL is set without BANCADA_KEY_PEPPER, then start and keys refuse in one line that says how to set one", async () => {
    const { BANCADA_KEY_PEPPER: _pepper, ...unpeppered } = env;
    for (const args of [["start"], ["keys", "list"]]) {
      const failed = await run(process.execPath, [bin, ...args], { env: { ...unpeppered, PORT: "0" }, timeout: 120_000 }).catch(
        (e: unknown) => e,
      );
      expect((failed as { code: number }).code).toBe(1);
      const lines = (failed as { stderr: string }).stderr.split("\n").filter((line) => line && !line.includes("cli/dist"));
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(/^Set BANCADA_KEY_PEPPER \(a stable secret of at least 16 characters/);
    }
  });

  it("when DATABASE_URL is set without BOXES_SECRETS_KEY, or with one that is not 32 bytes, then start refuses in one line", async () => {
    const { BOXES_SECRETS_KEY: _key, ...keyless } = env;
    const missing = await run(process.execPath, [bin, "start"], { env: { ...keyless, PORT: "0" }, timeout: 120_000 }).catch(
      (e: unknown) => e,
    );
    expect((missing as { code: number }).code).toBe(1);
    expect((missing as { stderr: string }).stderr).toMatch(/Set BOXES_SECRETS_KEY \(32 random bytes/);
    const short = await run(process.execPath, [bin, "start"], {
      env: { ...env, BOXES_SECRETS_KEY: "c2hvcnQ=", PORT: "0" },
      timeout: 120_000,
    }).catch((e: unknown) => e);
    expect((short as { stderr: string }).stderr).toMatch(/BOXES_SECRETS_KEY: must be 32 random bytes/);
  });

  it("when NATS_URL and DATABASE_URL are set without bus keys, then start refuses in one line naming the key and the command that makes it", async () => {
    const failed = await run(process.execPath, [bin, "start", "--only", "scripts"], {
      env: { ...env, NATS_URL: "nats://127.0.0.1:1" },
      timeout: 120_000,
    }).catch((e: unknown) => e);
    expect((failed as { code: number }).code).toBe(1);
    expect((failed as { stderr: string }).stderr).toMatch(
      /^Set BANCADA_BUS_VERIFY_KEY \(each service's bus key, derived from the gateway's master\):.*'pnpm bancada secrets create'/m,
    );
  });

  it("when bus-keys create runs, then it prints a master and each service's key derived from it; a wrong, mismatched, missing or old Ed25519 key stops start in one line", async () => {
    const { stdout } = await bancada("bus-keys", "create");
    const signingKey = /^BANCADA_BUS_SIGNING_KEY=(\S+)$/m.exec(stdout)?.[1];
    const lines = [...stdout.matchAll(/^BANCADA_BUS_VERIFY_KEY=(\S+)$/gm)].map((match) => match[1]!);
    const gateway = BusKeys.from({ signingKey });
    expect(lines.map((line) => line.split(":")[0])).toEqual(["scripts", "boards", "docs", "drafts", "boxes"]);
    for (const line of lines) {
      const service = BusKeys.from({ verifyKey: line });
      expect(service.holdsMaster).toBe(false);
      const [name] = service.scopes as [string];
      expect(service.for(name).export()).toBe(gateway.for(name).export());
    }
    const scriptsLine = lines[0]!;
    // each refusal comes before anything connects: the NATS URL leads nowhere
    const startWith = async (args: string[], extra: Record<string, string>) =>
      (await run(process.execPath, [bin, "start", ...args], {
        env: { ...env, NATS_URL: "nats://127.0.0.1:1", ...extra },
        timeout: 120_000,
      }).catch((e: unknown) => e)) as { code?: number; stderr: string };
    const gatewayWithoutMaster = await startWith(["--only", "gateway"], { BANCADA_BUS_VERIFY_KEY: scriptsLine });
    expect(gatewayWithoutMaster.stderr).toMatch(
      /The gateway derives every service's bus key from the master secret: set BANCADA_BUS_SIGNING_KEY/,
    );
    const otherService = await startWith(["--only", "boards"], { BANCADA_BUS_VERIFY_KEY: scriptsLine });
    expect(otherService.stderr).toMatch(/BANCADA_BUS_VERIFY_KEY holds no key for boards: add its line from 'pnpm bancada bus-keys create'/);
    const otherMaster = BusKeys.generate().only(["scripts"]).export().verifyKey!;
    const mismatched = await startWith([], { BANCADA_BUS_SIGNING_KEY: signingKey!, BANCADA_BUS_VERIFY_KEY: otherMaster });
    expect(mismatched.stderr).toMatch(/BANCADA_BUS_VERIFY_KEY: the key of service 'scripts' is not derived from the master secret/);
    const { privateKey } = generateKeyPairSync("ed25519");
    const old = await startWith(["--only", "gateway"], {
      BANCADA_BUS_SIGNING_KEY: privateKey.export({ format: "der", type: "pkcs8" }).toString("base64"),
    });
    expect(old.code).toBe(1);
    expect(old.stderr).toMatch(/BANCADA_BUS_SIGNING_KEY: this is an old Ed25519 key .*: run 'pnpm bancada bus-keys create'/);
  });

  it("when the port is already in use, then start says which port and which variable to change, and exits non-zero", async () => {
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, "127.0.0.1", resolve));
    const port = (blocker.address() as { port: number }).port;
    const failed = await run(process.execPath, [bin, "start"], { env: { ...env, PORT: String(port) }, timeout: 120_000 }).catch(
      (e: unknown) => e,
    );
    blocker.close();
    expect((failed as { code: number }).code).toBe(1);
    expect((failed as { stderr: string }).stderr).toContain(`Port ${port} on 127.0.0.1 is already in use; set PORT to another port.`);
  });

  it("when started, then it prints the MCP URL, serves it, and stops cleanly on SIGTERM", async () => {
    const started = await startBancada({ ...env, PORT: "0" });
    expect((await fetch(started.url.replace("/mcp", "/healthz"))).status).toBe(200);
    expect(await started.stop()).toBe(0);
  });

  it("when nothing is configured, then start runs an embedded PostgreSQL under the data folder, prints a development key, and keeps data and key across a restart", async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), "bancada-embedded-"));
    const { DATABASE_URL: _db, ...embeddedEnv } = env;
    try {
      const first = await startBancada({ ...embeddedEnv, BANCADA_DATA_DIR: dataDir, PORT: "0" });
      const key = /development API key \(every scope, writes allowed\): (bnc_\S+)/.exec(first.output())?.[1];
      expect(key).toBeDefined();
      expect(first.output()).toContain(`"Authorization": "Bearer ${key}"`);
      expect(first.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
      // the web console (built at install) is served on the same port, under its CSP
      expect(first.output()).toContain(`Web console: ${first.url.replace(/mcp$/, "")}`);
      const page = await fetch(first.url.replace(/mcp$/, ""));
      expect(page.status).toBe(200);
      expect(page.headers.get("content-security-policy")).toContain("frame-ancestors 'none'");
      expect(await page.text()).toContain('<div id="root">');
      const client = await connectClient(first.url, key!);
      const created = await callTool<{ script: { id: string } }>(client, "create_script", { title: "survives", text: "a restart" });
      await client.close();
      expect(await first.stop()).toBe(0);

      const second = await startBancada({ ...embeddedEnv, BANCADA_DATA_DIR: dataDir, PORT: "0" });
      expect(second.output()).toContain(`The development API key (every scope, writes allowed): ${key}`);
      const again = await connectClient(second.url, key!);
      const read = await callTool<{ script: { title: string } }>(again, "get_script", { id: created.data.script.id });
      await again.close();
      expect(read.data.script.title).toBe("survives");
      expect(await second.stop()).toBe(0);
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });

  it("when the data folder holds something that is not PostgreSQL's, then start refuses with a clear error and changes nothing", async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), "bancada-corrupt-"));
    await mkdir(path.join(dataDir, "pg"));
    await writeFile(path.join(dataDir, "pg", "precious.txt"), "keep me");
    const { DATABASE_URL: _db, ...embeddedEnv } = env;
    const failed = await run(process.execPath, [bin, "start"], {
      env: { ...embeddedEnv, BANCADA_DATA_DIR: dataDir, PORT: "0" },
      timeout: 120_000,
    }).catch((e: unknown) => e);
    expect((failed as { code: number }).code).toBe(1);
    expect((failed as { stderr: string }).stderr).toMatch(/is not a PostgreSQL data folder \(no PG_VERSION\)\. Nothing was changed/);
    expect(await readdir(path.join(dataDir, "pg"))).toEqual(["precious.txt"]);
    await rm(dataDir, { recursive: true, force: true });
  });

  it("when an MCP client launches the stdio gateway, then it lists and calls tools with the key's rights and stdout carries only the protocol", async () => {
    const created = await bancada(
      "keys",
      "create",
      "--account",
      "acme",
      "--person",
      "ana",
      "--agent",
      "stdio",
      "--scopes",
      "all",
      "--allow-writes",
      "--json",
    );
    const { key } = JSON.parse(created.stdout) as { key: string };
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [bin, "gateway", "--stdio"],
      env: { ...(env as Record<string, string>), BANCADA_API_KEY: key, LOG_LEVEL: "info" },
      stderr: "pipe",
    });
    const client = new Client({ name: "stdio-test", version: "1" });
    await client.connect(transport);
    const names = (await client.listTools()).tools.map((t) => t.name);
    expect(names).toEqual(
      expect.arrayContaining([
        "create_script",
        "get_script",
        "list_scripts",
        "restore_script",
        "trash_script",
        "update_script",
        "list_boards",
      ]),
    );
    expect(client.getServerCapabilities()?.tools?.listChanged).toBe(true);
    const result = await client.callTool({ name: "create_script", arguments: { title: "over stdio", text: "hi" } });
    expect(result.isError).toBeFalsy();
    expect((result.structuredContent as { script: { createdBy: string } }).script.createdBy).toBe("ana");
    await client.close();
  });
});
