/**
 * The demo corpus of the embedded mode: Bancada's own docs read from the repository, and the how-to pages of
 * services/docs/demo, loaded into an empty corpus at start, never over someone's own documents.
 */
import { readFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { connectClient } from "@bancada/testkit";
import { deleteDocuments } from "../src/domain/delete-documents.js";
import { prepareDocument } from "../src/domain/prepare-document.js";
import { writeDocuments } from "../src/domain/write-documents.js";
import { fails, ok, search, type Answer, type Document } from "./helpers.js";
import { readerKey, startDocsStack, type DocsStack } from "./stack.js";

const repository = "documents/bancada.example/repository";

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
    // The how-to page of the domain, or the domain's page of the repository's docs.
    const pages = {
      "how do I run a command in a box": ["boxes", "boxes"],
      "how do I add a task to my board": ["boards", "boards"],
      "how do I publish a social media draft": ["content-drafts", "drafts"],
      "how do I keep a podcast script": ["scripts", "scripts"],
    };
    for (const [question, [howTo, domain]] of Object.entries(pages)) {
      const either = [`documents/bancada.example/docs/${howTo}`, `${repository}/docs/${domain}`];
      const answer = await ok<Answer>(client, "answer_query", { query: question });
      expect(either, question).toContain(answer.references[0]?.name);
      expect(either, question).toContain((await search(client, question)).results[0]?.parent);
    }
  });

  it("when a new user asks about Bancada itself, in English or Portuguese, then the page of the repository's docs that answers comes first", async () => {
    const pages = {
      "can a box reach the internet?": ["docs/boxes", "it cannot reach the internet"],
      "how do I deploy to kubernetes": ["infra", "Kubernetes manifests"],
      "como faço login no console?": ["docs/console", "sign in with an API key"],
    };
    for (const [question, [page, says]] of Object.entries(pages)) {
      const answer = await ok<Answer>(client, "answer_query", { query: question });
      expect(answer.references[0]?.name, question).toBe(`${repository}/${page}`);
      expect(answer.answer, question).toContain(says);
      expect((await search(client, question)).results[0]?.parent, question).toBe(`${repository}/${page}`);
    }
  });

  it("when the demo corpus is read, then the repository's pages are its files as they are on disk, not a copy", async () => {
    const root = path.join(import.meta.dirname, "../../..");
    const { documents } = await ok<{ documents: Document[] }>(client, "get_documents", {
      names: [repository, `${repository}/ARCHITECTURE`, `${repository}/docs/docs`],
    });
    for (const [document, file] of [
      [documents[0], "README.md"],
      [documents[1], "ARCHITECTURE.md"],
      [documents[2], "docs/docs.md"],
    ] as const) {
      expect(document?.content, file).toBe((await readFile(path.join(root, file), "utf8")).trimEnd());
    }
  });

  it("when an answer quotes a sentence that introduces a command with ':', then the command's block follows it, placeholders kept", async () => {
    const answer = await ok<Answer>(client, "answer_query", { query: "como criar uma chave de API?" });
    expect(answer.references[0]?.name).toBe("documents/bancada.example/docs/pt/primeiros-passos");
    expect(answer.answer).toContain(
      "permissão de escrita:\n\n```sh\npnpm bancada keys create --account acme --person ana --agent claude --scopes all --allow-writes\n```",
    );
    expect(answer.answer).not.toMatch(/:\s*\[\d+\]/);
  });

  it("when a search's excerpt quotes a command, then its placeholders in angle brackets are kept as written", async () => {
    const { results } = await search(client, "revoke");
    const keys = results.find((result) => result.parent === "documents/bancada.example/docs/api-keys");
    expect(keys?.content).toContain("pnpm bancada keys **revoke** <key id or prefix>");
  });

  it("when a search matches a word inside an identifier, then only whole identifiers are highlighted", async () => {
    const parts = await search(client, "rate burst", { pageSize: 5 });
    const excerpts = parts.results.map((result) => result.content).join("\n");
    expect(excerpts).toContain("BANCADA_RATE_BURST");
    // a bold word with an identifier's character right before or after it: part of an identifier
    expect(excerpts).not.toMatch(/[\w-]\*\*[\w-]+\*\*|\*\*[\w-]+\*\*[\w-]/);
    const whole = await search(client, "BANCADA_RATE_BURST", { pageSize: 5 });
    expect(whole.results.map((result) => result.content).join("\n")).toContain("**BANCADA_RATE_BURST**");
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

  it("when the service restarts on a corpus holding the repository's pages, then they are brought up to date with the files", async () => {
    const db = docs.service().db;
    await db.$executeRaw`UPDATE documents SET content = 'stale', content_hash = 'stale' WHERE name = ${`${repository}/docs/boxes`}`;
    await writeDocuments(db, [
      prepareDocument({ uri: "https://bancada.example/repository/docs/gone", content: "# Gone", format: "markdown" }),
    ]);
    await docs.stack.stopService("docs");
    await docs.stack.startService("docs");
    const { documents } = await ok<{ documents: Document[] }>(client, "get_documents", { names: [`${repository}/docs/boxes`] });
    expect(documents[0]?.content).toContain("# Boxes");
    await fails(client, "get_documents", { names: [`${repository}/docs/gone`] }, "not_found");
    await fails(client, "get_documents", { names: ["documents/bancada.example/docs/errors"] }, "not_found");
  });

  it("when a corpus holds only the how-to pages (an older version's demo), then the next start adds the repository's pages", async () => {
    const db = docs.service().db;
    const pages = await db.document.findMany({ where: { name: { startsWith: `${repository}` } }, select: { name: true } });
    expect(pages.length).toBeGreaterThan(10);
    await deleteDocuments(
      db,
      pages.map((page) => page.name),
    );
    await docs.stack.stopService("docs");
    await docs.stack.startService("docs");
    expect(await docs.service().db.document.count({ where: { name: { startsWith: `${repository}` } } })).toBe(pages.length);
  });

  it("when the corpus holds someone's own documents, then a start never adds or refreshes the demo's pages", async () => {
    const db = docs.service().db;
    await writeDocuments(db, [prepareDocument({ uri: "https://own.example/guide", content: "# Guide", format: "markdown" })]);
    await db.$executeRaw`UPDATE documents SET content = 'stale', content_hash = 'stale' WHERE name = ${`${repository}/docs/boxes`}`;
    await docs.stack.stopService("docs");
    await docs.stack.startService("docs");
    const { documents } = await ok<{ documents: Document[] }>(client, "get_documents", { names: [`${repository}/docs/boxes`] });
    expect(documents[0]?.content).toBe("stale");
  });
});
