/** `bancada audit` as an operator runs it: a real process reading the gateway's audit table. */
import { execFile, spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createGatewayDb, migrateGateway } from "@bancada/gateway";
import { freshDatabase, type TestDatabase } from "@bancada/testkit";
import { bin } from "./start-bancada.js";

const run = promisify(execFile);

describe("bancada audit", { timeout: 240_000 }, () => {
  let database: TestDatabase;
  let env: NodeJS.ProcessEnv;
  const bancada = (...args: string[]) => run(process.execPath, [bin, ...args], { env, timeout: 120_000 });
  const failure = (...args: string[]) =>
    bancada(...args).then(
      () => ({ code: 0, stderr: "" }),
      (error: unknown) => error as { code: number; stderr: string },
    );

  beforeAll(async () => {
    database = await freshDatabase("bancada_audit");
    const { NATS_URL: _ignored, ...rest } = process.env;
    env = { ...rest, DATABASE_URL: database.url, LOG_LEVEL: "warn", BANCADA_KEY_PEPPER: "audit-test-pepper" };
    await migrateGateway(database.url);
    const db = createGatewayDb(database.url, 1);
    const row = (accountId: string, tool: string, minutesAgo: number, outcome = "ok") => ({
      at: new Date(Date.now() - minutesAgo * 60_000),
      keyId: randomUUID(),
      accountId,
      personId: "p",
      agentId: `${accountId}-agent`,
      tool,
      outcome,
      durationMs: 12,
    });
    await db.toolCall.createMany({
      data: [row("acme", "get_script", 120), row("acme", "list_scripts", 10), row("other", "get_script", 5, "not_found")],
    });
    await db.$disconnect();
  });
  afterAll(async () => database?.drop());

  it("when filtered by account, tool and since, then it prints exactly those calls, newest first", async () => {
    const all = JSON.parse((await bancada("audit", "--json")).stdout) as { tool: string; accountId: string }[];
    expect(all.map((c) => `${c.accountId}/${c.tool}`)).toEqual(["other/get_script", "acme/list_scripts", "acme/get_script"]);
    const acme = JSON.parse((await bancada("audit", "--account", "acme", "--since", "1h", "--json")).stdout) as { tool: string }[];
    expect(acme.map((c) => c.tool)).toEqual(["list_scripts"]);
    const text = (await bancada("audit", "--tool", "get_script")).stdout.trim().split("\n");
    expect(text).toHaveLength(2);
    expect(text[0]).toMatch(/get_script\s+not_found\s+12 ms\s+account=other agent=other-agent key=/);
    expect((await bancada("audit", "--account", "nobody")).stdout.trim()).toBe("No tool calls match.");
  });

  it("when --json prints more than a pipe holds (64 KiB), then every byte reaches the reader before the process exits", async () => {
    const db = createGatewayDb(database.url, 1);
    const agentId = `piped-${"a".repeat(200)}`;
    await db.toolCall.createMany({
      data: Array.from({ length: 500 }, (_, i) => ({
        at: new Date(Date.now() - i * 1_000),
        keyId: randomUUID(),
        accountId: "piped",
        personId: "p",
        agentId,
        tool: "list_scripts",
        outcome: "ok",
        durationMs: i,
      })),
    });
    await db.$disconnect();
    // `bancada audit --json | reader` on a real pipe (64 KiB), the reader slower than the writer: after the first
    // byte it waits 2 s before reading on, so the output cannot all be in the pipe when the command is done
    const command = `"${process.execPath}" "${bin}" audit --account piped --limit 500 --json | { dd bs=1 count=1 2>/dev/null; sleep 2; cat; }`;
    const child = spawn("sh", ["-c", command], { env });
    const closed = new Promise((resolve) => child.once("close", resolve));
    let stdout = "";
    child.stdout.setEncoding("utf8");
    child.stdout.on("data", (chunk: string) => (stdout += chunk));
    await closed;
    expect(Buffer.byteLength(stdout)).toBeGreaterThan(128 * 1024);
    const calls = JSON.parse(stdout) as { agentId: string }[];
    expect(calls).toHaveLength(500);
    expect(calls.every((call) => call.agentId === agentId)).toBe(true);
  });

  it("when --since or --limit is wrong, then one line saying what it takes and a non-zero exit", async () => {
    // the last line: a start from the sources (a stale bundle) prints a hint first
    const lastLine = (stderr: string) => stderr.trim().split("\n").at(-1);
    const since = await failure("audit", "--since", "yesterday");
    expect(since.code).toBe(1);
    expect(lastLine(since.stderr)).toBe("--since takes a duration (30s, 30m, 1h, 7d) or an ISO 8601 date-time, not 'yesterday'.");
    const limit = await failure("audit", "--limit", "0");
    expect(lastLine(limit.stderr)).toBe("--limit takes a whole number from 1 to 500.");
  });
});
