/**
 * Schema-driven fuzzing of the whole stack: every tool tools/list shows, called through a real MCP Client with
 * arguments generated from its own inputSchema (valid-shaped and broken), raw malformed JSON-RPC over HTTP, and
 * every REST operation of the OpenAPI document with generated bodies. Whatever a client sends, the answer is a
 * result, a tool error that is not `internal`, or a JSON-RPC -32602; never -32603, never a 5xx, never a hang.
 * A fixed seed and bounded runs keep it reproducible and within CI's time.
 */
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { connectClient } from "@bancada/testkit";
import { mangled, validShaped, type JsonSchema } from "./schema-arbitrary.js";
import { startInProcess, type InProcess } from "./in-process.js";

const seed = 16_016;
const runsPerTool = 6;
const runsPerRoute = 3;
const callTimeoutMs = 30_000;

/**
 * create_box starts a real sandbox with its own disk for each valid-shaped call: fuzzing it would cost minutes
 * and gigabytes here; its limits have their own tests (services/boxes/test). With no box created, every other
 * box tool is fuzzed against boxes that do not exist.
 */
const notFuzzed = new Set(["create_box"]);
const notFuzzedRoutes = new Set(["post /v1/boxes"]);

type Outcome = { kind: "result"; isError: boolean; code?: string } | { kind: "rpc-error"; code: number; message: string };

describe("fuzzing every tool and route", { timeout: 600_000 }, () => {
  let stack: InProcess;
  let client: Client;
  beforeAll(async () => {
    stack = await startInProcess();
    client = await connectClient(stack.mcpUrl, stack.key);
  });
  afterAll(async () => {
    await client?.close();
    await stack?.stop();
  });

  async function call(name: string, args: unknown): Promise<Outcome> {
    try {
      const result = await client.callTool({ name, arguments: args as Record<string, unknown> }, undefined, { timeout: callTimeoutMs });
      if (result.isError !== true) return { kind: "result", isError: false };
      const text = (result.content as { text?: string }[])[0]?.text ?? "{}";
      const envelope = (result.structuredContent ?? JSON.parse(text)) as { error?: { code?: string } };
      return { kind: "result", isError: true, ...(envelope.error?.code ? { code: envelope.error.code } : {}) };
    } catch (error) {
      const { code, message } = error as { code?: number; message: string };
      return { kind: "rpc-error", code: code ?? 0, message };
    }
  }

  const acceptable = (outcome: Outcome): boolean => (outcome.kind === "result" ? outcome.code !== "internal" : outcome.code === -32602);

  it("when each tool is called with arguments made from its inputSchema (valid-shaped and broken), then never internal, -32603 or a hang", async () => {
    const { tools } = await client.listTools();
    expect(tools.length).toBeGreaterThan(30);
    const failures: string[] = [];
    for (const tool of tools.filter((t) => !notFuzzed.has(t.name))) {
      const schema = tool.inputSchema as JsonSchema;
      const args = fc.oneof(validShaped(schema), mangled(schema));
      const verdict = await fc.check(
        fc.asyncProperty(args, async (value) => {
          const outcome = await call(tool.name, value);
          if (!acceptable(outcome)) throw new Error(JSON.stringify(outcome));
        }),
        { seed, numRuns: runsPerTool, endOnFailure: true },
      );
      if (verdict.failed)
        failures.push(`${tool.name}: ${String(verdict.errorInstance)} with ${JSON.stringify(verdict.counterexample)?.slice(0, 500)}`);
    }
    expect(failures).toEqual([]);
  });

  async function rawCall(body: string): Promise<{ status: number; error?: { code: number }; result?: unknown }> {
    const response = await fetch(stack.mcpUrl, {
      method: "POST",
      headers: { authorization: `Bearer ${stack.key}`, "content-type": "application/json", accept: "application/json, text/event-stream" },
      body,
      signal: AbortSignal.timeout(callTimeoutMs),
    });
    const text = await response.text();
    const data = text.includes("data:")
      ? text
          .split("\n")
          .filter((line) => line.startsWith("data:") && line.length > 5)
          .at(-1)!
          .slice(5)
      : text;
    return { status: response.status, ...(JSON.parse(data) as { error?: { code: number }; result?: unknown }) };
  }

  it("when raw JSON-RPC tools/call requests are malformed (arguments not an object, no params, a name not a string), then -32602", async () => {
    const envelope = (params: unknown) =>
      JSON.stringify({ jsonrpc: "2.0", id: 7, method: "tools/call", ...(params === undefined ? {} : { params }) });
    const malformed = [
      envelope(undefined),
      envelope(null),
      envelope("list_scripts"),
      envelope([]),
      envelope({}),
      envelope({ name: 42, arguments: {} }),
      envelope({ name: null, arguments: {} }),
      envelope({ name: { nested: true }, arguments: {} }),
      envelope({ name: "list_scripts", arguments: 5 }),
      envelope({ name: "list_scripts", arguments: "text" }),
      envelope({ name: "list_scripts", arguments: [1, 2] }),
      envelope({ name: "list_scripts", arguments: null }),
    ];
    for (const body of malformed) {
      const answer = await rawCall(body);
      expect(answer.status, body.slice(0, 120)).toBeLessThan(500);
      expect(answer.error?.code, body.slice(0, 120)).toBe(-32602);
    }
    // a well-formed call of a tool that does not exist is the tool error not_found, saying where the list is;
    // a name longer than any tool's (64 characters) is invalid_argument
    for (const [name, code] of [
      ["no_such_tool", "not_found"],
      ["x".repeat(64), "not_found"],
      ["x".repeat(65), "invalid_argument"],
      ["x".repeat(10_000), "invalid_argument"],
    ]) {
      const answer = await rawCall(envelope({ name, arguments: {} }));
      expect(answer.result).toMatchObject({ isError: true, structuredContent: { error: { code } } });
    }
  });

  it("when a tools/call repeats a key (JSON's last one wins), then the call is answered as the last one says: never -32603 or a 5xx", async () => {
    const duplicates = [
      '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"get_script","name":"list_scripts","arguments":{}}}',
      '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"list_scripts","arguments":{"limit":1},"arguments":7}}',
      '{"jsonrpc":"2.0","id":1,"method":"tools/call","method":"tools/call","params":{"name":"list_scripts","arguments":{"limit":2,"limit":"x"}}}',
    ];
    for (const body of duplicates) {
      const answer = await rawCall(body);
      expect(answer.status, body).toBeLessThan(500);
      expect(answer.error === undefined ? "result" : String(answer.error.code), JSON.stringify(answer).slice(0, 300)).toMatch(
        /^(result|-32602)$/,
      );
    }
  });

  it("when every REST operation of the OpenAPI document gets generated bodies, query values and path ids, then never a 5xx", async () => {
    const document = (await (await fetch(`${stack.baseUrl}/v1/openapi.json`)).json()) as {
      paths: Record<string, Record<string, Operation>>;
    };
    const failures: string[] = [];
    for (const [template, operations] of Object.entries(document.paths)) {
      if (!template.startsWith("/v1/")) continue;
      for (const [method, operation] of Object.entries(operations)) {
        if (notFuzzedRoutes.has(`${method} ${template}`)) continue;
        const verdict = await fc.check(
          fc.asyncProperty(requestOf(template, operation), async (request) => {
            const response = await fetch(`${stack.baseUrl}${request.path}`, {
              method: method.toUpperCase(),
              headers: {
                authorization: `Bearer ${stack.key}`,
                ...(request.body !== undefined ? { "content-type": "application/json" } : {}),
              },
              ...(request.body !== undefined ? { body: request.body } : {}),
              signal: AbortSignal.timeout(callTimeoutMs),
            });
            const text = await response.text();
            if (response.status >= 500) throw new Error(`${response.status} ${text.slice(0, 300)}`);
          }),
          { seed, numRuns: runsPerRoute, endOnFailure: true },
        );
        if (verdict.failed)
          failures.push(
            `${method} ${template}: ${String(verdict.errorInstance)} with ${JSON.stringify(verdict.counterexample)?.slice(0, 400)}`,
          );
      }
    }
    expect(failures).toEqual([]);
  });
});

interface Operation {
  parameters?: { name: string; in: string; schema?: JsonSchema }[];
  requestBody?: { content: Record<string, { schema: JsonSchema }> };
}

/** A path with generated ids (uuids, mostly), a query string from the query parameters, and a JSON body (or broken text). */
function requestOf(template: string, operation: Operation): fc.Arbitrary<{ path: string; body?: string }> {
  const pathNames = [...template.matchAll(/\{([^}]+)\}/g)].map((match) => match[1]!);
  const pathValue = fc.oneof(
    { weight: 3, arbitrary: fc.uuid() },
    { weight: 1, arbitrary: fc.string({ unit: "grapheme", minLength: 1, maxLength: 30 }) },
  );
  const query = (operation.parameters ?? []).filter((parameter) => parameter.in === "query");
  const queryArb = fc.record(
    Object.fromEntries(
      query.map((parameter) => [parameter.name, fc.oneof(validShaped(parameter.schema ?? {}), mangled(parameter.schema ?? {}))]),
    ),
    { requiredKeys: [] },
  );
  const json = operation.requestBody?.content["application/json"]?.schema;
  const bodyArb: fc.Arbitrary<string | undefined> = json
    ? fc.oneof(
        { weight: 4, arbitrary: fc.oneof(validShaped(json), mangled(json)).map((value) => JSON.stringify(value)) },
        { weight: 1, arbitrary: fc.constantFrom("{", "[]", '"text"', "null", '{"a":1,"a":2}') },
      )
    : fc.constant(undefined);
  return fc
    .tuple(fc.array(pathValue, { minLength: pathNames.length, maxLength: pathNames.length }), queryArb, bodyArb)
    .map(([ids, values, body]) => {
      let path = template;
      pathNames.forEach((name, index) => (path = path.replace(`{${name}}`, encodeURIComponent(ids[index]!))));
      const search = new URLSearchParams();
      for (const [key, value] of Object.entries(values)) {
        if (value === undefined) continue;
        search.set(key, typeof value === "string" ? value : JSON.stringify(value));
      }
      const qs = search.toString();
      return { path: qs ? `${path}?${qs}` : path, ...(body !== undefined ? { body } : {}) };
    });
}
