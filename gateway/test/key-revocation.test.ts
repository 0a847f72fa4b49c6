/**
 * A revoked key stops working everywhere within 5 s. An open stdio session follows its key: revoked by another
 * process (`bancada keys revoke` writes the row) or past its expiry, the next request within a few seconds (the
 * key cache's life) is refused with a message that says why, as HTTP refuses it. The gateway's stdio transport
 * runs in-process on a pair of streams. A service's REST resolution (cached 2 s on top of the gateway's 3 s) too.
 */
import { PassThrough } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startStack, type Stack } from "@bancada/e2e";
import { serveStdio, stdioRefusedCode } from "@bancada/gateway";
import { busKeyResolver } from "@bancada/service-kit";
import { echoFactory } from "./fixtures.js";

interface Answer {
  id: string | number | null;
  result?: { structuredContent?: unknown; isError?: boolean };
  error?: { code: number; message: string };
}

/** A stdio session on a pair of streams: `request` writes one request line and waits for its answer. */
async function openSession(stack: Stack, key: string) {
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  const answers = new Map<string | number | null, Answer>();
  let text = "";
  stdout.on("data", (chunk: Buffer) => {
    text += chunk.toString("utf8");
    for (let end = text.indexOf("\n"); end !== -1; end = text.indexOf("\n")) {
      const answer = JSON.parse(text.slice(0, end)) as Answer;
      answers.set(answer.id, answer);
      text = text.slice(end + 1);
    }
  });
  let nextId = 0;
  async function request(method: string, params: Record<string, unknown>): Promise<Answer> {
    const id = ++nextId;
    stdin.write(`${JSON.stringify({ jsonrpc: "2.0", id, method, params })}\n`);
    const until = Date.now() + 10_000;
    while (!answers.has(id)) {
      if (Date.now() > until) throw new Error(`no answer to ${method}`);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    return answers.get(id)!;
  }
  const stdio = await serveStdio(stack.gateway, key, "full", { stdin, stdout });
  const init = await request("initialize", { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "t", version: "1" } });
  expect(init.result).toBeDefined();
  stdin.write(`${JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" })}\n`);
  return { request, close: () => stdio.close() };
}

/** Calls echo every 200 ms until a call is refused; answers the refusal and how long after `since` it came. */
async function firstRefusal(session: Awaited<ReturnType<typeof openSession>>, since: number): Promise<{ answer: Answer; afterMs: number }> {
  for (;;) {
    const answer = await session.request("tools/call", { name: "echo", arguments: { message: "still?" } });
    if (answer.error) return { answer, afterMs: Date.now() - since };
    expect(answer.result?.isError).not.toBe(true);
    if (Date.now() - since > 10_000) throw new Error("the session kept serving for 10 s");
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

describe("a revoked or expired key, on stdio and REST", () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack({ services: { echo: echoFactory } });
  }, 120_000);
  afterAll(async () => stack?.stop());

  it("when the key is revoked by another process during an open stdio session, then the next call within 5 s is refused saying the key was revoked", async () => {
    const key = await stack.createKey({ scopes: ["docs:read"] });
    const session = await openSession(stack, key);
    try {
      const served = await session.request("tools/call", { name: "echo", arguments: { message: "hi" } });
      expect(served.result?.structuredContent).toEqual({ message: "hi" });
      // as `bancada keys revoke` does from its own process: the row changes, this gateway's cache does not hear of it
      const id = (await stack.gateway.keys.list()).find((record) => key.startsWith(record.prefix))!.id;
      await stack.gateway.db.apiKey.update({ where: { id }, data: { revokedAt: new Date() } });
      const revokedAt = Date.now();
      const { answer, afterMs } = await firstRefusal(session, revokedAt);
      expect(afterMs).toBeLessThanOrEqual(5_000);
      expect(answer.error?.code).toBe(stdioRefusedCode);
      expect(answer.error?.message).toMatch(/revoked or has expired/);
      // tools/list too: nothing more is served
      expect((await session.request("tools/list", {})).error?.code).toBe(stdioRefusedCode);
    } finally {
      await session.close();
    }
  }, 30_000);

  it("when the key expires during an open stdio session, then the next call is refused", async () => {
    const key = await stack.createKey({ scopes: ["docs:read"], expiresAt: new Date(Date.now() + 2_000) });
    const session = await openSession(stack, key);
    try {
      const expiresAt = Date.now() + 2_000;
      const { answer, afterMs } = await firstRefusal(session, expiresAt);
      expect(afterMs).toBeLessThanOrEqual(1_000);
      expect(answer.error?.message).toMatch(/revoked or has expired/);
    } finally {
      await session.close();
    }
  }, 30_000);

  it("when a key is revoked just after the gateway cached its row, then a service's REST resolution refuses it within 5 s", async () => {
    const key = await stack.createKey({ scopes: ["docs:read"] });
    const resolver = busKeyResolver(stack.bus, stack.subjects, "echo");
    const started = Date.now();
    expect(await resolver.resolve(key)).not.toBeNull();
    // the worst moment: the gateway's cache of the row is refreshed (3 s) just before the revocation
    await new Promise((resolve) => setTimeout(resolve, 3_100 - (Date.now() - started)));
    expect(await stack.gateway.keys.resolve(key)).not.toBeNull();
    const id = (await stack.gateway.keys.list()).find((record) => key.startsWith(record.prefix))!.id;
    await stack.gateway.db.apiKey.update({ where: { id }, data: { revokedAt: new Date() } });
    const revokedAt = Date.now();
    while ((await resolver.resolve(key)) !== null) {
      expect(Date.now() - revokedAt).toBeLessThan(9_000);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(Date.now() - revokedAt).toBeLessThanOrEqual(5_000);
  }, 30_000);
});
