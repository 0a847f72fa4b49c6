/**
 * search_documents: full-text search, one result per page (its best section), head matches first.
 * When the words as typed match nothing, misspelt words are corrected against the corpus's lexicon
 * and the search runs again; when that matches nothing either, titles are compared by trigram
 * similarity. The page token remembers which reading produced the first page and where it ended.
 */
import type { DocsDb } from "../db/client.js";
import { correctQuery } from "./corrections.js";
import { decodePageToken, encodePageToken, SearchMode, type PageCursor } from "./page-token.js";
import type { SearchDocumentsInput, SearchDocumentsResult } from "./schemas.js";
import { resultsOf } from "./search-page.js";
import { bodyHits, fuzzyHits, headHits, type Hit } from "./search-sql.js";

export async function searchDocuments(db: DocsDb, input: SearchDocumentsInput): Promise<SearchDocumentsResult> {
  const cursor = input.pageToken ? decodePageToken(input.query, input.pageToken) : undefined;
  const modes: SearchMode[] = cursor ? [cursor.mode] : [SearchMode.typed, SearchMode.corrected, SearchMode.fuzzy];
  for (const mode of modes) {
    const effective = mode === SearchMode.corrected ? (await correctQuery(db, input.query))?.query : input.query;
    if (effective === undefined) continue;
    const hits = await hitsOf(db, effective, mode, cursor, input.pageSize + 1);
    if (hits.length || cursor) return toPage(db, input, effective, mode, hits);
  }
  return { results: [] };
}

/** Head matches first; body matches only when this page reaches past them. */
async function hitsOf(db: DocsDb, query: string, mode: SearchMode, cursor: PageCursor | undefined, limit: number): Promise<Hit[]> {
  if (mode === SearchMode.fuzzy) return fuzzyHits(db, query, cursor, limit);
  const hits = !cursor || cursor.tier === 1 ? await headHits(db, query, cursor, limit) : [];
  if (hits.length < limit) hits.push(...(await bodyHits(db, query, cursor?.tier === 2 ? cursor : undefined, limit - hits.length)));
  return hits;
}

async function toPage(
  db: DocsDb,
  input: SearchDocumentsInput,
  query: string,
  mode: SearchMode,
  hits: Hit[],
): Promise<SearchDocumentsResult> {
  const page = hits.slice(0, input.pageSize);
  const results = await resultsOf(db, query, page);
  const last = page.at(-1);
  if (hits.length <= input.pageSize || !last) return { results };
  return { results, nextPageToken: encodePageToken(input.query, { mode, tier: last.tier, score: last.score_text, name: last.name }) };
}
