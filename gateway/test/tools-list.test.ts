import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { callTool, connectClient, startStack, type ErrorData, type Stack } from "@bancada/e2e";
import { echoFactory, scriptsFactory } from "./fixtures.js";

const names = async (client: Client) => (await client.listTools()).tools.map((tool) => tool.name).sort();
const allScripts = ["create_script", "get_script", "list_scripts", "restore_script", "trash_script", "update_script"];

describe("tools/list per key", () => {
  let stack: Stack;
  const clients: Client[] = [];
  const connect = async (...args: Parameters<typeof connectClient>) => {
    const client = await connectClient(...args);
    clients.push(client);
    return client;
  };
  beforeAll(async () => {
    stack = await startStack({ services: { scripts: scriptsFactory, echo: echoFactory } });
  });
  afterAll(async () => {
    await Promise.all(clients.map((client) => client.close()));
    await stack?.stop();
  });

  it("when the key has every scripts scope and writes, then it sees the six scripts tools and no tool of a scope it lacks", async () => {
    const client = await connect(stack.mcpUrl, await stack.createKey());
    expect(await names(client)).toEqual(allScripts);
  });

  it("when the key only has scripts:read, then it sees only the read tools and a write call is permission_denied naming the scope", async () => {
    const client = await connect(stack.mcpUrl, await stack.createKey({ scopes: ["scripts:read"] }));
    expect(await names(client)).toEqual(["get_script", "list_scripts"]);
    const result = await callTool<ErrorData>(client, "create_script", { title: "t", text: "x" });
    expect(result.isError).toBe(true);
    expect(result.data.error.code).toBe("permission_denied");
    expect(result.data.error.details?.requiredScope).toBe("scripts:write");
  });

  it("when allowWrites is off, then write tools are not listed and calling one is permission_denied", async () => {
    const client = await connect(stack.mcpUrl, await stack.createKey({ allowWrites: false }));
    expect(await names(client)).toEqual(["get_script", "list_scripts"]);
    const result = await callTool<ErrorData>(client, "update_script", {
      id: crypto.randomUUID(),
      revision: 1,
      title: "t",
      text: "",
      status: "draft",
    });
    expect(result.data.error.code).toBe("permission_denied");
    expect(result.data.error.details?.allowWrites).toBe(false);
  });

  it("when the client asks for the core profile, then it sees only core tools but may still call full ones", async () => {
    const key = await stack.createKey({ scopes: ["scripts:read", "scripts:write", "docs:read"] });
    const core = await connect(stack.mcpUrl, key, { profile: "core" });
    expect(await names(core)).toEqual(["echo", "get_script", "list_scripts"]);
    const created = await callTool(core, "create_script", { title: "from core", text: "" });
    expect(created.isError).toBe(false);
    const full = await connect(stack.mcpUrl, key);
    expect(await names(full)).toEqual([...allScripts, "count", "echo", "slow_echo", "wait"].sort());
  });

  it("when tools are listed, then each carries the annotations its domain documents (docs/) and a strict input schema", async () => {
    const client = await connect(stack.mcpUrl, await stack.createKey());
    const tools = Object.fromEntries((await client.listTools()).tools.map((tool) => [tool.name, tool]));
    const hints = (name: string) => {
      const a = tools[name]!.annotations!;
      return [a.readOnlyHint, a.destructiveHint, a.idempotentHint, a.openWorldHint];
    };
    expect(hints("list_scripts")).toEqual([true, false, true, false]);
    expect(hints("get_script")).toEqual([true, false, true, false]);
    expect(hints("create_script")).toEqual([false, false, false, false]);
    expect(hints("update_script")).toEqual([false, true, false, false]);
    expect(hints("trash_script")).toEqual([false, true, false, false]);
    expect(hints("restore_script")).toEqual([false, false, false, false]);
    expect(tools.create_script!.inputSchema).toMatchObject({ type: "object", additionalProperties: false, required: ["title", "text"] });
    expect(tools.create_script!.outputSchema).toBeUndefined();
  });

  it("when a client connects, then the server instructions merge every service's instructions", async () => {
    const client = await connect(stack.mcpUrl, await stack.createKey());
    const instructions = client.getInstructions() ?? "";
    expect(instructions).toContain("read the current revision with get_script");
    expect(instructions).toContain("Echo: for tests.");
  });

  it("when a tool does not exist, then the call is not_found", async () => {
    const client = await connect(stack.mcpUrl, await stack.createKey());
    const result = await callTool<ErrorData>(client, "drop_database", {});
    expect(result.isError).toBe(true);
    expect(result.data.error.code).toBe("not_found");
  });
});

describe("output schemas switch", () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack({ services: { scripts: scriptsFactory }, gateway: { outputSchemas: true } });
  });
  afterAll(async () => stack?.stop());

  it("when SOSOAPI_OUTPUT_SCHEMAS is on, then tools advertise output schemas and results match them", async () => {
    const client = await connectClient(stack.mcpUrl, await stack.createKey());
    const tools = (await client.listTools()).tools;
    expect(tools.every((tool) => tool.outputSchema?.type === "object")).toBe(true);
    // the SDK client validates structuredContent against the advertised output schema
    const created = await callTool(client, "create_script", { title: "typed", text: "x" });
    expect(created.isError).toBe(false);
    const listed = await callTool(client, "list_scripts", {});
    expect(listed.isError).toBe(false);
    await client.close();
  });

  it("when a tool with an advertised output schema fails, then a client that checks schemas gets the tool error (envelope as text, no structuredContent), not a protocol error", async () => {
    const client = await connectClient(stack.mcpUrl, await stack.createKey());
    await client.listTools();
    const result = await client.callTool({ name: "get_script", arguments: { id: "00000000-0000-4000-8000-000000000000" } });
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toBeUndefined();
    const [first] = result.content as { type: string; text: string }[];
    expect(JSON.parse(first!.text)).toMatchObject({ error: { code: "not_found" } });
    await client.close();
  });
});

describe("errors without output schemas", () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack({ services: { scripts: scriptsFactory } });
  });
  afterAll(async () => stack?.stop());

  it("when a tool fails and no output schema is advertised, then the error object is in structuredContent and, the same, in the text", async () => {
    const client = await connectClient(stack.mcpUrl, await stack.createKey());
    const result = await client.callTool({ name: "get_script", arguments: { id: "00000000-0000-4000-8000-000000000000" } });
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toMatchObject({ error: { code: "not_found" } });
    const [first] = result.content as { type: string; text: string }[];
    expect(JSON.parse(first!.text)).toEqual(result.structuredContent);
    await client.close();
  });
});
