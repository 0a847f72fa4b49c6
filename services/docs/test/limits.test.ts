/**
 * Input limits of search_documents and answer_query at their edges, hostile queries (10,000 characters,
 * control characters) answered with a clear invalid_argument and never a 500, page tokens, scopes,
 * annotations, and the shared-corpus tenancy decision.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connectClient } from "@bancada/testkit";
import { startCorpusStack, type CorpusStack } from "./corpus-stack.js";
import { fails, issuePaths, ok, search, type Answer, type SearchPage } from "./helpers.js";
import { readerKey } from "./stack.js";

describe("docs limits and access", () => {
  let s: CorpusStack;
  beforeAll(async () => {
    s = await startCorpusStack({ count: 40 });
  });
  afterAll(async () => {
    await s?.stop();
  });

  const wordsOf = (length: number) => "bucket storage ".repeat(Math.ceil(length / 15)).slice(0, length);

  for (const tool of ["search_documents", "answer_query"]) {
    describe(`${tool} query`, () => {
      it("when the query has 1,000 characters it is answered; with 1,001, invalid_argument names query", async () => {
        await ok(s.client, tool, { query: wordsOf(1000) });
        expect(issuePaths(await fails(s.client, tool, { query: wordsOf(1001) }, "invalid_argument"))).toContain("query");
      });

      it("when the query has 10,000 characters, then invalid_argument (not payload_too_large, never internal) names query", async () => {
        const error = await fails(s.client, tool, { query: "a".repeat(10_000) }, "invalid_argument");
        expect(issuePaths(error)).toContain("query");
        expect(error.message).toMatch(/query/);
      });

      it("when the query holds control characters, then invalid_argument says so; tabs and line breaks are fine", async () => {
        for (const query of ["\u0001\u0002\u0003", "buckets\u0000", "buckets \u001b[31m", "\u007f"]) {
          const error = await fails(s.client, tool, { query }, "invalid_argument");
          expect(issuePaths(error)).toContain("query");
          expect(error.message).toMatch(/control characters/);
        }
        await ok(s.client, tool, { query: "creating\tbuckets\r\nconsole" });
      });

      it("when the query is empty or blank, or not a string, then invalid_argument names query", async () => {
        for (const query of ["", "   \n\t", 42, null])
          expect(issuePaths(await fails(s.client, tool, { query }, "invalid_argument"))).toContain("query");
        expect(issuePaths(await fails(s.client, tool, {}, "invalid_argument"))).toContain("query");
      });

      it("when the query is only punctuation or operators, then the call answers without error", async () => {
        for (const query of ['"', "-", "OR", "!!! ???", "'; DROP TABLE documents; --", "a & b | !c <-> d:*"])
          await ok(s.client, tool, { query });
      });
    });
  }

  it("when pageSize is 1 or 50 the page has at most that many; 0 and 51 are invalid_argument naming pageSize", async () => {
    expect((await search(s.client, "buckets", { pageSize: 1 })).results).toHaveLength(1);
    expect((await search(s.client, "the", { pageSize: 50 })).results.length).toBeLessThanOrEqual(50);
    for (const pageSize of [0, 51, 2.5, "10"]) {
      expect(issuePaths(await fails(s.client, "search_documents", { query: "x", pageSize }, "invalid_argument"))).toContain("pageSize");
    }
  });

  it("when a page token is garbage or from another query, then invalid_argument names pageToken", async () => {
    const page = await search(s.client, "buckets", { pageSize: 1 });
    expect(page.nextPageToken).toBeTruthy();
    const other = await fails(s.client, "search_documents", { query: "clusters", pageToken: page.nextPageToken }, "invalid_argument");
    expect(issuePaths(other)).toContain("pageToken");
    expect(other.message).toMatch(/another query/);
    for (const pageToken of ["garbage", Buffer.from('{"v":1}').toString("base64url"), "x".repeat(513)]) {
      expect(issuePaths(await fails(s.client, "search_documents", { query: "buckets", pageToken }, "invalid_argument"))).toContain(
        "pageToken",
      );
    }
  });

  it("when an unknown field is sent, then invalid_argument names it", async () => {
    expect(issuePaths(await fails(s.client, "search_documents", { query: "x", limit: 5 }, "invalid_argument"))).toContain("limit");
    expect(issuePaths(await fails(s.client, "answer_query", { query: "x", verbose: true }, "invalid_argument"))).toContain("verbose");
  });

  it("when tools are listed, then the three docs tools are read-only, idempotent, not destructive and closed-world", async () => {
    const { tools } = await s.client.listTools();
    const docs = tools.filter((tool) => ["search_documents", "get_documents", "answer_query"].includes(tool.name));
    expect(docs).toHaveLength(3);
    for (const tool of docs) {
      expect(tool.annotations).toMatchObject({ readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false });
    }
    expect(docs.find((tool) => tool.name === "answer_query")?.description).toMatch(/No language model/);
  });

  it("when a key lacks docs:read, then the tools are not listed and a call is permission_denied naming docs:read", async () => {
    const client = await connectClient(s.stack.mcpUrl, await readerKey(s.stack, { scopes: ["scripts:read"] }));
    try {
      expect((await client.listTools()).tools.map((tool) => tool.name)).not.toContain("search_documents");
      for (const [tool, args] of [
        ["search_documents", { query: "x" }],
        ["get_documents", { names: ["documents/a"] }],
        ["answer_query", { query: "x" }],
      ] as const) {
        expect((await fails(client, tool, args, "permission_denied")).details?.requiredScope).toBe("docs:read");
      }
    } finally {
      await client.close();
    }
  });

  it("when readers of two different accounts search and ask, then they see the same shared corpus", async () => {
    const other = await connectClient(s.stack.mcpUrl, await readerKey(s.stack, { accountId: "acct-b" }));
    try {
      expect(await search(other, "creating buckets")).toEqual(await search(s.client, "creating buckets"));
      expect(await ok<Answer>(other, "answer_query", { query: "How do I delete a bucket?" })).toEqual(
        await ok<Answer>(s.client, "answer_query", { query: "How do I delete a bucket?" }),
      );
      const name = s.nameOf(s.pages[0]!.file);
      expect(await ok<SearchPage>(other, "get_documents", { names: [name] })).toEqual(
        await ok<SearchPage>(s.client, "get_documents", { names: [name] }),
      );
    } finally {
      await other.close();
    }
  });
});
