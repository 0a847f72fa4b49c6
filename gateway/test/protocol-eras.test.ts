/**
 * Both protocol eras on one /mcp and on stdio: a 1.x SDK Client (2025-11-25), the v2 Client pinned to
 * 2026-07-28, raw 2025-06-18 and 2026-07-28 requests; the new revision's error codes; and the readable
 * -32602 answers to malformed tools/call and prompts/get, in both eras and on stdio.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startStack, type Stack } from "@bancada/e2e";
import { echoFactory, scriptsFactory } from "./fixtures.js";
import { connect, modernVersion, type ClientLine, type McpClient, type Via } from "./mcp-clients.js";

const meta = {
  "io.modelcontextprotocol/protocolVersion": modernVersion,
  "io.modelcontextprotocol/clientCapabilities": {},
  "io.modelcontextprotocol/clientInfo": { name: "raw", version: "1" },
};

interface RpcAnswer {
  status: number;
  body: { result?: Record<string, unknown>; error?: { code: number; message: string; data?: unknown } };
}

describe("protocol eras", () => {
  let stack: Stack;
  let key: string;
  const clients: McpClient[] = [];

  /** One JSON-RPC request over HTTP; `modern` adds the 2026-07-28 envelope and headers. */
  async function rpc(
    body: unknown,
    options: { modern?: boolean; headers?: Record<string, string>; raw?: string } = {},
  ): Promise<RpcAnswer> {
    const message = body as { method?: string; params?: Record<string, unknown> };
    const withMeta =
      options.modern &&
      message.params !== undefined &&
      typeof message.params === "object" &&
      message.params !== null &&
      !Array.isArray(message.params)
        ? { ...message, params: { ...message.params, _meta: meta } }
        : body;
    const headers: Record<string, string> = {
      authorization: `Bearer ${key}`,
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      ...(options.modern ? { "mcp-protocol-version": modernVersion, ...(message.method ? { "mcp-method": message.method } : {}) } : {}),
      ...options.headers,
    };
    const name = (message.params as { name?: unknown } | undefined)?.name;
    if (options.modern && typeof name === "string") headers["mcp-name"] = name;
    const response = await fetch(stack.mcpUrl, { method: "POST", headers, body: options.raw ?? JSON.stringify(withMeta) });
    const text = await response.text();
    const json =
      text.startsWith("event:") || text.startsWith("data:")
        ? text
            .split("\n")
            .find((line) => line.startsWith("data: "))!
            .slice(6)
        : text;
    return { status: response.status, body: JSON.parse(json) as RpcAnswer["body"] };
  }

  beforeAll(async () => {
    stack = await startStack({ services: { scripts: scriptsFactory, echo: echoFactory } });
    key = await stack.createKey({ scopes: ["scripts:read", "scripts:write", "docs:read"] });
  });
  afterAll(async () => {
    await Promise.all(clients.map((client) => client.close().catch(() => {})));
    await stack?.stop();
  });

  const matrix: [ClientLine, Via][] = [
    ["v1", "http"],
    ["v2", "http"],
    ["v1", "stdio"],
    ["v2", "stdio"],
  ];
  for (const [line, via] of matrix) {
    it(`when the ${line} SDK Client connects over ${via}, then it lists, calls, gets a prompt and reads readable validation errors`, async () => {
      const client = await connect(line, via, { mcpUrl: stack.mcpUrl, key, databaseUrl: stack.database.url });
      clients.push(client);
      if (line === "v2") expect(client.protocolVersion()).toBe(modernVersion);
      const names = (await client.listTools()).tools.map((tool) => tool.name);
      expect(names).toEqual(expect.arrayContaining(["echo", "get_script", "list_scripts", "create_script"]));

      const echoed = await client.callTool({ name: "echo", arguments: { message: `hi ${line}` } });
      expect(echoed.isError).toBeFalsy();
      expect(echoed.structuredContent).toEqual({ message: `hi ${line}` });

      const prompt = await client.getPrompt({ name: "greet", arguments: { name: "Ana" } });
      expect(JSON.stringify(prompt.messages)).toContain("Hello, Ana!");

      // a format error says the format once (not the regex); an enum error lists the values
      const badId = await client.callTool({ name: "get_script", arguments: { id: "nope" } });
      expect(badId.isError).toBe(true);
      const idError = (badId.structuredContent as { error: { code: string; message: string; details: { issues: unknown[] } } }).error;
      expect(idError.code).toBe("invalid_argument");
      expect(idError.details.issues).toEqual([{ path: "id", message: expect.stringMatching(/^must be a UUID/) }]);
      expect(idError.message).not.toMatch(/\^|\[0-9a-f/);
      const badStatus = await client.callTool({ name: "list_scripts", arguments: { status: "nope" } });
      const statusError = (badStatus.structuredContent as { error: { message: string } }).error;
      expect(statusError.message).toMatch(/status: must be one of: "draft", "ready", "review", "completed"/);
    }, 180_000);
  }

  it("when a 2026-07-28 client asks server/discover, then it is offered 2026-07-28 and the capabilities, with no session", async () => {
    const answer = await rpc({ jsonrpc: "2.0", id: 1, method: "server/discover", params: {} }, { modern: true });
    expect(answer.status).toBe(200);
    expect(answer.body.result?.supportedVersions).toContain(modernVersion);
    expect(answer.body.result?.capabilities).toMatchObject({ tools: {}, prompts: {} });
    const list = await rpc({ jsonrpc: "2.0", id: 2, method: "tools/list", params: {} }, { modern: true });
    expect(list.body.result).toMatchObject({ ttlMs: 60_000, cacheScope: "private" });
    expect((list.body.result?.tools as unknown[]).length).toBeGreaterThan(5);
  });

  it("when a 2025-06-18 client initializes, then it gets 2025-06-18 back", async () => {
    const answer = await rpc({
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "old", version: "1" } },
    });
    expect(answer.body.result?.protocolVersion).toBe("2025-06-18");
  });

  it("when a request names an unsupported revision or its headers disagree with its body, then -32022 and -32020", async () => {
    const unsupported = await rpc(
      {
        jsonrpc: "2.0",
        id: 1,
        method: "tools/list",
        params: { _meta: { ...meta, "io.modelcontextprotocol/protocolVersion": "2099-01-01" } },
      },
      { headers: { "mcp-protocol-version": "2099-01-01", "mcp-method": "tools/list" } },
    );
    expect(unsupported.body.error?.code).toBe(-32022);
    const mismatch = await rpc(
      { jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "echo", arguments: { message: "x" } } },
      { modern: true, headers: { "mcp-method": "tools/list" } },
    );
    expect(mismatch.body.error?.code).toBe(-32020);
  });

  const malformed: [string, unknown, RegExp][] = [
    ["tools/call without params", { jsonrpc: "2.0", id: 1, method: "tools/call" }, /needs params/],
    ["tools/call without a name", { jsonrpc: "2.0", id: 1, method: "tools/call", params: { arguments: {} } }, /needs params\.name/],
    ["a non-string tool name", { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: 5 } }, /non-empty string, not number/],
    ["arguments as an array", { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "echo", arguments: [] } }, /not an array/],
    ["arguments as a string", { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "echo", arguments: "str" } }, /not a string/],
    ["arguments as a number", { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "echo", arguments: 123 } }, /not number/],
    ["arguments as null", { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "echo", arguments: null } }, /not null/],
    ["an unknown prompt", { jsonrpc: "2.0", id: 1, method: "prompts/get", params: { name: "nope" } }, /Unknown prompt 'nope'/],
    [
      "a prompt without its required argument",
      { jsonrpc: "2.0", id: 1, method: "prompts/get", params: { name: "greet", arguments: {} } },
      /name: required/,
    ],
    [
      "a prompt with an argument it does not take",
      { jsonrpc: "2.0", id: 1, method: "prompts/get", params: { name: "greet", arguments: { name: "a", mood: "b" } } },
      /unknown argument 'mood'/,
    ],
    [
      "a prompt argument that is not a string",
      { jsonrpc: "2.0", id: 1, method: "prompts/get", params: { name: "greet", arguments: { name: 5 } } },
      /must be a string/,
    ],
  ];
  for (const modern of [false, true]) {
    for (const [what, body, message] of malformed) {
      it(`when a ${modern ? "2026-07-28" : "2025-era"} client sends ${what}, then -32602 with a readable message`, async () => {
        const answer = await rpc(body, { modern });
        expect(answer.body.error?.code, JSON.stringify(answer.body)).toBe(-32602);
        expect(answer.body.error?.message).toMatch(message);
        expect(answer.body.error?.message).not.toMatch(/invalid_type|"expected"|\n/);
      });
    }
  }

  it("when a request repeats a key in one object, then -32602 naming the key", async () => {
    const raw =
      '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","name":"create_script","arguments":{"message":"x"}}}';
    const answer = await rpc({}, { raw });
    expect(answer.body.error).toMatchObject({ code: -32602, message: expect.stringMatching(/'name' appears twice/) });
    const nested = '{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"echo","arguments":{"message":"x","message":"y"}}}';
    expect((await rpc({}, { raw: nested })).body.error?.code).toBe(-32602);
    const fine =
      '{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"echo","arguments":{"message":"[\\"name\\":1,\\"name\\":2]"}}}';
    expect((await rpc({}, { raw: fine })).body.result).toBeDefined();
  });
});
