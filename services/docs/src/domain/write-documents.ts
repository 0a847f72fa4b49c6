/**
 * Batch upsert of prepared documents: one transaction per batch. A document whose hash is unchanged
 * is not written at all (checked once without locks, and again under the documents' locks). A changed
 * one gets its row, its chunks (search vectors computed in SQL) and its lexicon counts replaced together.
 */
import { invalidArgument } from "@bancada/contracts";
import type { DocsDb, DocsTx } from "../db/client.js";
import { Prisma } from "../db/generated/client.js";
import { LexiconDelta, lockNames } from "./lexicon.js";
import type { PreparedDocument } from "./prepare-document.js";
import { fieldVector } from "./ranking/fields.js";

export interface WriteOutcome {
  name: string;
  status: "created" | "updated" | "unchanged";
}

export async function writeDocuments(db: DocsDb, documents: PreparedDocument[]): Promise<WriteOutcome[]> {
  refuseDuplicates(documents);
  const names = documents.map((document) => document.name);
  const before = await storedHashes(db, names);
  if (documents.every((document) => before.get(document.name) === document.contentHash)) {
    return names.map((name) => ({ name, status: "unchanged" }));
  }
  return db.$transaction(
    async (tx) => {
      await lockNames(tx, names);
      const stored = await storedHashes(tx, names);
      const changed = documents.filter((document) => stored.get(document.name) !== document.contentHash);
      await replace(
        tx,
        changed,
        changed.filter((document) => stored.has(document.name)).map((document) => document.name),
      );
      return documents.map((document) => ({
        name: document.name,
        status: !stored.has(document.name) ? "created" : stored.get(document.name) === document.contentHash ? "unchanged" : "updated",
      }));
    },
    { timeout: 120_000, maxWait: 30_000 },
  );
}

async function replace(tx: DocsTx, changed: PreparedDocument[], existing: string[]): Promise<void> {
  if (!changed.length) return;
  const lexicon = new LexiconDelta();
  if (existing.length) {
    const old = await tx.$queryRaw<
      { title: string; content: string }[]
    >`SELECT title, content FROM documents WHERE name = ANY(${existing}::text[])`;
    for (const row of old) lexicon.removeStored(row);
    await tx.$executeRaw`DELETE FROM chunks WHERE document_name = ANY(${existing}::text[])`;
    await tx.$executeRaw`DELETE FROM vocabulary WHERE document_name = ANY(${existing}::text[])`;
  }
  await tx.$executeRaw`
    INSERT INTO documents (name, uri, title, description, content, lang, content_hash, chunk_count, head, created_at, updated_at)
    SELECT n, u, t, d, c, l, h, k, ${fieldVector({ title: Prisma.sql`t`, heading: Prisma.sql`hs`, description: Prisma.sql`d` })}, now(), now()
      FROM unnest(${changed.map((x) => x.name)}::text[], ${changed.map((x) => x.uri)}::text[], ${changed.map((x) => x.title)}::text[],
                  ${changed.map((x) => x.description)}::text[], ${changed.map((x) => x.content)}::text[], ${changed.map((x) => x.lang)}::text[],
                  ${changed.map((x) => x.contentHash)}::text[], ${changed.map((x) => x.chunks.length)}::int[],
                  ${changed.map(headingsOf)}::text[]) AS v(n, u, t, d, c, l, h, k, hs)
    ON CONFLICT (name) DO UPDATE SET uri = EXCLUDED.uri, title = EXCLUDED.title, description = EXCLUDED.description, content = EXCLUDED.content,
      lang = EXCLUDED.lang, content_hash = EXCLUDED.content_hash, chunk_count = EXCLUDED.chunk_count, head = EXCLUDED.head, updated_at = now()`;
  const chunks = changed.flatMap((document) => document.chunks.map((chunk) => ({ name: document.name, ...chunk })));
  await tx.$executeRaw`
    INSERT INTO chunks (document_name, ordinal, heading_path, anchor, text, tsv)
    SELECT v.n, v.o, p.path, v.a, v.t,
           ${fieldVector({
             title: Prisma.sql`d.title`,
             heading: Prisma.sql`array_to_string(p.path, ' ')`,
             description: Prisma.sql`CASE WHEN v.o = 0 THEN d.description ELSE '' END`,
             body: Prisma.sql`v.t`,
           })}
      FROM unnest(${chunks.map((c) => c.name)}::text[], ${chunks.map((c) => c.ordinal)}::int[],
                  ${chunks.map((c) => JSON.stringify(c.headingPath))}::text[], ${chunks.map((c) => c.anchor)}::text[],
                  ${chunks.map((c) => c.text)}::text[]) AS v(n, o, h, a, t)
      CROSS JOIN LATERAL (SELECT ARRAY(SELECT jsonb_array_elements_text(v.h::jsonb)) AS path) p
      JOIN documents d ON d.name = v.n`;
  const pairs = changed.flatMap((document) => document.vocabulary.map((pair) => ({ page: document.name, ...pair })));
  if (pairs.length)
    await tx.$executeRaw`
      INSERT INTO vocabulary (document_name, word, name)
      SELECT * FROM unnest(${pairs.map((p) => p.page)}::text[], ${pairs.map((p) => p.word)}::text[], ${pairs.map((p) => p.name)}::text[])`;
  for (const document of changed) lexicon.add(document.words, 1);
  await lexicon.apply(tx);
}

/** Every heading of the page, once each: with the title and description, the page's head for search. */
function headingsOf(document: PreparedDocument): string {
  return [...new Set(document.chunks.flatMap((chunk) => chunk.headingPath))].join("\n");
}

async function storedHashes(db: DocsDb | DocsTx, names: string[]): Promise<Map<string, string>> {
  const rows = await db.$queryRaw<{ name: string; content_hash: string }[]>`
    SELECT name, content_hash FROM documents WHERE name = ANY(${names}::text[])`;
  return new Map(rows.map((row) => [row.name, row.content_hash]));
}

function refuseDuplicates(documents: PreparedDocument[]): void {
  const seen = new Map<string, number>();
  documents.forEach((document, index) => {
    const first = seen.get(document.name);
    if (first !== undefined) {
      throw invalidArgument([
        { path: `documents[${index}].uri`, message: `names the same document as documents[${first}] (${document.name})` },
      ]);
    }
    seen.set(document.name, index);
  });
}
