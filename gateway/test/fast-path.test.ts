/**
 * The fast path (src/http/mcp-fast-path.ts) against the SDK: two stacks alike but for `fastPath`, and a matrix of
 * raw requests — both eras, both profiles, good calls, tool errors, an unknown tool, bad arguments, a scope the key
 * lacks, wrong or missing version headers, a mismatched Mcp-Name, a wrong Accept or content type — each sent to
 * both. The status, the headers a client reads and the JSON-RPC message must be the same, and each case is taken by
 * the fast path or left to the SDK as the matrix says.
 */
import { isDeepStrictEqual } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startStack, type Stack } from "@bancada/e2e";
import { fastRequestOf } from "../src/http/mcp-fast-path.js";
import { echoFactory, scriptsFactory } from "./fixtures.js";
import { modernVersion } from "./mcp-clients.js";

type Era = "2026-07-28" | "2025-11-25" | "2025-06-18" | "2025 (no version header)";
const eras: Era[] = [modernVersion, "2025-11-25", "2025-06-18", "2025 (no version header)"];

interface Case {
  name: string;
  method: "tools/list" | "tools/call";
  params?: Record<string, unknown>;
  profile?: "full" | "search" | "core";
  /** Which key: `narrow` holds docs:read only. */
  key?: "wide" | "narrow";
  /** Changes to the headers the era's client would send (undefined removes one). */
  headers?: Record<string, string | undefined>;
  /** Changes to the 2026-07-28 `_meta` envelope. */
  meta?: Record<string, unknown>;
  /** The fast path answers it (else both go through the SDK). */
  fast: boolean;
  eras?: Era[];
  /** The JSON-RPC id (else a random integer). */
  id?: string | number | null;
  /** The call outlasts the keep-alive interval: a 2025-era stream carries keep-alive comments on both paths. */
  keepAlive?: true;
}

const missingId = "0b6f3c55-6c5b-4a8e-9d3c-5d9a6c0e2f10";
/** The stacks' SSE keep-alive interval, short so that a call can outlast it. */
const keepAliveMs = 200;
const modernOnly: Era[] = [modernVersion];
const legacyOnly: Era[] = eras.filter((era) => era !== modernVersion);

const cases: Case[] = [
  { name: "tools/list", method: "tools/list", fast: true },
  { name: "tools/list, core profile", method: "tools/list", profile: "core", fast: true },
  { name: "tools/list, search profile", method: "tools/list", profile: "search", fast: true },
  { name: "tools/list with a cursor", method: "tools/list", params: { cursor: "x" }, fast: true },
  { name: "tools/list, narrow key", method: "tools/list", key: "narrow", fast: true },
  { name: "a good call", method: "tools/call", params: { name: "echo", arguments: { message: "hi" } }, fast: true },
  { name: "a call without arguments", method: "tools/call", params: { name: "echo" }, fast: true },
  { name: "a tool error from the service", method: "tools/call", params: { name: "get_script", arguments: { id: missingId } }, fast: true },
  { name: "an unknown tool", method: "tools/call", params: { name: "no_such_tool", arguments: {} }, fast: true },
  { name: "bad arguments", method: "tools/call", params: { name: "get_script", arguments: { id: "nope" } }, fast: true },
  { name: "an unknown argument", method: "tools/call", params: { name: "echo", arguments: { message: "hi", extra: 1 } }, fast: true },
  {
    name: "a scope the key lacks",
    method: "tools/call",
    params: { name: "get_script", arguments: { id: missingId } },
    key: "narrow",
    fast: true,
  },
  {
    name: "a tool another profile hides",
    method: "tools/call",
    params: { name: "list_scripts", arguments: {} },
    profile: "core",
    fast: true,
  },
  {
    name: "search_tools",
    method: "tools/call",
    params: { name: "search_tools", arguments: { query: "echo a message", limit: 2 } },
    profile: "search",
    fast: true,
  },
  {
    name: "call_tool",
    method: "tools/call",
    params: { name: "call_tool", arguments: { name: "echo", arguments: { message: "via search" } } },
    profile: "search",
    fast: true,
  },
  {
    name: "call_tool, bad arguments",
    method: "tools/call",
    params: { name: "call_tool", arguments: { nome: "echo" } },
    profile: "search",
    fast: true,
  },
  {
    name: "a traceparent header",
    method: "tools/call",
    params: { name: "echo", arguments: { message: "traced" } },
    headers: { traceparent: "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01" },
    fast: true,
  },
  {
    name: "a call that outlasts the keep-alive interval",
    method: "tools/call",
    params: { name: "wait", arguments: { ms: 5 * keepAliveMs } },
    keepAlive: true,
    fast: true,
  },
  {
    name: "a progressToken (needs a stream)",
    method: "tools/call",
    params: { name: "echo", arguments: { message: "p" }, _meta: { progressToken: 7 } },
    fast: false,
  },
  {
    name: "an extra param",
    method: "tools/call",
    params: { name: "echo", arguments: { message: "hi" }, task: { ttl: 1000 } },
    fast: false,
  },
  { name: "a content type that is not JSON", method: "tools/list", headers: { "content-type": "text/plain" }, fast: false },
  {
    name: "a wrong Mcp-Name",
    method: "tools/call",
    params: { name: "echo", arguments: { message: "x" } },
    headers: { "mcp-name": "get_script" },
    fast: false,
    eras: modernOnly,
  },
  {
    name: "no Mcp-Name",
    method: "tools/call",
    params: { name: "echo", arguments: { message: "x" } },
    headers: { "mcp-name": undefined },
    fast: false,
    eras: modernOnly,
  },
  { name: "no MCP-Protocol-Version", method: "tools/list", headers: { "mcp-protocol-version": undefined }, fast: false, eras: modernOnly },
  { name: "no Mcp-Method", method: "tools/list", headers: { "mcp-method": undefined }, fast: false, eras: modernOnly },
  { name: "a wrong Mcp-Method", method: "tools/list", headers: { "mcp-method": "prompts/list" }, fast: false, eras: modernOnly },
  {
    name: "a header version the body does not name",
    method: "tools/list",
    headers: { "mcp-protocol-version": "2025-11-25" },
    fast: false,
    eras: modernOnly,
  },
  {
    name: "an unsupported revision",
    method: "tools/list",
    headers: { "mcp-protocol-version": "2099-01-01" },
    meta: { "io.modelcontextprotocol/protocolVersion": "2099-01-01" },
    fast: false,
    eras: modernOnly,
  },
  {
    name: "an envelope without clientInfo",
    method: "tools/list",
    meta: { "io.modelcontextprotocol/clientInfo": undefined },
    fast: true,
    eras: modernOnly,
  },
  {
    name: "an envelope whose capabilities are not an object",
    method: "tools/list",
    meta: { "io.modelcontextprotocol/clientCapabilities": "all" },
    fast: false,
    eras: modernOnly,
  },
  { name: "a string id", method: "tools/list", id: "req-7", fast: true },
  { name: "an id that is not an integer", method: "tools/list", id: 1.5, fast: false },
  {
    name: "an Accept without text/event-stream",
    method: "tools/list",
    headers: { accept: "application/json" },
    fast: false,
    eras: legacyOnly,
  },
  {
    name: "an unknown version header",
    method: "tools/list",
    headers: { "mcp-protocol-version": "1999-01-01" },
    fast: false,
    eras: legacyOnly,
  },
  {
    name: "a modern version header without the envelope",
    method: "tools/list",
    headers: { "mcp-protocol-version": modernVersion },
    fast: false,
    eras: legacyOnly,
  },
];

/**
 * Request shapes generated rather than picked: every params shape of the two methods (good, missing, wrong types,
 * extra keys, _meta variants) with every id kind, and every header variation a client or proxy may send with both
 * methods. Each is sent to both stacks in every era; which path takes it is not predicted, only that the answers
 * are the same (and how many the fast path took is printed).
 */
const generatedParams: [string, Case["method"], Record<string, unknown> | undefined][] = [
  ["no params", "tools/list", undefined],
  ["a cursor", "tools/list", { cursor: "x" }],
  ["a cursor that is a number", "tools/list", { cursor: 5 }],
  ["an extra key", "tools/list", { limit: 3 }],
  ["an empty _meta", "tools/list", { _meta: {} }],
  ["a _meta that is a string", "tools/list", { _meta: "m" }],
  ["a good call", "tools/call", { name: "echo", arguments: { message: "g" } }],
  ["no arguments", "tools/call", { name: "echo" }],
  ["arguments: null", "tools/call", { name: "echo", arguments: null }],
  ["arguments that are a string", "tools/call", { name: "echo", arguments: "message=g" }],
  ["arguments that are an array", "tools/call", { name: "echo", arguments: ["g"] }],
  ["a name that is a number", "tools/call", { name: 5, arguments: {} }],
  ["no name", "tools/call", { arguments: { message: "g" } }],
  ["an empty name", "tools/call", { name: "", arguments: {} }],
  ["a tool error", "tools/call", { name: "get_script", arguments: { id: missingId } }],
  ["an invalid argument", "tools/call", { name: "get_script", arguments: { id: 7 } }],
  ["a progressToken", "tools/call", { name: "echo", arguments: { message: "g" }, _meta: { progressToken: "p" } }],
  ["a _meta key of the client's own", "tools/call", { name: "echo", arguments: { message: "g" }, _meta: { "x.example/tag": 1 } }],
  [
    "a traceparent in _meta",
    "tools/call",
    { name: "echo", arguments: { message: "g" }, _meta: { traceparent: "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01" } },
  ],
  ["a task", "tools/call", { name: "echo", arguments: { message: "g" }, task: {} }],
];
const generatedIds: (string | number | null)[] = [7, 0, -3, "abc", "", 1.5, 2 ** 53 + 2, null];
const generatedHeaders: [string, Record<string, string | undefined>][] = [
  ["a JSON content type with a charset", { "content-type": "application/json; charset=utf-8" }],
  ["a JSON content type in capitals", { "content-type": "Application/JSON" }],
  ["a text/plain content type", { "content-type": "text/plain" }],
  ["no content type", { "content-type": undefined }],
  ["Accept: application/json", { accept: "application/json" }],
  ["Accept: text/event-stream", { accept: "text/event-stream" }],
  ["Accept: */*", { accept: "*/*" }],
  ["no Accept", { accept: undefined }],
  ["an Accept with q-values", { accept: "text/event-stream;q=0.9, application/json;q=1" }],
  ["an Origin of another site", { origin: "https://evil.example" }],
  ["a traceparent that is malformed", { traceparent: "00-zz-01" }],
];
const generatedCases: Case[] = [
  ...generatedParams.flatMap(([shape, method, params]) =>
    generatedIds.map((id) => ({
      name: `${method}, ${shape}, id ${JSON.stringify(id)}`,
      method,
      ...(params ? { params } : {}),
      id,
      fast: false,
    })),
  ),
  ...generatedHeaders.flatMap(([variation, headers]) =>
    (["tools/list", "tools/call"] as const).map((method) => ({
      name: `${method}, ${variation}`,
      method,
      ...(method === "tools/call" ? { params: { name: "echo", arguments: { message: "h" } } } : {}),
      headers,
      fast: false,
    })),
  ),
];

interface Answer {
  status: number;
  headers: Record<string, string | null>;
  message: unknown;
  /** How the body was framed: JSON, or SSE events. */
  framing: "json" | "sse" | "empty";
  /** Whether the stream carried keep-alive comments. */
  keptAlive: boolean;
}

/** The headers a client or proxy reads; transfer framing (content-length, chunked) is not compared. */
const comparedHeaders = ["content-type", "cache-control", "x-accel-buffering", "allow", "www-authenticate"];

describe("the fast path answers as the SDK does", () => {
  const stacks: Record<"fast" | "sdk", Stack | undefined> = { fast: undefined, sdk: undefined };
  const keys: Record<"fast" | "sdk", Record<"wide" | "narrow", string>> = {
    fast: { wide: "", narrow: "" },
    sdk: { wide: "", narrow: "" },
  };

  beforeAll(async () => {
    for (const which of ["fast", "sdk"] as const) {
      const stack = await startStack({
        services: { scripts: scriptsFactory, echo: echoFactory },
        gateway: { fastPath: which === "fast", sseKeepAliveMs: keepAliveMs },
      });
      stacks[which] = stack;
      keys[which] = {
        wide: await stack.createKey({ scopes: ["scripts:read", "scripts:write", "docs:read"] }),
        narrow: await stack.createKey({ scopes: ["docs:read"] }),
      };
    }
  }, 120_000);
  afterAll(async () => {
    await stacks.fast?.stop();
    await stacks.sdk?.stop();
  });

  /** The request an `era` client sends for `testCase`. */
  function requestFor(which: "fast" | "sdk", era: Era, testCase: Case, id: string | number | null) {
    const modern = era === modernVersion;
    const params: Record<string, unknown> = { ...testCase.params };
    if (modern) {
      const envelope: Record<string, unknown> = {
        "io.modelcontextprotocol/protocolVersion": modernVersion,
        "io.modelcontextprotocol/clientCapabilities": {},
        "io.modelcontextprotocol/clientInfo": { name: "diff", version: "1" },
        ...(params._meta as Record<string, unknown> | undefined),
        ...testCase.meta,
      };
      params._meta = Object.fromEntries(Object.entries(envelope).filter(([, value]) => value !== undefined));
    }
    const headers: Record<string, string | undefined> = {
      authorization: `Bearer ${keys[which][testCase.key ?? "wide"]}`,
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      ...(modern ? { "mcp-protocol-version": modernVersion, "mcp-method": testCase.method } : {}),
      ...(modern && typeof params.name === "string" ? { "mcp-name": params.name } : {}),
      ...(!modern && era !== "2025 (no version header)" ? { "mcp-protocol-version": era } : {}),
      ...testCase.headers,
    };
    const body = { jsonrpc: "2.0", id, method: testCase.method, ...(Object.keys(params).length ? { params } : {}) };
    const url = `${stacks[which]!.mcpUrl}?profile=${testCase.profile ?? "full"}`;
    const sent = Object.fromEntries(Object.entries(headers).filter((entry): entry is [string, string] => entry[1] !== undefined));
    return { url, headers: sent, body };
  }

  async function send(which: "fast" | "sdk", era: Era, testCase: Case, id: string | number | null): Promise<Answer> {
    const { url, headers, body } = requestFor(which, era, testCase, id);
    const response = await fetch(url, { method: "POST", headers, body: JSON.stringify(body) });
    const text = await response.text();
    const framing = text === "" ? "empty" : /^(event|data)?:/.test(text) ? "sse" : "json";
    const data = framing === "sse" ? text.split("\n").filter((line) => line.startsWith("data: ")) : [text];
    return {
      status: response.status,
      headers: Object.fromEntries(comparedHeaders.map((name) => [name, response.headers.get(name)])),
      message: framing === "empty" ? null : data.map((line) => JSON.parse(line.replace(/^data: /, "")) as unknown),
      framing,
      keptAlive: text.includes(": keepalive\n\n"),
    };
  }

  for (const era of eras) {
    for (const testCase of cases.filter((each) => (each.eras ?? eras).includes(era))) {
      it(`when ${era} sends ${testCase.name}, then both paths answer alike${testCase.fast ? " (fast path)" : " (SDK)"}`, async () => {
        const id = testCase.id ?? Math.floor(Math.random() * 1e6);
        const [fast, sdk] = [await send("fast", era, testCase, id), await send("sdk", era, testCase, id)];
        expect({ status: fast.status, headers: fast.headers, message: fast.message, framing: fast.framing }).toEqual({
          status: sdk.status,
          headers: sdk.headers,
          message: sdk.message,
          framing: sdk.framing,
        });
        if (testCase.keepAlive) expect([fast.keptAlive, sdk.keptAlive]).toEqual(era === modernVersion ? [false, false] : [true, true]);
        const { headers, body } = requestFor("fast", era, testCase, id);
        expect(fastRequestOf(headers, body) !== undefined, "taken by the fast path").toBe(testCase.fast);
      });
    }
  }

  for (const era of eras) {
    it(`when ${era} sends each of ${generatedCases.length} generated request shapes, then both paths answer every one alike`, async () => {
      const differ: string[] = [];
      let taken = 0;
      for (const testCase of generatedCases) {
        const id = testCase.id === undefined ? 1 : testCase.id;
        const [fast, sdk] = [await send("fast", era, testCase, id), await send("sdk", era, testCase, id)];
        const seen = (answer: Answer) => ({
          status: answer.status,
          headers: answer.headers,
          message: answer.message,
          framing: answer.framing,
        });
        // as toEqual compares: the same keys and values, in any order
        if (!isDeepStrictEqual(seen(fast), seen(sdk)))
          differ.push(`${testCase.name}: fast ${JSON.stringify(seen(fast))} ≠ SDK ${JSON.stringify(seen(sdk))}`);
        const { headers, body } = requestFor("fast", era, testCase, id);
        if (fastRequestOf(headers, body)) taken++;
      }
      console.log(
        `${era}: ${generatedCases.length} generated shapes, ${taken} taken by the fast path, ${differ.length} answered differently`,
      );
      expect(differ).toEqual([]);
      expect(taken).toBeGreaterThan(0);
    }, 300_000);
  }
});
