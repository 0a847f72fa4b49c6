/**
 * The REST API: reads with the tools' rules and shapes, and ingestion (batch upsert, batch and single
 * delete) limited to publishing accounts with writes allowed.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectRestError, restClient, type Answer, type Document, type Rest, type SearchPage } from "./helpers.js";
import { publisherAccount, readerKey, startDocsStack, type DocsStack } from "./stack.js";

const page = (slug: string, body: string) => ({ uri: `https://api-docs.example/guide/${slug}`, content: body });

describe("REST API", () => {
  let docs: DocsStack;
  let publisher: Rest;
  let reader: Rest;

  beforeAll(async () => {
    docs = await startDocsStack();
    publisher = restClient(
      docs.stack.baseUrl,
      await docs.stack.createKey({ accountId: publisherAccount, scopes: ["docs:read"], allowWrites: true }),
    );
    reader = restClient(docs.stack.baseUrl, await readerKey(docs.stack));
  });
  afterAll(async () => {
    await docs?.stack.stop();
  });

  describe("ingestion", () => {
    it("when a publisher PUTs a batch, then each document is created; the same batch again changes nothing; an edit updates one", async () => {
      const batch = [
        page("start", "# Start here\n\nInstall the quokkactl tool first."),
        page("deploy", "# Deploying\n\nRun quokkactl deploy."),
      ];
      const first = await publisher("PUT", "/v1/documents", { documents: batch });
      expect(first.status).toBe(200);
      expect(first.body).toEqual({
        results: [
          { name: "documents/api-docs.example/guide/start", status: "created" },
          { name: "documents/api-docs.example/guide/deploy", status: "created" },
        ],
        created: 2,
        updated: 0,
        unchanged: 0,
      });
      expect((await publisher("PUT", "/v1/documents", { documents: batch })).body).toMatchObject({ created: 0, updated: 0, unchanged: 2 });
      const edited = [batch[0], page("deploy", "# Deploying\n\nRun quokkactl deploy --all.")];
      expect((await publisher("PUT", "/v1/documents", { documents: edited })).body).toMatchObject({ created: 0, updated: 1, unchanged: 1 });
      const found = await reader<SearchPage>("GET", "/v1/search?query=quokkactl%20deploy");
      expect(found.body.results[0]?.parent).toBe("documents/api-docs.example/guide/deploy");
    });

    it("when title, description and HTML format are given, then they are used", async () => {
      const response = await publisher("PUT", "/v1/documents", {
        documents: [
          {
            uri: "https://api-docs.example/guide/html#top",
            format: "html",
            title: "Given title",
            description: "Given description.",
            content: "<main><h2>Part</h2><p>Text.</p></main>",
          },
        ],
      });
      expect(response.body).toMatchObject({ results: [{ name: "documents/api-docs.example/guide/html", status: "created" }] });
      const read = await reader<{ document: Document }>("GET", "/v1/documents/api-docs.example/guide/html");
      expect(read.body.document).toEqual({
        name: "documents/api-docs.example/guide/html",
        uri: "https://api-docs.example/guide/html",
        title: "Given title",
        description: "Given description.",
        content: "## Part\n\nText.",
      });
    });

    it("when the batch is invalid, then 400 names the field and nothing is written", async () => {
      const bad = async (body: unknown, path: string) => {
        const error = expectRestError(await publisher("PUT", "/v1/documents", body), 400, "invalid_argument");
        expect((error.details?.issues as { path: string }[]).map((issue) => issue.path)).toContain(path);
      };
      await bad({ documents: [page("ok", "# Fine"), { uri: "ftp://api-docs.example/x", content: "x" }] }, "documents[1].uri");
      await bad({ documents: [{ uri: "not a uri", content: "x" }] }, "documents[0].uri");
      await bad({ documents: [page("dup", "a"), page("dup/", "b")] }, "documents[1].uri");
      await bad({ documents: [page("fm", "---\ntitle: [oops\n---\nbody")] }, "documents[0].content");
      await bad({ documents: [{ ...page("x", "y"), colour: "red" }] }, "documents[0]");
      await bad({ documents: [page("nul", "a\u0000b")] }, "documents[0].content");
      await bad({ documents: [] }, "documents");
      await bad({ documents: Array.from({ length: 101 }, (_, i) => page(`p${i}`, "x")) }, "documents");
      expect((await reader("GET", "/v1/documents?names=documents/api-docs.example/guide/ok")).status).toBe(404);
    });

    it("when a batch has 100 documents it is accepted; a document of 1 MiB of characters is accepted and one more character is payload_too_large", async () => {
      const hundred = Array.from({ length: 100 }, (_, i) => page(`bulk/${i}`, `# Bulk page ${i}\n\nText ${i}.`));
      expect((await publisher("PUT", "/v1/documents", { documents: hundred })).body).toMatchObject({ created: 100 });
      expect((await publisher("PUT", "/v1/documents", { documents: [page("big", "w".repeat(1024 * 1024))] })).body).toMatchObject({
        created: 1,
      });
      const error = expectRestError(
        await publisher("PUT", "/v1/documents", { documents: [page("bigger", "w".repeat(1024 * 1024 + 1))] }),
        413,
        "payload_too_large",
      );
      expect((error.details?.issues as { path: string }[])[0]?.path).toBe("documents[0].content");
      const names = Array(8).fill("names=documents/api-docs.example/guide/big").join("&");
      const many = expectRestError(await reader("GET", `/v1/documents?${names}`), 413, "payload_too_large");
      expect(many.message).toMatch(/ask for fewer names/);
    });

    it("when documents are deleted one by one or in a batch, then they are gone; deleting again is 404 or absent", async () => {
      const one = await publisher("DELETE", "/v1/documents/api-docs.example/guide/start");
      expect(one).toMatchObject({ status: 200, body: { name: "documents/api-docs.example/guide/start", status: "deleted" } });
      expectRestError(await publisher("DELETE", "/v1/documents/api-docs.example/guide/start"), 404, "not_found");
      const batch = await publisher("DELETE", "/v1/documents", {
        names: ["documents/api-docs.example/guide/deploy", "documents/api-docs.example/guide/start"],
      });
      expect(batch.body).toEqual({
        results: [
          { name: "documents/api-docs.example/guide/deploy", status: "deleted" },
          { name: "documents/api-docs.example/guide/start", status: "absent" },
        ],
      });
      expect((await reader<SearchPage>("GET", "/v1/search?query=quokkactl")).body.results).toEqual([]);
    });

    it("when a reader, a publisher without writes, or no key tries to write, then 403 or 401 and nothing changes", async () => {
      const body = { documents: [page("intruder", "# Defaced")] };
      const writer = restClient(
        docs.stack.baseUrl,
        await docs.stack.createKey({ accountId: "acct-a", scopes: ["docs:read"], allowWrites: true }),
      );
      const denied = expectRestError(await writer("PUT", "/v1/documents", body), 403, "permission_denied");
      expect(denied.message).toMatch(/DOCS_INGEST_ACCOUNTS/);
      const readOnlyPublisher = restClient(
        docs.stack.baseUrl,
        await docs.stack.createKey({ accountId: publisherAccount, scopes: ["docs:read"], allowWrites: false }),
      );
      expect(expectRestError(await readOnlyPublisher("PUT", "/v1/documents", body), 403, "permission_denied").message).toMatch(
        /may not write/,
      );
      expectRestError(await reader("PUT", "/v1/documents", body), 403, "permission_denied");
      expectRestError(await reader("DELETE", "/v1/documents/api-docs.example/guide/html"), 403, "permission_denied");
      expectRestError(await restClient(docs.stack.baseUrl, undefined)("PUT", "/v1/documents", body), 401, "unauthenticated");
      expectRestError(await reader("GET", "/v1/documents/api-docs.example/guide/intruder"), 404, "not_found");
    });
  });

  describe("reading", () => {
    it("when GET /v1/documents names several documents, then they come back in order; an unknown one is 404 listing it", async () => {
      const names = [
        "documents/api-docs.example/guide/bulk/2",
        "documents/api-docs.example/guide/bulk/1",
        "documents/api-docs.example/guide/bulk/2",
      ];
      const response = await reader<{ documents: Document[] }>(
        "GET",
        `/v1/documents?${names.map((name) => `names=${encodeURIComponent(name)}`).join("&")}`,
      );
      expect(response.body.documents.map((document) => document.name)).toEqual(names);
      const missing = expectRestError(await reader("GET", "/v1/documents?names=documents/api-docs.example/none"), 404, "not_found");
      expect(missing.details?.missing).toEqual(["documents/api-docs.example/none"]);
      const tooMany = Array.from({ length: 21 }, (_, i) => `names=documents/api-docs.example/guide/bulk/${i}`).join("&");
      expectRestError(await reader("GET", `/v1/documents?${tooMany}`), 400, "invalid_argument");
    });

    it("when GET /v1/search and POST /v1/answer are called, then they answer like the tools, with the same validation", async () => {
      const search = await reader<SearchPage>("GET", "/v1/search?query=bulk%20page%2042&pageSize=2");
      expect(search.body.results[0]).toMatchObject({ parent: "documents/api-docs.example/guide/bulk/42", title: "Bulk page 42" });
      expectRestError(await reader("GET", "/v1/search?query=x&pageSize=51"), 400, "invalid_argument");
      expectRestError(await reader("GET", `/v1/search?query=${"a".repeat(10_000)}`), 400, "invalid_argument");
      const answer = await reader<Answer>("POST", "/v1/answer", { query: "bulk page 42" });
      expect(answer.body.references[0]?.name).toBe("documents/api-docs.example/guide/bulk/42");
      expectRestError(await reader("POST", "/v1/answer", { query: "\u0007" }), 400, "invalid_argument");
      const noScope = restClient(docs.stack.baseUrl, await readerKey(docs.stack, { scopes: ["scripts:read"] }));
      expect(expectRestError(await noScope("GET", "/v1/search?query=x"), 403, "permission_denied").details?.requiredScope).toBe(
        "docs:read",
      );
    });
  });
});
