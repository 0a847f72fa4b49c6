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

  it("when a new user asks the demo corpus about any domain's tools, then a page of that domain answers first", async () => {
    const pages = {
      "how do I run a command in a box": "boxes",
      "how do I add a task to my board": "boards",
      "how do I publish a social media draft": "content-drafts",
      "how do I keep a podcast script": "scripts",
    };
    for (const [question, page] of Object.entries(pages)) {
      const answer = await ok<Answer>(client, "answer_query", { query: question });
      expect(answer.references[0]?.name, question).toBe(`documents/bancada.example/docs/${page}`);
      expect((await search(client, question)).results[0]?.parent, question).toBe(`documents/bancada.example/docs/${page}`);
    }
  });

  it("when the service restarts on a corpus that is not empty, then the demo corpus is not loaded again", async () => {
    await docs.stack.stopService("docs");
    await docs.stack.startService("docs");
    const db = docs.service().db;
    const loaded = await db.document.count();
    await db.$executeRaw`DELETE FROM documents WHERE name = 'documents/bancada.example/docs/errors'`;
    await docs.stack.stopService("docs");
    await docs.stack.startService("docs");
    await fails(client, "get_documents", { names: ["documents/bancada.example/docs/errors"] }, "not_found");
    expect(await docs.service().db.document.count()).toBe(loaded - 1);
  });
});
