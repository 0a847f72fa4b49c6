/**
 * The stdio configuration `bancada start` prints, used as a client would while `bancada start` runs on the same data
 * folder: the client's `bancada gateway --stdio` carries its messages to the running instance (one Bancada, one
 * database), and a wrong key is answered with the stdio refusal's words.
 */
import { chmod, mkdtemp, readFile, rm } from "node:fs/promises";
import { existsSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { callTool, connectClient } from "@bancada/testkit";
import { startBancada, type Started } from "./start-bancada.js";

interface StdioServerConfig {
  type: string;
  command: string;
  args: string[];
  env: Record<string, string>;
}

describe("a stdio client beside a running bancada start", { timeout: 300_000 }, () => {
  let dir: string;
  let dataDir: string;
  let started: Started;
  let stopped = false;
  let config: StdioServerConfig;
  let baseEnv: Record<string, string>;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), "bancada-stdio-beside-"));
    // as root, PostgreSQL runs as the postgres user, which must pass through this folder
    await chmod(dir, 0o711);
    dataDir = path.join(dir, "data");
    const {
      DATABASE_URL: _db,
      NATS_URL: _nats,
      BANCADA_API_KEY: _key,
      BANCADA_DATA_DIR: _dir,
      ...rest
    } = process.env as Record<string, string>;
    baseEnv = rest;
    started = await startBancada({ ...rest, BANCADA_DATA_DIR: dataDir, PORT: "0" });
    config = printedStdioConfiguration(started.output());
  });
  afterAll(async () => {
    if (started && !stopped) await started.stop();
    await rm(dir, { recursive: true, force: true });
  });

  function stdioClient(env: Record<string, string>): { client: Client; transport: StdioClientTransport; stderr: () => string } {
    const transport = new StdioClientTransport({ command: config.command, args: config.args, env: { ...baseEnv, ...env }, stderr: "pipe" });
    let stderr = "";
    transport.stderr!.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    return { client: new Client({ name: "stdio-beside-test", version: "1" }), transport, stderr: () => stderr };
  }

  it("when the printed stdio configuration is used, then the client lists and calls tools of the running instance", async () => {
    expect(config.type).toBe("stdio");
    expect(config.env.BANCADA_DATA_DIR).toBe(dataDir);
    const key = (JSON.parse(await readFile(path.join(dataDir, "dev-key.json"), "utf8")) as { key: string }).key;
    expect(config.env.BANCADA_API_KEY).toBe(key);
    expect(existsSync(path.join(dataDir, "instance.json"))).toBe(true);

    const { client, transport, stderr } = stdioClient({ ...config.env, LOG_LEVEL: "info" });
    await client.connect(transport, { timeout: 180_000 });
    const names = (await client.listTools()).tools.map((tool) => tool.name);
    expect(names).toEqual(expect.arrayContaining(["create_script", "list_boards", "create_box", "search_documents"]));
    // a stdio client keeps its stdio-only tool though it is carried over HTTP (the bridge shows the instance's token)
    expect(names).toContain("sosoapi_add_content_draft_asset");
    const created = await callTool<{ script: { id: string } }>(client, "create_script", { title: "through stdio", text: "hi" });
    expect(created.isError).toBe(false);
    await client.close();
    expect(stderr()).toContain("stdio carried to the running bancada start of this data folder");

    // the same instance: its HTTP endpoint reads what the stdio client wrote
    const http = await connectClient(started.url, key);
    const read = await callTool<{ script: { title: string } }>(http, "get_script", { id: created.data.script.id });
    expect(read.data.script.title).toBe("through stdio");
    expect((await http.listTools()).tools.map((tool) => tool.name)).not.toContain("sosoapi_add_content_draft_asset");
    await http.close();
    // an HTTP client cannot claim to be the bridge without the token in the data folder
    const claimed = await fetch(started.url, {
      method: "POST",
      headers: {
        authorization: `Bearer ${key}`,
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        "mcp-protocol-version": "2025-11-25",
        "bancada-stdio-bridge": "guessed",
      },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
    });
    expect(await claimed.text()).not.toContain("sosoapi_add_content_draft_asset");
  });

  it("when the stdio client's key is wrong, then its initialize is answered with the refusal's words", async () => {
    const { client, transport, stderr } = stdioClient({ ...config.env, BANCADA_API_KEY: "bnc_not_a_key_of_this_instance_0000000" });
    const error = await client.connect(transport, { timeout: 180_000 }).then(
      () => new Error("connected"),
      (failure: Error) => failure,
    );
    await client.close();
    expect(error.message).toContain("BANCADA_API_KEY is unknown, revoked or expired");
    expect(stderr()).toMatch(/^BANCADA_API_KEY is unknown, revoked or expired/m);
  });

  it("when bancada start stops, then its instance record is gone (a later stdio client runs Bancada itself)", async () => {
    stopped = true;
    expect(await started.stop()).toBe(0);
    expect(existsSync(path.join(dataDir, "instance.json"))).toBe(false);
  });
});

/** The JSON block printed after "Or over stdio": its one server. */
function printedStdioConfiguration(output: string): StdioServerConfig {
  const lines = output.slice(output.indexOf("Or over stdio")).split("\n").slice(1);
  const end = lines.findIndex((line) => line === "}");
  const parsed = JSON.parse(lines.slice(0, end + 1).join("\n")) as { mcpServers: { bancada: StdioServerConfig } };
  return parsed.mcpServers.bancada;
}
