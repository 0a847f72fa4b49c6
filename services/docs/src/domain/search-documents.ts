/**
 * search_documents: full-text search, one result per page (its best section), head matches first.
 * When the words as typed match nothing, misspelt words are corrected against the corpus's lexicon
 * and the search runs again. A first page that pages matching every word leave short is filled with the
 * pages answer_query's ranking finds for the query read as a question (any page not already listed);
 * when that finds nothing either, titles are compared by trigram similarity. The page token remembers
 * which reading produced the first page and where it ended.
 */
import type { DocsDb } from "../db/client.js";
import { rankedPages, rankedPassages } from "./answer-query.js";
import { correctQuery } from "./corrections.js";
import { decodePageToken, encodePageToken, SearchMode, type PageCursor } from "./page-token.js";
import { queryTerms } from "./query-terms.js";
import type { SearchDocumentsInput, SearchDocumentsResult } from "./schemas.js";
import { resultsOf, type PageHit } from "./search-page.js";
import { bodyHits, excludedTerms, fuzzyHits, headHits, type Hit } from "./search-sql.js";

export async function searchDocuments(db: DocsDb, input: SearchDocumentsInput): Promise<SearchDocumentsResult> {
  const cursor = input.pageToken ? decodePageToken(input.query, input.pageToken) : undefined;
  const modes: SearchMode[] = cursor ? [cursor.mode] : [SearchMode.typed, SearchMode.corrected, SearchMode.fuzzy];
  for (const mode of modes) {
    if (mode === SearchMode.fuzzy && !cursor) {
      const asked = await questionHits(db, input.query, new Set(), input.pageSize);
      if (asked.length) return { results: await resultsOf(db, input.query, asked) };
    }
    const effective = mode === SearchMode.corrected ? (await correctQuery(db, input.query))?.query : input.query;
    if (effective === undefined) continue;
    const hits = await hitsOf(db, effective, mode, cursor, input.pageSize + 1);
    if (hits.length || cursor) return toPage(db, input, effective, mode, hits, cursor);
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
  cursor: PageCursor | undefined,
): Promise<SearchDocumentsResult> {
  const page: PageHit[] = hits.slice(0, input.pageSize);
  const last = hits[page.length - 1];
  if (!cursor && mode !== SearchMode.fuzzy && page.length < input.pageSize) {
    page.push(...(await questionHits(db, input.query, new Set(page.map((hit) => hit.name)), input.pageSize - page.length)));
  }
  const results = await resultsOf(db, query, page);
  if (hits.length <= input.pageSize || !last) return { results };
  return { results, nextPageToken: encodePageToken(input.query, { mode, tier: last.tier, score: last.score_text, name: last.name }) };
}

/**
 * The query read as answer_query reads a question (content words over filler, synonyms, fields, phrases):
 * its best pages, except those in `listed`, at most `room`, each with its best section. Not for queries that
 * quote a phrase or exclude a word: those ask for exactly what they say.
 */
async function questionHits(db: DocsDb, query: string, listed: Set<string>, room: number): Promise<PageHit[]> {
  if (query.includes('"') || excludedTerms(query)) return [];
  const { terms, corpusSize } = await queryTerms(db, query);
  if (!terms.some((term) => !term.filler)) return [];
  const pages = rankedPages(await rankedPassages(db, terms, corpusSize), 0, listed.size + room);
  return pages
    .filter((passages) => !listed.has(passages[0]!.name))
    .slice(0, room)
    .map((passages) => ({ name: passages[0]!.name, chunk: passages[0]!.id }));
}
