/**
 * search_documents when matching every word finds too little: a short first page is filled with the pages
 * answer_query's ranking finds for the query read as a question, after the pages that match every word
 * (for keywords; a query worded as a sentence is led by that ranking, see search-question.test.ts),
 * never twice, never past the page size, and only on the first page (on a small corpus written here, beside
 * part of the fixture corpus so that word weights mean something).
 */
import { writeFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { connectClient } from "@bancada/testkit";
import { ingestFolder } from "../src/index.js";
import { fixtureCorpus, writeCorpus } from "./fixtures/corpus.js";
import { search } from "./helpers.js";
import { allWordsPages, type DocsStack, readerKey, startDocsStack, tempFolder } from "./stack.js";

const base = "https://docs.tables.example/manual";
const name = (page: string) => `documents/docs.tables.example/manual/${page}`;

const pages: Record<string, string> = {
  "generated-columns.md": `---
title: Generated columns
description: A column computed from other columns
---

A generated column is always computed from other columns of the same row, the way a view is computed from tables.
Its value cannot be written directly.
`,
  "triggers.md": `---
title: Triggers
description: Run a function when rows change
---

A trigger can set a column from other columns before each row is written.
`,
  "defaults.md": `---
title: Default values
description: What a column holds when no value is given
---

A column can be assigned a default value. When a new row is created and no value is specified for the column,
it is filled with its default value.
`,
  "views.md": `---
title: Views
description: Name a query and read it like a table
---

A view is a query stored under a name; it is computed from its tables each time it is read.
`,
};

describe("search_documents filled by the question ranking", () => {
  let docs: DocsStack;
  let client: Client;
  const allWords = (query: string) => allWordsPages(docs, query, name(""));

  beforeAll(async () => {
    docs = await startDocsStack();
    const folder = await tempFolder();
    try {
      await writeCorpus(path.join(folder.path, "background"), fixtureCorpus().slice(0, 40));
      for (const [file, text] of Object.entries(pages)) await writeFile(path.join(folder.path, file), text);
      await ingestFolder({ db: docs.service().db, folder: folder.path, baseUri: base });
    } finally {
      await folder.remove();
    }
    client = await connectClient(docs.stack.mcpUrl, await readerKey(docs.stack));
  }, 120_000);
  afterAll(async () => {
    await client?.close();
    await docs?.stack.stop();
  });

  const question = "what is the best way to define a column computed from other columns";

  it("when no page holds every word of a natural question, then the page it means still comes first", async () => {
    expect(await allWords(question)).toEqual([]);
    const page = await search(client, question);
    expect(page.results[0]?.parent).toBe(name("generated-columns"));
    expect(page.results[0]?.content).toContain("**");
    expect(page.nextPageToken).toBeUndefined();
    expect(new Set(page.results.map((result) => result.parent)).size).toBe(page.results.length);
  });

  it("when some pages hold every word, then they come first and other pages follow, each once", async () => {
    const query = "column value written";
    expect(await allWords(query)).toEqual([name("generated-columns")]);
    const page = await search(client, query);
    const parents = page.results.map((result) => result.parent);
    expect(parents[0]).toBe(name("generated-columns"));
    expect(parents).toContain(name("defaults"));
    expect(new Set(parents).size).toBe(parents.length);
    expect(page.nextPageToken).toBeUndefined();
  });

  it("when the all-words hits fill the page exactly, then nothing is added; one more place takes one more page", async () => {
    const query = "column value written";
    const ten = await search(client, query);
    const two = await search(client, query, { pageSize: 2 });
    expect(await search(client, query, { pageSize: 1 })).toEqual({ results: ten.results.slice(0, 1) });
    expect(two.results).toEqual(ten.results.slice(0, 2));
    expect(two.results).toHaveLength(2);
    expect(two.nextPageToken).toBeUndefined();
    const one = await search(client, question, { pageSize: 1 });
    expect(one.results.map((result) => result.parent)).toEqual([name("generated-columns")]);
    expect(one.nextPageToken).toBeUndefined();
  });

  it("when the all-words hits pass the page, then pages carry on as before and the last one is not filled", async () => {
    const query = "column row";
    const exact = (await allWords(query)).sort();
    expect(exact).toEqual([name("defaults"), name("generated-columns"), name("triggers")]);
    const whole = await search(client, query, { pageSize: 3 });
    expect(whole.results.map((result) => result.parent).sort()).toEqual(exact);
    expect(whole.nextPageToken).toBeUndefined();
    const first = await search(client, query, { pageSize: 2 });
    expect(first.nextPageToken).toBeDefined();
    const second = await search(client, query, { pageSize: 2, pageToken: first.nextPageToken });
    expect([...first.results, ...second.results]).toEqual(whole.results);
    expect(second.nextPageToken).toBeUndefined();
  });

  it("when a query quotes a phrase or excludes a word, then only the all-words hits come back", async () => {
    expect(await search(client, '"column computed from tables"')).toEqual({ results: [] });
    const excluded = await search(client, "column value -written");
    expect(excluded.results.map((result) => result.parent)).toEqual([name("defaults")]);
  });

  it("when a reader of another account asks the same question, then the shared corpus gives the same page", async () => {
    const other = await connectClient(docs.stack.mcpUrl, await readerKey(docs.stack, { accountId: "acct-fallback-b" }));
    try {
      expect(await search(other, question)).toEqual(await search(client, question));
    } finally {
      await other.close();
    }
  });

  it("when the query holds no word the corpus knows, then the list is still empty", async () => {
    expect(await search(client, "zzyzx qwxv")).toEqual({ results: [] });
  });
});
