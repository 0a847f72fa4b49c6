/** get_documents (docs/docs.md#tools): up to 20 names, order and repeats kept, unknown names listed in not_found. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startCorpusStack, type CorpusStack } from "./corpus-stack.js";
import { fails, issuePaths, ok, type Document } from "./helpers.js";

describe("get_documents", () => {
  let s: CorpusStack;
  let names: string[];
  beforeAll(async () => {
    s = await startCorpusStack({ count: 30 });
    names = s.pages.map((page) => s.nameOf(page.file));
  });
  afterAll(async () => {
    await s?.stop();
  });

  const get = (args: Record<string, unknown>) => ok<{ documents: Document[] }>(s.client, "get_documents", args);

  it("when 20 names are asked, then the 20 documents come back in the order asked", async () => {
    const asked = names.slice(0, 20).reverse();
    const { documents } = await get({ names: asked });
    expect(documents.map((document) => document.name)).toEqual(asked);
  });

  it("when 21 names are asked, then invalid_argument names the names field", async () => {
    const error = await fails(s.client, "get_documents", { names: names.slice(0, 21) }, "invalid_argument");
    expect(issuePaths(error)).toContain("names");
  });

  it("when no name is asked, then invalid_argument names the names field", async () => {
    expect(issuePaths(await fails(s.client, "get_documents", { names: [] }, "invalid_argument"))).toContain("names");
  });

  it("when a name repeats, then the document comes back at each position", async () => {
    const [a, b] = names as [string, string];
    const { documents } = await get({ names: [a, b, a, a] });
    expect(documents.map((document) => document.name)).toEqual([a, b, a, a]);
    expect(documents[2]).toEqual(documents[0]);
  });

  it("when a document comes back, then it has the documented fields: name, uri, content (Markdown), description and title", async () => {
    const { documents } = await get({ names: [s.nameOf("storage/object-versioning.md")] });
    expect(documents[0]).toEqual({
      name: "documents/docs.nimbus.example/docs/storage/object-versioning",
      uri: "https://docs.nimbus.example/docs/storage/object-versioning",
      title: "Object versioning",
      description: "Keep noncurrent versions of objects in a bucket.",
      content: expect.stringMatching(/^## Enabling versioning\n\nTurn on object versioning/),
    });
    expect(Object.keys(documents[0]!).sort()).toEqual(["content", "description", "name", "title", "uri"]);
  });

  it("when some names are unknown, then not_found lists every missing name and nothing else comes back", async () => {
    const missing = ["documents/docs.nimbus.example/docs/nope", "documents/elsewhere.example/x"];
    const error = await fails(s.client, "get_documents", { names: [names[0], missing[0], names[1], missing[1], missing[0]] }, "not_found");
    expect(error.details?.missing).toEqual(missing);
    expect(error.message).toContain(missing[0]);
    expect(error.message).toContain(missing[1]);
  });

  it("when a name is not of the form documents/…, then invalid_argument names that entry", async () => {
    for (const bad of ["https://docs.nimbus.example/docs/storage/creating", "documents/", "documents/has space", "x".repeat(10)]) {
      const error = await fails(s.client, "get_documents", { names: [names[0], bad] }, "invalid_argument");
      expect(issuePaths(error)).toContain("names[1]");
    }
  });

  it("when a name is 2,048 characters it is looked up; with 2,049, invalid_argument", async () => {
    const long = (length: number) => `documents/${"a".repeat(length - "documents/".length)}`;
    expect((await fails(s.client, "get_documents", { names: [long(2048)] }, "not_found")).details?.missing).toEqual([long(2048)]);
    expect(issuePaths(await fails(s.client, "get_documents", { names: [long(2049)] }, "invalid_argument"))).toContain("names[0]");
  });

  it("when an unknown field is sent, then invalid_argument names it", async () => {
    expect(issuePaths(await fails(s.client, "get_documents", { names: [names[0]], format: "html" }, "invalid_argument"))).toContain(
      "format",
    );
  });
});
