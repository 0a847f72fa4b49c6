/**
 * What a client gets wrong in the request itself is answered 400 `invalid_argument` with the error envelope,
 * never a 500 `internal`: a path that is not valid percent-encoding, a NUL in the path or query (PostgreSQL
 * refuses it in any text), a body whose Content-Encoding does not match its bytes.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startStack, type ErrorData, type Stack } from "@bancada/e2e";
import { scriptsFactory } from "./fixtures.js";

describe("malformed requests", () => {
  let stack: Stack;
  let key: string;
  beforeAll(async () => {
    stack = await startStack({ services: { scripts: scriptsFactory } });
    key = await stack.createKey({ scopes: ["scripts:read", "scripts:write", "keys:read", "keys:write"] });
  });
  afterAll(async () => stack?.stop());

  const request = (method: string, path: string, init: { headers?: Record<string, string>; body?: string } = {}) =>
    fetch(`${stack.baseUrl}${path}`, { method, headers: { authorization: `Bearer ${key}`, ...init.headers }, body: init.body ?? null });

  it("when a path segment is not valid percent-encoding, then 400 invalid_argument on every route, with or without a key", async () => {
    const routes: [string, string][] = [
      ["GET", "/v1/scripts/%ZZ"],
      ["GET", "/v1/boards/%ZZ"],
      ["GET", "/v1/workspaces/%ZZ"],
      ["GET", "/v1/documents/%ZZ"],
      ["GET", "/v1/boxes/%ZZ"],
      ["POST", "/v1/keys/%ZZ/revoke"],
      ["GET", "/v1/scripts/%E0%A4%A"],
    ];
    for (const [method, path] of routes) {
      const answer = await request(method, path);
      expect(answer.status, `${method} ${path}`).toBe(400);
      expect(((await answer.json()) as ErrorData).error.code).toBe("invalid_argument");
    }
    const anonymous = await fetch(`${stack.baseUrl}/v1/scripts/%ZZ`);
    expect(anonymous.status).toBe(400);
  });

  it("when the path or query holds a NUL, then 400 invalid_argument before any query", async () => {
    for (const path of [
      "/boxes/transfers/upload/%00?path=/x&expires=1&signature=x",
      "/v1/scripts/%00",
      "/v1/scripts?cursor=%00",
      "/v1/keys/%00/revoke",
    ]) {
      const answer = await request(path.includes("upload") ? "PUT" : path.includes("revoke") ? "POST" : "GET", path);
      expect(answer.status, path).toBe(400);
      expect(((await answer.json()) as ErrorData).error.code).toBe("invalid_argument");
    }
    // still served: a well-formed escape
    expect((await request("GET", "/v1/scripts?limit=%32")).status).toBe(200);
  });

  it("when a body says Content-Encoding gzip, br or deflate but is not compressed, then 400 invalid_argument on /mcp (both eras) and REST", async () => {
    const mcpBodies = [
      JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list", params: {} }),
      JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "tools/list",
        params: { _meta: { "io.modelcontextprotocol/protocolVersion": "2026-07-28" } },
      }),
    ];
    for (const encoding of ["gzip", "br", "deflate"]) {
      for (const body of mcpBodies) {
        const answer = await request("POST", "/mcp", {
          headers: { "content-type": "application/json", accept: "application/json, text/event-stream", "content-encoding": encoding },
          body,
        });
        expect(answer.status, `/mcp ${encoding}`).toBe(400);
        expect(((await answer.json()) as ErrorData).error.code).toBe("invalid_argument");
      }
      const rest = await request("POST", "/v1/scripts", {
        headers: { "content-type": "application/json", "content-encoding": encoding },
        body: JSON.stringify({ name: "x", content: "y" }),
      });
      expect(rest.status, `REST ${encoding}`).toBe(400);
      const body = (await rest.json()) as ErrorData;
      expect(body.error.code).toBe("invalid_argument");
      expect(body.error.message).toMatch(/Content-Encoding/);
    }
  });
});
