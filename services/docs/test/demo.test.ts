/** The demo corpus of the embedded mode: loaded into an empty corpus at start, never over existing documents. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { connectClient } from "@bancada/testkit";
import { fails, ok, search, type Answer, type Document } from "./helpers.js";
import { readerKey, startDocsStack, type DocsStack } from "./stack.js";

describe("demo corpus", () => {
  let docs: DocsStack;
  let client: Client;
  beforeAll(async () => {
    docs = await startDocsStack({ demoCorpus: true });
    client = await connectClient(docs.stack.mcpUrl, await readerKey(docs.stack));
  });
  afterAll(async () => {
    await client?.close();
    await docs?.stack.stop();
  });

  it("when the service starts on an empty corpus with demoCorpus, then the demo pages can be searched, read and asked at once", async () => {
    const { results } = await search(client, "API keys and scopes");
    expect(results[0]?.parent).toBe("documents/bancada.example/docs/api-keys");
    const { documents } = await ok<{ documents: Document[] }>(client, "get_documents", { names: [results[0]!.parent] });
    expect(documents[0]?.content).toContain("pnpm bancada keys create");
    const answer = await ok<Answer>(client, "answer_query", { query: "How do I revoke an API key?" });
    expect(answer.answer).toMatch(/revoked key stops working/i);
    expect((await search(client, "primeiros passos")).results[0]?.parent).toBe("documents/bancada.example/docs/pt/primeiros-passos");
  });

  it("when the service restarts on a corpus that is not empty, then the demo corpus is not loaded again", async () => {
    await docs.stack.stopService("docs");
    await docs.stack.startService("docs");
    const db = docs.service().db;
    await db.$executeRaw`DELETE FROM documents WHERE name = 'documents/bancada.example/docs/errors'`;
    await docs.stack.stopService("docs");
    await docs.stack.startService("docs");
    await fails(client, "get_documents", { names: ["documents/bancada.example/docs/errors"] }, "not_found");
    expect(await docs.service().db.document.count()).toBe(11);
  });
});
