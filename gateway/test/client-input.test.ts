/** What a client sends wrong is answered 4xx saying what to send, before any key check matters: never internal. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startStack, type ErrorData, type Stack } from "@bancada/e2e";
import { scriptsFactory } from "./fixtures.js";

describe("client input the body parser refuses", () => {
  let stack: Stack;
  let key: string;
  const initialize = JSON.stringify({
    jsonrpc: "2.0",
    id: 1,
    method: "initialize",
    params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "t", version: "1" } },
  });
  beforeAll(async () => {
    stack = await startStack({ services: { scripts: scriptsFactory } });
    key = await stack.createKey();
  });
  afterAll(async () => stack?.stop());

  const send = (path: string, headers: Record<string, string>, body = initialize) =>
    fetch(`${stack.baseUrl}${path}`, { method: "POST", headers: { accept: "application/json, text/event-stream", ...headers }, body });

  it("when the charset is not UTF-8 (latin1), then 415 invalid_argument on /mcp and /v1, with or without a key", async () => {
    for (const path of ["/mcp", "/v1/scripts"]) {
      for (const auth of [{}, { authorization: `Bearer ${key}` }] as Record<string, string>[]) {
        const response = await send(path, { "content-type": "application/json; charset=latin1", ...auth });
        expect(response.status, path).toBe(415);
        const body = (await response.json()) as ErrorData;
        expect(body.error.code).toBe("invalid_argument");
        expect(body.error.message).toContain("send JSON in UTF-8");
      }
    }
  });

  it("when the Content-Encoding is unknown, then 415 saying which encodings work", async () => {
    const response = await send("/v1/scripts", {
      "content-type": "application/json",
      "content-encoding": "compress",
      authorization: `Bearer ${key}`,
    });
    expect(response.status).toBe(415);
    expect(((await response.json()) as ErrorData).error.message).toContain("identity, gzip, deflate or br");
  });
});
