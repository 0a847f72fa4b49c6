/**
 * search_documents over the fixture corpus (266 pages) through a real MCP client and the gateway:
 * known-item retrieval, typos, phrases, exclusion, OR, Portuguese, and stable paging.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { correctQuery } from "../src/domain/corrections.js";
import { startCorpusStack, type CorpusStack } from "./corpus-stack.js";
import { ok, search, type Document } from "./helpers.js";

describe("search_documents finds things", () => {
  let s: CorpusStack;
  beforeAll(async () => {
    s = await startCorpusStack();
  });
  afterAll(async () => {
    await s?.stop();
  });

  const documentsOf = async (names: string[]) => (await ok<{ documents: Document[] }>(s.client, "get_documents", { names })).documents;

  it("when the fixture corpus is ingested, then every page became a document", () => {
    expect(s.ingest).toMatchObject({ files: s.pages.length, created: s.pages.length, skipped: 0 });
    expect(s.pages.length).toBeGreaterThanOrEqual(200);
  });

  it("when the query is a page's exact title, then that page comes first (all 266 pages, 4 calls in flight)", async () => {
    const misses: string[] = [];
    const queue = [...s.pages];
    const worker = async () => {
      for (let page = queue.shift(); page; page = queue.shift()) {
        const { results } = await search(s.client, page.title, { pageSize: 3 });
        if (results[0]?.parent !== s.nameOf(page.file)) misses.push(`${page.title} → ${results[0]?.title ?? "nothing"}`);
      }
    };
    await Promise.all([worker(), worker(), worker(), worker()]);
    expect(misses).toEqual([]);
  }, 180_000);

  it("when words are misspelt, then the pages are still found", async () => {
    expect((await search(s.client, "Creatng clustres")).results[0]?.parent).toBe(s.nameOf("kubernetes/creating.md"));
    const memorystore = await search(s.client, "memorystroe");
    expect(memorystore.results.length).toBeGreaterThan(0);
    expect(memorystore.results.every((result) => result.parent.includes("/memorystore/"))).toBe(true);
    expect((await search(s.client, "Objetc versoining")).results[0]?.parent).toBe(s.nameOf("storage/object-versioning.md"));
  });

  it("when a stop word of either language is missing from the corpus, then it is never corrected into a near word", async () => {
    const db = s.service().db;
    const held = await db.$queryRaw<
      { word: string }[]
    >`SELECT word FROM lexicon WHERE word IN ('tivessemos', 'whom', 'tivessemas', 'whim')`;
    expect(held).toEqual([]);
    await db.$executeRaw`INSERT INTO lexicon (word, doc_count) VALUES ('tivessemas', 1), ('whim', 1)`;
    try {
      // the near words are there to be found: a word that is no stop word is corrected to them
      expect((await correctQuery(db, "tivessemus whum"))?.corrections).toEqual([
        { from: "tivessemus", to: "tivessemas" },
        { from: "whum", to: "whim" },
      ]);
      expect(await correctQuery(db, "Tivéssemos whom")).toBeUndefined();
    } finally {
      await db.$executeRaw`DELETE FROM lexicon WHERE word IN ('tivessemas', 'whim')`;
    }
  });

  it("when a question's filler is missing from the corpus, then it is never corrected into a near word (faço → fact)", async () => {
    const db = s.service().db;
    expect(await db.$queryRaw<{ word: string }[]>`SELECT word FROM lexicon WHERE word IN ('faco', 'facto')`).toEqual([]);
    await db.$executeRaw`INSERT INTO lexicon (word, doc_count) VALUES ('facto', 1)`;
    try {
      expect((await correctQuery(db, "faxto"))?.corrections).toEqual([{ from: "faxto", to: "facto" }]);
      expect(await correctQuery(db, "como faço isto")).toBeUndefined();
      expect(await correctQuery(db, "como faco isto")).toBeUndefined();
    } finally {
      await db.$executeRaw`DELETE FROM lexicon WHERE word = 'facto'`;
    }
  });

  it('when a phrase is quoted, then only pages with the words in that order match ("storage class")', async () => {
    const loose = await search(s.client, "storage class", { pageSize: 50 });
    expect(loose.results.map((result) => result.parent)).toContain(s.nameOf("guides/class-based-storage-of-settings.md"));
    const phrase = await search(s.client, '"storage class"', { pageSize: 50 });
    expect(phrase.results.length).toBeGreaterThan(0);
    for (const document of await documentsOf(phrase.results.map((result) => result.parent).slice(0, 20))) {
      expect(`${document.title}\n${document.content}`).toMatch(/storage class/i);
    }
    expect(phrase.results.map((result) => result.parent)).not.toContain(s.nameOf("guides/class-based-storage-of-settings.md"));
  });

  it("when a word is excluded with -word, then no result contains it", async () => {
    const all = await search(s.client, "buckets", { pageSize: 50 });
    expect(all.results.map((result) => result.parent)).toContain(s.nameOf("storage/object-versioning.md"));
    const without = await search(s.client, "buckets -versioning", { pageSize: 50 });
    expect(without.results.length).toBeGreaterThan(0);
    for (const document of await documentsOf(without.results.map((result) => result.parent).slice(0, 20))) {
      expect(`${document.title}\n${document.description}\n${document.content}`).not.toMatch(/\bversion/i);
    }
  });

  it("when two words are joined with OR, then pages with either match", async () => {
    const parents = (await search(s.client, "terraform OR pulumi")).results.map((result) => result.parent);
    expect(parents).toEqual(expect.arrayContaining([s.nameOf("guides/terraform.md"), s.nameOf("guides/pulumi.md")]));
  });

  it("when the query is in Portuguese, with or without accents or in another inflection, then the Portuguese page is found", async () => {
    const page = s.nameOf("pt/monitoring/configuracao-de-alertas.md");
    expect((await search(s.client, "Configuração de alertas")).results[0]?.parent).toBe(page);
    expect((await search(s.client, "configuracao de alertas")).results[0]?.parent).toBe(page);
    expect((await search(s.client, "configurações alertas")).results.map((result) => result.parent)).toContain(page);
    expect((await search(s.client, "criar buckets")).results[0]?.parent).toBe(s.nameOf("pt/storage/criar.md"));
  });

  it("when a result comes back, then it carries the heading path and a highlighted excerpt, and its parent is readable", async () => {
    const { results } = await search(s.client, "cluster autoscaler");
    const first = results[0]!;
    expect(first).toMatchObject({
      title: expect.any(String),
      uri: expect.stringMatching(/^https:\/\//),
      id: expect.stringMatching(/^\d+$/),
    });
    expect(first.content).toMatch(/\*\*autoscaler\*\*/i);
    const [document] = await documentsOf([first.parent]);
    expect(document?.uri).toBe(first.uri);
  });

  it("when results are paged, then the pages join into the one long list with no repeat, and a page asked twice is the same", async () => {
    const whole = await search(s.client, "buckets", { pageSize: 50 });
    const paged: string[] = [];
    let token: string | undefined;
    let first: unknown;
    do {
      const page = await search(s.client, "buckets", { pageSize: 7, ...(token ? { pageToken: token } : {}) });
      first ??= page;
      paged.push(...page.results.map((result) => result.parent));
      token = page.nextPageToken;
    } while (token);
    expect(whole.nextPageToken).toBeUndefined();
    // Pages that say "buckets" in their title or headings come first, pages that say it only in the text after.
    const headMatch = whole.results.findIndex((result) => result.parent === s.nameOf("storage/creating.md"));
    const bodyMatch = whole.results.findIndex((result) => result.parent === s.nameOf("guides/terraform.md"));
    expect(headMatch).toBeGreaterThanOrEqual(0);
    expect(bodyMatch).toBeGreaterThan(headMatch);
    expect(paged).toEqual(whole.results.map((result) => result.parent));
    expect(new Set(paged).size).toBe(paged.length);
    expect(await search(s.client, "buckets", { pageSize: 7 })).toEqual(first);
  });

  it("when a query matches nothing, then the result list is empty and has no token", async () => {
    expect(await search(s.client, "zzyzx qwxv")).toEqual({ results: [] });
  });
});
