import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { callTool, connectClient, startStack, type Stack } from "@bancada/e2e";
import { scriptsFactory } from "./stack.js";

describe("thin path", () => {
  let stack: Stack;
  let client: Client;
  beforeAll(async () => {
    stack = await startStack({ services: { scripts: scriptsFactory } });
    client = await connectClient(stack.mcpUrl, await stack.createKey());
  });
  afterAll(async () => {
    await client?.close();
    await stack?.stop();
  });

  it("when a script is created through the gateway, then get_script reads it back", async () => {
    const created = await callTool<{ script: { id: string; revision: number } }>(client, "create_script", {
      title: "Hello",
      text: "World",
    });
    expect(created.isError).toBe(false);
    expect(JSON.parse(created.text)).toEqual(created.data);
    const read = await callTool<{ script: { id: string; title: string } }>(client, "get_script", { id: created.data.script.id });
    expect(read.data.script.title).toBe("Hello");
  });
});
