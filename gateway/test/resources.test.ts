/**
 * Resources and completions through the gateway, in both eras (the 1.x SDK Client on 2025-11-25, the v2 Client
 * pinned to 2026-07-28): the scripts service's `bancada://scripts/{id}` family listed, read and completed over
 * the bus for the caller's account alone; a URI nobody serves, or another account's script, is -32602 naming the
 * URI; a key without the family's scope sees nothing of it; 2026-07-28 lists carry `cacheScope: private`.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startStack, type Stack } from "@bancada/e2e";
import { echoFactory, scriptsFactory } from "./fixtures.js";
import { connect, modernVersion, type ClientLine } from "./mcp-clients.js";

interface ResourceClient {
  listResources(params?: {
    cursor?: string;
  }): Promise<{ resources: { uri: string; name: string; mimeType?: string }[]; nextCursor?: string }>;
  listResourceTemplates(): Promise<{ resourceTemplates: { uriTemplate: string; name: string }[] }>;
  readResource(params: { uri: string }): Promise<{ contents: { uri: string; mimeType?: string; text?: string }[] }>;
  complete(params: {
    ref: { type: "ref/resource"; uri: string } | { type: "ref/prompt"; name: string };
    argument: { name: string; value: string };
  }): Promise<{ completion: { values: string[]; hasMore?: boolean } }>;
  callTool(params: { name: string; arguments?: Record<string, unknown> }): Promise<{ structuredContent?: Record<string, unknown> }>;
  close(): Promise<void>;
}

describe("resources and completions", () => {
  let stack: Stack;
  let ownKey: string;
  let otherKey: string;
  let noScopeKey: string;
  const clients: ResourceClient[] = [];

  async function client(line: ClientLine, key: string): Promise<ResourceClient> {
    const opened = (await connect(line, "http", {
      mcpUrl: stack.mcpUrl,
      key,
      databaseUrl: stack.database.url,
    })) as unknown as ResourceClient;
    clients.push(opened);
    return opened;
  }

  async function createScript(key: string, title: string, text: string): Promise<string> {
    const writer = await client("v1", key);
    const created = await writer.callTool({ name: "create_script", arguments: { title, text } });
    return (created.structuredContent as { script: { id: string } }).script.id;
  }

  beforeAll(async () => {
    stack = await startStack({ services: { scripts: scriptsFactory, echo: echoFactory } });
    ownKey = await stack.createKey({ scopes: ["scripts:read", "scripts:write"] });
    otherKey = await stack.createKey({ accountId: "acct-b", personId: "person-b", scopes: ["scripts:read", "scripts:write"] });
    noScopeKey = await stack.createKey({ scopes: ["docs:read"] });
  }, 120_000);
  afterAll(async () => {
    await Promise.all(clients.map((opened) => opened.close().catch(() => {})));
    await stack?.stop();
  });

  for (const line of ["v1", "v2"] as const) {
    it(`when the ${line} client lists, reads and completes scripts, then it meets only its own account's`, async () => {
      const mine = await createScript(ownKey, `Roteiro ${line}`, "Cena 1: a praia.");
      const theirs = await createScript(otherKey, `Alheio ${line}`, "Segredo de outra conta.");
      const reader = await client(line, ownKey);

      const { resources } = await reader.listResources();
      const uris = resources.map((resource) => resource.uri);
      expect(uris).toContain(`bancada://scripts/${mine}`);
      expect(uris).not.toContain(`bancada://scripts/${theirs}`);
      expect(resources.find((resource) => resource.uri === `bancada://scripts/${mine}`)).toMatchObject({
        name: `Roteiro ${line}`,
        mimeType: "text/markdown",
      });

      const templates = await reader.listResourceTemplates();
      expect(templates.resourceTemplates.map((template) => template.uriTemplate)).toContain("bancada://scripts/{id}");

      const read = await reader.readResource({ uri: `bancada://scripts/${mine}` });
      expect(read.contents).toEqual([
        { uri: `bancada://scripts/${mine}`, mimeType: "text/markdown", text: `# Roteiro ${line}\n\nCena 1: a praia.` },
      ]);

      // another account's script is not found, exactly like one that never existed: -32602 naming the URI
      const refused = await reader.readResource({ uri: `bancada://scripts/${theirs}` }).catch((error: unknown) => error);
      expect(refused).toMatchObject({ code: -32602, data: { uri: `bancada://scripts/${theirs}` } });
      const nobody = await reader.readResource({ uri: "test://nothing/here" }).catch((error: unknown) => error);
      expect(nobody).toMatchObject({ code: -32602, data: { uri: "test://nothing/here" } });

      const completed = await reader.complete({
        ref: { type: "ref/resource", uri: "bancada://scripts/{id}" },
        argument: { name: "id", value: "" },
      });
      expect(completed.completion.values).toContain(mine);
      expect(completed.completion.values).not.toContain(theirs);
      const byPrefix = await reader.complete({
        ref: { type: "ref/resource", uri: "bancada://scripts/{id}" },
        argument: { name: "id", value: mine.slice(0, 8) },
      });
      expect(byPrefix.completion.values).toEqual([mine]);
      const stranger = await reader.complete({
        ref: { type: "ref/resource", uri: "bancada://scripts/{id}" },
        argument: { name: "id", value: theirs.slice(0, 8) },
      });
      expect(stranger.completion.values).toEqual([]);
    });
  }

  it("when a client reads over stdio, then the same families answer, for the stdio key's account alone", async () => {
    const mine = await createScript(ownKey, "Pelo stdio", "Cena única.");
    const theirs = await createScript(otherKey, "Outro stdio", "x");
    const opened = (await connect("v2", "stdio", {
      mcpUrl: stack.mcpUrl,
      key: ownKey,
      databaseUrl: stack.database.url,
    })) as unknown as ResourceClient;
    clients.push(opened);
    const uris = (await opened.listResources()).resources.map((resource) => resource.uri);
    expect(uris).toContain(`bancada://scripts/${mine}`);
    expect(uris).not.toContain(`bancada://scripts/${theirs}`);
    expect((await opened.readResource({ uri: `bancada://scripts/${mine}` })).contents[0]).toMatchObject({
      text: "# Pelo stdio\n\nCena única.",
    });
    await expect(opened.readResource({ uri: `bancada://scripts/${theirs}` })).rejects.toMatchObject({ code: -32602 });
  }, 180_000);

  it("when a key lacks the family's scope, then it lists no such resource, no template, and cannot read or complete one", async () => {
    const id = await createScript(ownKey, "Fora do alcance", "x");
    const reader = await client("v2", noScopeKey);
    expect((await reader.listResources()).resources).toEqual([]);
    expect((await reader.listResourceTemplates()).resourceTemplates).toEqual([]);
    await expect(reader.readResource({ uri: `bancada://scripts/${id}` })).rejects.toMatchObject({ code: -32602 });
    await expect(
      reader.complete({ ref: { type: "ref/resource", uri: "bancada://scripts/{id}" }, argument: { name: "id", value: "" } }),
    ).rejects.toMatchObject({ code: -32602 });
  });

  it("when an account has more scripts than a page, then resources/list pages through them with nextCursor", async () => {
    const key = await stack.createKey({ accountId: "acct-many", personId: "person-m", scopes: ["scripts:read", "scripts:write"] });
    const writer = await client("v1", key);
    const made = await Promise.all(
      Array.from({ length: 101 }, (_, index) =>
        writer.callTool({ name: "create_script", arguments: { title: `Cena ${index}`, text: "." } }),
      ),
    );
    expect(made).toHaveLength(101);
    // the 1.x client hands back one page at a time (the v2 client follows nextCursor itself)
    const reader = await client("v1", key);
    const first = await reader.listResources();
    expect(first.resources).toHaveLength(100);
    expect(first.nextCursor).toEqual(expect.any(String));
    const second = await reader.listResources({ cursor: first.nextCursor! });
    expect(second.resources).toHaveLength(1);
    expect(second.nextCursor).toBeUndefined();
    const all = new Set([...first.resources, ...second.resources].map((resource) => resource.uri));
    expect(all.size).toBe(101);
    await expect(reader.listResources({ cursor: "not-a-cursor" })).rejects.toMatchObject({ code: -32602 });
    const following = await client("v2", key);
    expect((await following.listResources()).resources).toHaveLength(101);
  }, 120_000);

  it("when a 2026-07-28 request lists resources, then the result says it may be cached by this client alone", async () => {
    const response = await fetch(stack.mcpUrl, {
      method: "POST",
      headers: {
        authorization: `Bearer ${ownKey}`,
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        "mcp-protocol-version": modernVersion,
        "mcp-method": "resources/list",
      },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "resources/list",
        params: {
          _meta: {
            "io.modelcontextprotocol/protocolVersion": modernVersion,
            "io.modelcontextprotocol/clientCapabilities": {},
            "io.modelcontextprotocol/clientInfo": { name: "raw", version: "1" },
          },
        },
      }),
    });
    const body = (await response.json()) as { result: { cacheScope: string; resources: unknown[] } };
    expect(body.result).toMatchObject({ cacheScope: "private", resources: expect.any(Array) });
  });
});
