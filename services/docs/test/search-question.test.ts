/**
 * search_documents for a query worded as a sentence: the question ranking (answer_query's) leads, then the
 * pages holding every word that it left out, and the page token walks that one order across both parts
 * with no repeat and no gap. Keywords keep the all-words order. On a small corpus written here: 150 shelf
 * notes that all hold the same words (more than the question ranking reads, so the all-words part is
 * reached), three pages on columns and views, beside part of the fixture corpus so that word weights mean
 * something.
 */
import { writeFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { connectClient } from "@bancada/testkit";
import { ingestFolder } from "../src/index.js";
import { fixtureCorpus, writeCorpus } from "./fixtures/corpus.js";
import { ok, search, type Answer, type SearchPage } from "./helpers.js";
import { allWordsPages, type DocsStack, readerKey, startDocsStack, tempFolder } from "./stack.js";

const base = "https://docs.shelves.example/manual";
const name = (page: string) => `documents/docs.shelves.example/manual/${page}`;
const colours = ["red", "blue", "green", "yellow", "white", "black", "grey"];
const shelves = 150;

const tables: Record<string, string> = {
  "generated-columns.md": `---
title: Generated columns
description: A column computed from other columns
---

A generated column is always computed from other columns of the same row, the way a view is computed from tables.
Its value cannot be written directly.
`,
  "views.md": `---
title: Views
description: Name a query and read it like a table
---

A view is a query stored under a name; it is computed from its tables each time it is read.
`,
  // Lacks one word of the sentence below ("view"), a common one here, and names the others in its title and
  // description: the ranking puts it before the all-words pages, which hold them in their body.
  "computed-tables.md": `---
title: Computed tables
description: Tables computed from a query when they are read
---

A computed table holds no rows of its own.
`,
};

describe("search_documents for a query worded as a sentence", () => {
  let docs: DocsStack;
  let client: Client;
  const allWords = (query: string) => allWordsPages(docs, query, name(""));
  /** Every page of a query, walked with its tokens; the tier each token resumes in (0: the question ranking). */
  const walk = async (query: string, pageSize: number) => {
    const pages: SearchPage[] = [];
    const tiers: number[] = [];
    let token: string | undefined;
    do {
      const page = await search(client, query, { pageSize, ...(token ? { pageToken: token } : {}) });
      pages.push(page);
      token = page.nextPageToken;
      // The token's layout is the service's own (page-token.ts); read here only to see where each page ended.
      if (token) tiers.push((JSON.parse(Buffer.from(token, "base64url").toString("utf8")) as { t: number }).t);
    } while (token && pages.length < 200);
    return { parents: pages.flatMap((page) => page.results.map((result) => result.parent)), pages, tiers };
  };

  beforeAll(async () => {
    docs = await startDocsStack();
    const folder = await tempFolder();
    try {
      await writeCorpus(path.join(folder.path, "background"), fixtureCorpus().slice(0, 40));
      for (const [file, text] of Object.entries(tables)) await writeFile(path.join(folder.path, file), text);
      for (let shelf = 1; shelf <= shelves; shelf++) {
        const colour = colours[shelf % colours.length]!;
        await writeFile(
          path.join(folder.path, `shelf-${shelf}.md`),
          `---\ntitle: Shelf ${shelf}\n---\n\nThe widget on shelf ${shelf} was painted ${colour} by hand.\n\nIts drawer holds ${shelf} screws.\n`,
        );
      }
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

  it("when a query is worded as a sentence, then the question ranking leads, ahead of pages holding every word", async () => {
    const sentence = "what does a view compute from its tables";
    const exact = await allWords(sentence);
    expect(exact.sort()).toEqual([name("generated-columns"), name("views")]);
    const led = (await search(client, sentence)).results.map((result) => result.parent);
    const answer = await ok<Answer>(client, "answer_query", { query: sentence });
    // answer_query cites the best pages of the same ranking (those it can quote from), in its order.
    const cited = answer.references.map((reference) => reference.name);
    expect(cited.length).toBeGreaterThan(0);
    expect(led.filter((parent) => cited.includes(parent))).toEqual(cited);
    // A page that lacks one of the words comes before the all-words pages when the ranking says so.
    expect(led[0]).toBe(name("computed-tables"));
    for (const page of exact) expect(led.indexOf(page)).toBeGreaterThan(0);
    // The same words as keywords: the pages holding every word first, as before.
    const keywords = (await search(client, "view compute tables")).results.map((result) => result.parent);
    expect(keywords.slice(0, exact.length).sort()).toEqual(exact);
  });

  it("when a sentence's pages are walked with the token, then they join into one list with no repeat and no gap, across both parts", async () => {
    const sentence = "how was the widget on the shelf painted";
    const exact = await allWords(sentence);
    expect(exact).toHaveLength(shelves);
    const whole = await walk(sentence, 50);
    // More pages hold every word than the question ranking reads: the walk reaches the all-words part.
    for (const pageSize of [2, 7, 25]) {
      const walked = await walk(sentence, pageSize);
      expect(walked.parents).toEqual(whole.parents);
      expect(walked.tiers).toContain(0);
      expect(walked.tiers.some((tier) => tier > 0)).toBe(true);
      expect(walked.pages.at(-1)?.nextPageToken).toBeUndefined();
    }
    expect(new Set(whole.parents).size).toBe(whole.parents.length);
    for (const page of exact) expect(whole.parents).toContain(page);
    // A page asked twice is the same page.
    const first = await search(client, sentence, { pageSize: 7 });
    expect(await search(client, sentence, { pageSize: 7 })).toEqual(first);
    const second = await search(client, sentence, { pageSize: 7, pageToken: first.nextPageToken });
    expect(await search(client, sentence, { pageSize: 7, pageToken: first.nextPageToken })).toEqual(second);
  });

  it("when another account walks the same sentence, then it gets the same pages (the corpus is shared)", async () => {
    const other = await connectClient(docs.stack.mcpUrl, await readerKey(docs.stack, { accountId: "acct-question-b" }));
    try {
      const sentence = "how was the widget on the shelf painted";
      const mine = await search(client, sentence, { pageSize: 5 });
      expect(await ok(other, "search_documents", { query: sentence, pageSize: 5 })).toEqual(mine);
      const next = { query: sentence, pageSize: 5, pageToken: mine.nextPageToken };
      expect(await ok(other, "search_documents", next)).toEqual(await search(client, sentence, next));
    } finally {
      await other.close();
    }
  });
});
