/**
 * `bancada gateway --stdio` that cannot serve (no key, an unknown key) says why in one line on stderr and answers
 * the client's requests with a JSON-RPC error carrying the same words, instead of closing the connection.
 */
import { spawn } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { freshDatabase, type TestDatabase } from "@bancada/testkit";
import { bin } from "./start-bancada.js";

describe("bancada gateway --stdio that cannot serve", { timeout: 240_000 }, () => {
  let database: TestDatabase;
  let env: Record<string, string>;
  beforeAll(async () => {
    database = await freshDatabase("bancada_stdio_refusal");
    const { NATS_URL: _nats, BANCADA_API_KEY: _key, ...rest } = process.env as Record<string, string>;
    env = {
      ...rest,
      DATABASE_URL: database.url,
      LOG_LEVEL: "warn",
      BANCADA_KEY_PEPPER: "stdio-refusal-pepper-not-secret",
      BOXES_SECRETS_KEY: Buffer.alloc(32, "stdio-refusal").toString("base64"),
    };
  });
  afterAll(async () => database?.drop());

  /** Connects a real SDK client over stdio: the error of its initialize and stderr's last line. */
  async function refused(extra: Record<string, string>): Promise<{ error: Error; lastLine: string; code: number | null }> {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [bin, "gateway", "--stdio"],
      env: { ...env, ...extra },
      stderr: "pipe",
    });
    let stderr = "";
    transport.stderr!.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    const client = new Client({ name: "stdio-refusal-test", version: "1" });
    const error = await client.connect(transport, { timeout: 180_000 }).then(
      () => new Error("connected"),
      (failure: Error) => failure,
    );
    await client.close();
    return { error, lastLine: lastLineOf(stderr), code: await exitCodeWithoutClient(extra) };
  }

  /** The same start with stdin closed at once (a client that hangs up): the process ends, with its exit code. */
  function exitCodeWithoutClient(extra: Record<string, string>): Promise<number | null> {
    return new Promise((resolve) => {
      const child = spawn(process.execPath, [bin, "gateway", "--stdio"], {
        env: { ...env, ...extra },
        stdio: ["pipe", "ignore", "ignore"],
      });
      child.stdin.end();
      child.once("exit", (code) => resolve(code));
    });
  }

  it("when BANCADA_API_KEY is unknown, then the client's initialize is answered with an error it can show, stderr says the same in one line, exit 1", async () => {
    const { error, lastLine, code } = await refused({ BANCADA_API_KEY: "bnc_this_key_does_not_exist_000000000" });
    expect(error.message).toContain("BANCADA_API_KEY is unknown, revoked or expired: create a key with 'pnpm bancada keys create'");
    expect(error.message).not.toContain("Connection closed");
    expect((error as { code?: number }).code).toBe(-32001);
    expect(lastLine).toMatch(/^BANCADA_API_KEY is unknown, revoked or expired: /);
    expect(lastLine).not.toMatch(/\bat .*\.ts:\d+/);
    expect(code).toBe(1);
  });

  it("when BANCADA_API_KEY is missing, then the client is told to set it, and so is stderr", async () => {
    const { error, lastLine, code } = await refused({});
    expect(error.message).toContain("BANCADA_API_KEY is not set");
    expect(lastLine).toMatch(/^BANCADA_API_KEY is not set: /);
    expect(code).toBe(1);
  });

  it("when the configuration is invalid, then the client sees the same message the terminal would", async () => {
    const { error, lastLine, code } = await refused({ BANCADA_API_KEY: "bnc_x", BANCADA_PROFILE: "tiny" });
    expect(error.message).toContain("Invalid configuration");
    expect(error.message).toContain("BANCADA_PROFILE");
    expect(lastLine).toContain("BANCADA_PROFILE");
    expect(code).toBe(1);
  });
});

function lastLineOf(text: string): string {
  return (
    text
      .split("\n")
      .filter((line) => line && !line.includes("cli/dist"))
      .at(-1) ?? ""
  );
}
