/**
 * The corpus's documents as MCP resources (`bancada://documents/{path}`, the document `documents/{path}`), on the
 * demo corpus: listed a page at a time, read as the Markdown get_documents returns, the path completed from the
 * names; a key without docs:read sees none of it; an unknown document is -32602 naming the URI.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { connectClient } from "@bancada/testkit";
import { ok, type Document } from "./helpers.js";
import { readerKey, startDocsStack, type DocsStack } from "./stack.js";

const page = "documents/bancada.example/docs/api-keys";

describe("documents as resources", () => {
  let docs: DocsStack;
  let client: Client;
  let outsider: Client;
  beforeAll(async () => {
    docs = await startDocsStack({ demoCorpus: true });
    client = await connectClient(docs.stack.mcpUrl, await readerKey(docs.stack));
    outsider = await connectClient(docs.stack.mcpUrl, await docs.stack.createKey({ scopes: ["scripts:read"] }));
  }, 180_000);
  afterAll(async () => {
    await client?.close();
    await outsider?.close();
    await docs?.stack.stop();
  });

  it("when documents are listed and one is read, then the read is the document get_documents returns, in Markdown", async () => {
    const names: string[] = [];
    let cursor: string | undefined;
    do {
      const listed = await client.listResources(cursor ? { cursor } : {});
      expect(listed.resources.length).toBeLessThanOrEqual(100);
      names.push(...listed.resources.map((resource) => resource.name));
      cursor = listed.nextCursor;
    } while (cursor);
    expect(names).toContain(page);
    expect(new Set(names).size).toBe(names.length);

    const read = await client.readResource({ uri: `bancada://${page}` });
    const { documents } = await ok<{ documents: Document[] }>(client, "get_documents", { names: [page] });
    expect(read.contents).toHaveLength(1);
    expect(read.contents[0]).toMatchObject({ uri: `bancada://${page}`, mimeType: "text/markdown" });
    expect((read.contents[0] as { text: string }).text).toContain(documents[0]!.content);
    await expect(client.readResource({ uri: "bancada://documents/no/such/page" })).rejects.toMatchObject({
      code: -32602,
      data: { uri: "bancada://documents/no/such/page" },
    });
  });

  it("when the path is completed, then the names that start with it are offered; a key without docs:read gets none", async () => {
    const ref = { type: "ref/resource" as const, uri: "bancada://documents/{path}" };
    const completed = await client.complete({ ref, argument: { name: "path", value: "bancada.example/docs/api" } });
    expect(completed.completion.values).toContain("bancada.example/docs/api-keys");
    expect(completed.completion.values.every((value) => value.startsWith("bancada.example/docs/api"))).toBe(true);
    expect((await outsider.listResources()).resources).toEqual([]);
    await expect(outsider.complete({ ref, argument: { name: "path", value: "" } })).rejects.toMatchObject({ code: -32602 });
    await expect(outsider.readResource({ uri: `bancada://${page}` })).rejects.toMatchObject({ code: -32602 });
  });
});
