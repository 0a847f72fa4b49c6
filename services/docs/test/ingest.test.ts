/**
 * Ingestion from a folder (the CLI's engine): incremental runs that write nothing when nothing changed,
 * edits that rewrite only their page, --prune limited to the base URI, skipped files with reasons,
 * HTML conversion, derived titles and descriptions, progress, and lexicon counts and learned vocabulary that stay exact.
 */
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { connectClient } from "@bancada/testkit";
import { ingestFolder, runDocsCommand, type DocsDb, type IngestProgress } from "../src/index.js";
import { splitSections } from "../src/domain/markdown/sections.js";
import { vocabularyOf } from "../src/domain/vocabulary/definitions.js";
import { distinctWords } from "../src/domain/words.js";
import { fixtureCorpus, writeCorpus } from "./fixtures/corpus.js";
import { fails, ok, search, type Document } from "./helpers.js";
import { readerKey, startDocsStack, tempFolder, type DocsStack } from "./stack.js";

const base = "https://docs.nimbus.example/docs";

describe("ingesting a folder", () => {
  let docs: DocsStack;
  let db: DocsDb;
  let client: Client;
  let folder: { path: string; remove(): Promise<void> };
  const file = (relative: string) => path.join(folder.path, relative);
  const ingest = (extra: { prune?: boolean; onProgress?: (p: IngestProgress) => void } = {}) =>
    ingestFolder({ db, folder: folder.path, baseUri: base, ...extra });
  const rowVersions = async () => ({
    documents: await db.$queryRaw<
      { name: string; x: string }[]
    >`SELECT name, xmin::text AS x, updated_at::text FROM documents ORDER BY name`,
    chunks: await db.$queryRaw<{ id: string; x: string }[]>`SELECT id::text, xmin::text AS x FROM chunks ORDER BY id`,
    lexicon: await db.$queryRaw<{ word: string; x: string }[]>`SELECT word, xmin::text AS x FROM lexicon ORDER BY word`,
  });
  const read = async (name: string) => (await ok<{ documents: Document[] }>(client, "get_documents", { names: [name] })).documents[0]!;

  beforeAll(async () => {
    docs = await startDocsStack();
    db = docs.service().db;
    client = await connectClient(docs.stack.mcpUrl, await readerKey(docs.stack));
    folder = await tempFolder();
    await writeCorpus(folder.path, fixtureCorpus().slice(0, 40));
  });
  afterAll(async () => {
    await folder?.remove();
    await client?.close();
    await docs?.stack.stop();
  });

  it("when a folder is ingested, then each Markdown file becomes a document and progress is reported", async () => {
    const seen: IngestProgress[] = [];
    const report = await ingest({ onProgress: (progress) => seen.push(progress) });
    expect(report).toMatchObject({ files: 40, processed: 40, created: 40, updated: 0, unchanged: 0, skipped: 0, deleted: 0 });
    expect(seen.at(-1)).toMatchObject({ phase: "done", processed: 40, created: 40 });
    expect(seen.filter((progress) => progress.phase === "writing").length).toBeGreaterThan(0);
  });

  it("when the same folder is ingested again, then nothing is written (no row of documents, chunks or lexicon changes)", async () => {
    const before = await rowVersions();
    const report = await ingest();
    expect(report).toMatchObject({ created: 0, updated: 0, unchanged: 40, deleted: 0 });
    expect(await rowVersions()).toEqual(before);
  });

  it("when one file is edited, then only its document is rewritten and search sees the change", async () => {
    const before = await rowVersions();
    await writeFile(file("storage/creating.md"), "# Creating buckets\n\nBuckets are made with the zanzibarquux wizard.\n");
    const report = await ingest();
    expect(report).toMatchObject({ created: 0, updated: 1, unchanged: 39 });
    const after = await rowVersions();
    const name = `documents/docs.nimbus.example/docs/storage/creating`;
    const changed = after.documents.filter((row, index) => row.x !== before.documents[index]?.x).map((row) => row.name);
    expect(changed).toEqual([name]);
    expect((await search(client, "zanzibarquux")).results.map((result) => result.parent)).toEqual([name]);
  });

  it("when a file is removed, then without --prune its document stays, and with --prune it is deleted", async () => {
    await rm(file("storage/deleting.md"));
    const name = "documents/docs.nimbus.example/docs/storage/deleting";
    expect(await ingest()).toMatchObject({ deleted: 0, unchanged: 39 });
    expect((await read(name)).title).toBe("Deleting buckets");
    expect(await ingest({ prune: true })).toMatchObject({ deleted: 1, unchanged: 39 });
    expect((await fails(client, "get_documents", { names: [name] }, "not_found")).details?.missing).toEqual([name]);
  });

  it("when --prune runs for one base URI, then documents under another base URI are untouched", async () => {
    const other = await tempFolder();
    try {
      await writeFile(path.join(other.path, "intro.md"), "# Other site\n\nHello.\n");
      await ingestFolder({ db, folder: other.path, baseUri: "https://other.example/docs" });
      await ingestFolder({ db, folder: other.path, baseUri: "https://docs.nimbus.example/docs-archive", prune: true });
      expect(await ingest({ prune: true })).toMatchObject({ deleted: 0 });
      expect((await read("documents/other.example/docs/intro")).title).toBe("Other site");
      expect((await read("documents/docs.nimbus.example/docs-archive/intro")).title).toBe("Other site");
    } finally {
      await other.remove();
    }
  });

  it("when files are too large, binary, not UTF-8 or have broken front matter, then they are skipped with a reason and the rest is ingested", async () => {
    await mkdir(file("odd"), { recursive: true });
    const text = (length: number) =>
      `# Big\n\n${"Bucket lifecycle rules delete old objects after a number of days. ".repeat(Math.ceil(length / 66))}`.slice(0, length);
    await writeFile(file("odd/big.md"), text(1024 * 1024));
    await writeFile(file("odd/too-large.md"), text(1024 * 1024 + 1));
    await writeFile(file("odd/binary.md"), Buffer.from([0x23, 0x20, 0x41, 0x00, 0x01, 0x02]));
    await writeFile(file("odd/latin1.md"), Buffer.from([0x23, 0x20, 0x43, 0x61, 0x66, 0xe9, 0x0a]));
    await writeFile(file("odd/front-matter.md"), "---\ntitle: [unclosed\n---\n\n# Body\n");
    await writeFile(file("odd/picture.png"), Buffer.from([0x89, 0x50, 0x4e, 0x47]));
    const report = await ingest();
    expect(report.created).toBe(1);
    expect(report.ignored).toBeGreaterThanOrEqual(1);
    const reasons = Object.fromEntries(report.skippedFiles.map((skipped) => [skipped.file, skipped.reason]));
    expect(reasons).toEqual({
      "odd/binary.md": "binary file (contains NUL bytes)",
      "odd/front-matter.md": expect.stringMatching(/front matter is not valid YAML/),
      "odd/latin1.md": "not UTF-8 text",
      "odd/too-large.md": `larger than 1 MiB (${1024 * 1024 + 1} bytes)`,
    });
  });

  it("when a 1 MiB document is read, then it crosses the bus whole; more than 8 MiB of them together are payload_too_large with their sizes", async () => {
    const name = "documents/docs.nimbus.example/docs/odd/big";
    expect((await read(name)).content).toHaveLength(1024 * 1024);
    expect((await ok<{ documents: unknown[] }>(client, "get_documents", { names: Array(7).fill(name) })).documents).toHaveLength(7);
    const error = await fails(client, "get_documents", { names: Array(8).fill(name) }, "payload_too_large");
    expect(error.details).toMatchObject({
      limitBytes: 8 * 1024 * 1024 - 64 * 1024,
      sizes: Array(8).fill({ name, bytes: expect.any(Number) }),
    });
    await rm(file("odd"), { recursive: true });
    expect(await ingest({ prune: true })).toMatchObject({ deleted: 1 });
  });

  it("when an HTML page is ingested, then its main content becomes Markdown and its head gives title and description", async () => {
    await writeFile(
      file("guides/html-page.html"),
      `<!doctype html><html><head><title>Rotating keys</title><meta name="description" content="Rotate service account keys safely."><script>var x = "tracking";</script></head>
       <body><nav>Home | Products</nav><main><h1>Rotating keys</h1><p>Create the new key <em>before</em> deleting the old one.</p>
       <h2>With the command line</h2><pre><code class="language-sh">cloudctl iam keys create --account=app</code></pre></main><footer>© Nimbus</footer></body></html>`,
    );
    expect(await ingest()).toMatchObject({ created: 1 });
    const document = await read("documents/docs.nimbus.example/docs/guides/html-page");
    expect(document).toMatchObject({ title: "Rotating keys", description: "Rotate service account keys safely." });
    expect(document.content).toContain("# Rotating keys");
    expect(document.content).toContain("## With the command line");
    expect(document.content).toMatch(/```sh\ncloudctl iam keys create --account=app\n```/);
    expect(document.content).not.toMatch(/Home \| Products|tracking|© Nimbus/);
  });

  it("when a page has no front matter, then the title is its first heading (or its file name) and the description its first paragraph", async () => {
    await writeFile(
      file("guides/index.md"),
      "![logo](logo.png)\n\n- a list first\n\nSetext title\n============\n\nThe guides explain **common tasks** with [examples](x.md).\n",
    );
    await writeFile(file("guides/no-heading.md"), "Just a paragraph without any heading.\n");
    await ingest();
    expect(await read("documents/docs.nimbus.example/docs/guides")).toMatchObject({
      title: "Setext title",
      description: "The guides explain common tasks with examples.",
    });
    expect(await read("documents/docs.nimbus.example/docs/guides/no-heading")).toMatchObject({
      title: "No heading",
      description: "Just a paragraph without any heading.",
    });
  });

  it("when two ingests of the same files race, then both finish and every document and word is counted once", async () => {
    const racing = await tempFolder();
    try {
      await writeCorpus(racing.path, fixtureCorpus().slice(100, 130));
      const runs = await Promise.all(
        [1, 2].map(() => ingestFolder({ db, folder: racing.path, baseUri: "https://race.example/docs", batchSize: 7 })),
      );
      expect(runs[0]!.created + runs[1]!.created).toBe(30);
      expect(runs[0]!.created + runs[0]!.unchanged).toBe(30);
    } finally {
      await racing.remove();
    }
  });

  it("when documents were created, edited and deleted, then the lexicon holds exactly the words of the stored documents", async () => {
    const rows = await db.document.findMany({ select: { title: true, content: true } });
    const expected = new Map<string, number>();
    for (const row of rows)
      for (const word of distinctWords(`${row.title}\n${row.content}`)) expected.set(word, (expected.get(word) ?? 0) + 1);
    const lexicon = await db.lexiconWord.findMany();
    expect(new Map(lexicon.map((entry) => [entry.word, entry.docCount]))).toEqual(expected);
  });

  it("when documents were created, edited and deleted, then the vocabulary holds exactly the pairs the stored documents teach", async () => {
    const rows = await db.document.findMany({ select: { name: true, title: true, description: true, content: true } });
    const expected = rows
      .flatMap((row) =>
        vocabularyOf(row.title, row.description, splitSections(row.content)).map((pair) => `${row.name} ${pair.word} ${pair.name}`),
      )
      .sort();
    const stored = (await db.vocabularyPair.findMany()).map((pair) => `${pair.documentName} ${pair.word} ${pair.name}`).sort();
    expect(stored.length).toBeGreaterThan(0);
    expect(stored).toEqual(expected);
  });

  it("when the docs command runs, then it ingests with progress and a summary, and explains wrong usage", async () => {
    const lines: string[] = [];
    const print = (line: string) => void lines.push(line);
    const databaseUrl = docs.stack.database.url;
    expect(await runDocsCommand(["ingest", folder.path, "--base-uri", base], { databaseUrl, print })).toBe(0);
    expect(lines.at(-1)).toMatch(/^Done in [\d.]+ s: (\d+) of \1 files read: 0 new, 0 updated, \d+ unchanged, 0 skipped, 0 deleted\.$/);
    lines.length = 0;
    // a folder that gives no file says why, naming the extensions that are ingested
    const empty = await mkdtemp(path.join(tmpdir(), "bancada-docs-empty-"));
    try {
      expect(await runDocsCommand(["ingest", empty, "--base-uri", `${base}/empty`], { databaseUrl, print })).toBe(0);
      expect(lines.at(-2)).toBe(
        `No Markdown or HTML file in ${empty}: it holds no files (hidden folders and node_modules are not searched). Files ending in .md .markdown .mdx .html .htm are ingested.`,
      );
      await writeFile(path.join(empty, "notes.txt"), "plain text");
      await writeFile(path.join(empty, "data.json"), "{}");
      expect(await runDocsCommand(["ingest", empty, "--base-uri", `${base}/empty`], { databaseUrl, print })).toBe(0);
      expect(lines.at(-2)).toBe(
        `No Markdown or HTML file in ${empty}: its 2 files are of other kinds. Files ending in .md .markdown .mdx .html .htm are ingested.`,
      );
      expect(lines.at(-1)).toMatch(/^Done in [\d.]+ s: 0 of 0 files read: 0 new, 0 updated, 0 unchanged, 0 skipped, 0 deleted\.$/);
    } finally {
      await rm(empty, { recursive: true, force: true });
    }
    expect(await runDocsCommand(["ingest", folder.path], { databaseUrl, print })).toBe(2);
    expect(lines.join("\n")).toMatch(/--base-uri is required/);
    expect(await runDocsCommand(["ingest", "/no/such/folder", "--base-uri", base], { databaseUrl, print })).toBe(1);
    expect(lines.at(-1)).toBe("/no/such/folder is not a folder.");
    expect(await runDocsCommand(["ingest", folder.path, "--base-uri", "ftp://x"], { databaseUrl, print })).toBe(1);
    expect(lines.at(-1)).toMatch(/--base-uri must be an absolute http\(s\) URI/);
    expect(await runDocsCommand(["frobnicate"], { databaseUrl, print })).toBe(2);
    expect(await runDocsCommand(["demo"], { databaseUrl, print })).toBe(0);
    expect(lines.at(-1)).toBe("The corpus holds other documents: the demo corpus was not loaded.");
  });
});
