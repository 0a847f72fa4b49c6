/**
 * What a client without a key (or a slow or greedy one) can hold of the server: the key is checked before any
 * body is read, a body has seconds to arrive, connections are capped, and REST has a per-key rate limit.
 */
import { connect, type Socket } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { callTool, connectClient, startStack, type ErrorData, type Stack } from "@bancada/e2e";
import { scriptsFactory } from "./fixtures.js";

/** Opens a raw connection, sends `head` (and nothing more), and collects what comes back until the server closes. */
function rawRequest(port: number, head: string): { socket: Socket; answer: Promise<{ text: string; closedAfterMs: number }> } {
  const started = Date.now();
  const socket = connect(port, "127.0.0.1");
  socket.write(head);
  let text = "";
  socket.on("data", (chunk: Buffer) => (text += chunk.toString()));
  const answer = new Promise<{ text: string; closedAfterMs: number }>((resolve) => {
    socket.once("close", () => resolve({ text, closedAfterMs: Date.now() - started }));
    socket.once("error", () => {});
  });
  return { socket, answer };
}

const portOf = (stack: Stack) => Number(new URL(stack.baseUrl).port);
const post = (path: string, length: number, extra = "") =>
  `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${length}\r\n${extra}\r\n{"a":`;

describe("unauthenticated and slow clients", () => {
  let stack: Stack;
  const limit = { burst: 3, perSecond: 0.01 };
  beforeAll(async () => {
    stack = await startStack({
      services: { scripts: scriptsFactory },
      gateway: { bodyTimeoutMs: 1_000, rateLimit: limit },
      rest: { bodyTimeoutMs: 1_000, rateLimit: limit },
    });
  });
  afterAll(async () => stack?.stop());

  it("when a request without a key announces a large body, then 401 comes before the body is sent and the connection is closed", async () => {
    for (const path of ["/mcp", "/v1/scripts", "/v1/audit", "/v1/keys"]) {
      const { socket, answer } = rawRequest(portOf(stack), post(path, 2_000_000));
      const { text, closedAfterMs } = await answer;
      socket.destroy();
      expect(text, path).toMatch(/^HTTP\/1\.1 401 /);
      expect(closedAfterMs, path).toBeLessThan(1_000);
    }
  });

  it("when a body trickles in with a valid key, then 408 after the body timeout and the connection is closed", async () => {
    const key = await stack.createKey();
    for (const path of ["/mcp", "/v1/scripts"]) {
      const { socket, answer } = rawRequest(
        portOf(stack),
        post(path, 100, `Authorization: Bearer ${key}\r\nAccept: application/json, text/event-stream\r\n`),
      );
      const { text, closedAfterMs } = await answer;
      socket.destroy();
      expect(text, path).toMatch(/^HTTP\/1\.1 408 /);
      expect(text).toContain("did not arrive within 1 s");
      expect(closedAfterMs).toBeGreaterThanOrEqual(900);
      expect(closedAfterMs).toBeLessThan(4_000);
    }
  });

  it("when one key sends more REST requests than its bucket holds, then 429 rate_limited with Retry-After; another key is not affected", async () => {
    const [greedy, other] = [await stack.createKey(), await stack.createKey()];
    const get = (key: string, path = "/v1/scripts") => fetch(`${stack.baseUrl}${path}`, { headers: { authorization: `Bearer ${key}` } });
    for (let i = 0; i < limit.burst; i++) expect((await get(greedy)).status).toBe(200);
    const refused = await get(greedy);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    const body = (await refused.json()) as ErrorData;
    expect(body.error.code).toBe("rate_limited");
    expect(body.error.details?.retryAfterMs).toEqual(expect.any(Number));
    expect((await get(other)).status).toBe(200);
    // the gateway's own REST routes count too
    const audited = await stack.createKey({ scopes: ["audit:read"] });
    for (let i = 0; i < limit.burst; i++) expect((await get(audited, "/v1/audit")).status).toBe(200);
    expect((await get(audited, "/v1/audit")).status).toBe(429);
  });
});

describe("the connection cap", () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack({ services: { scripts: scriptsFactory }, serverLimits: { maxConnections: 3, headersTimeoutMs: 2_000 } });
  });
  afterAll(async () => stack?.stop());

  it("when more connections than the cap are opened, then the oldest idle one is closed to make room and the newcomer is answered; headers not sent in time close the others", async () => {
    const held = [0, 1, 2].map(() => rawRequest(portOf(stack), "GET /healthz HTTP/1.1\r\n"));
    await new Promise((resolve) => setTimeout(resolve, 200));
    const extra = rawRequest(portOf(stack), "GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n");
    const answered = await extra.answer;
    expect(answered.text).toMatch(/^HTTP\/1\.1 200 /);
    const oldest = await held[0]!.answer;
    expect(oldest.text).toBe("");
    expect(oldest.closedAfterMs).toBeLessThan(1_000);
    // the other held connections never finish their headers: the header timeout ends them
    for (const { answer } of held.slice(1)) expect((await answer).closedAfterMs).toBeLessThan(5_000);
    expect((await fetch(`${stack.baseUrl}/healthz`)).status).toBe(200);
  });

  it("when kept-alive connections idle between requests fill the cap, then the one idle longest is closed for a newcomer", async () => {
    const request = "GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n";
    // each answered once and now idle (keep-alive), the first the longest
    const kept: ReturnType<typeof rawRequest>[] = [];
    for (let i = 0; i < 3; i++) {
      const opened = rawRequest(portOf(stack), request);
      await new Promise((resolve) => opened.socket.once("data", resolve));
      kept.push(opened);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const newcomer = await rawRequest(portOf(stack), "GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n").answer;
    expect(newcomer.text).toMatch(/^HTTP\/1\.1 200 /);
    expect((await kept[0]!.answer).closedAfterMs).toBeLessThan(2_000);
    expect(kept.slice(1).every(({ socket }) => !socket.destroyed)).toBe(true);
    for (const { socket } of kept) socket.destroy();
  });

  it("when a connection has been idle longer than a client's usual 5 s, then the server still holds it (keep-alive 65 s, announced)", async () => {
    const request = "GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n";
    const socket = connect(portOf(stack), "127.0.0.1");
    socket.once("error", () => {});
    let text = "";
    socket.on("data", (chunk: Buffer) => (text += chunk.toString()));
    const answered = async (count: number) => {
      while ((text.match(/HTTP\/1\.1 200/g) ?? []).length < count && !socket.destroyed)
        await new Promise((resolve) => setTimeout(resolve, 20));
    };
    socket.write(request);
    await answered(1);
    expect(text).toMatch(/keep-alive: timeout=65/i);
    // idle past Node's default of 5 s (and past the 2 s header timeout of this stack), then a second request on the same connection
    await new Promise((resolve) => setTimeout(resolve, 6_000));
    expect(socket.destroyed).toBe(false);
    socket.write(request);
    await answered(2);
    expect((text.match(/HTTP\/1\.1 200/g) ?? []).length).toBe(2);
    socket.destroy();
  }, 20_000);
});

describe("a flood of silent connections", () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack({ services: { scripts: scriptsFactory }, serverLimits: { maxConnections: 1_024, headersTimeoutMs: 2_000 } });
  });
  afterAll(async () => stack?.stop());

  /** Opens `count` connections that never send a byte, 100 at a time (the listen backlog is not the subject here). */
  async function silentConnections(count: number): Promise<{ sockets: Socket[]; closedAfterMs: Promise<number>[] }> {
    const sockets: Socket[] = [];
    const closedAfterMs: Promise<number>[] = [];
    for (let batch = 0; batch < count; batch += 100) {
      const opened: Promise<unknown>[] = [];
      for (let i = batch; i < Math.min(count, batch + 100); i++) {
        const started = Date.now();
        const socket = connect(portOf(stack), "127.0.0.1");
        socket.once("error", () => {});
        closedAfterMs.push(new Promise((resolve) => socket.once("close", () => resolve(Date.now() - started))));
        opened.push(new Promise((resolve) => socket.once("connect", resolve).once("close", resolve)));
        sockets.push(socket);
      }
      await Promise.all(opened);
    }
    return { sockets, closedAfterMs };
  }

  it("when 1,500 connections that never send a byte hold the port, then a new client's MCP call succeeds and the silent ones are closed after the header timeout", async () => {
    const key = await stack.createKey();
    const flood = await silentConnections(1_500);
    try {
      const client = await connectClient(stack.mcpUrl, key);
      const listed = await callTool(client, "list_scripts", {});
      expect(listed.isError).toBe(false);
      await client.close();
      // every silent connection is closed by the server: the last ones opened after the header timeout
      const closed = await Promise.all(flood.closedAfterMs);
      expect(Math.max(...closed)).toBeGreaterThanOrEqual(1_500);
      expect(Math.max(...closed)).toBeLessThan(5_000);
    } finally {
      for (const socket of flood.sockets) socket.destroy();
    }
    // 4 s on a quiet machine; a CI machine also building images took over 30 s to open the 1,500 connections
  }, 90_000);
});
