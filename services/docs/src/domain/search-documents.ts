/**
 * search_documents: full-text search, one result per page (its best section).
 * - A query worded as a sentence (a stop word or filler: "how do I …", "the best way to …"), with no
 *   operator, is led by the pages answer_query's ranking finds for it (a page whose exact title is the query
 *   first), then the pages holding every word that ranking left out. See questionLed.
 * - Any other query (keywords, or `"…"`, `-word`, `OR`): head matches first, then body matches. When the
 *   words as typed match nothing, misspelt words are corrected against the corpus's lexicon and the search
 *   runs again. A first page that pages matching every word leave short is filled with the question
 *   ranking's pages (any page not already listed); when that finds nothing either, titles are compared by
 *   trigram similarity.
 * The page token remembers which reading produced the first page and where it ended.
 */
import type { DocsDb } from "../db/client.js";
import { rankedPages, rankedPassages } from "./answer-query.js";
import { correctQuery, withCorrections } from "./corrections.js";
import { decodePageToken, encodePageToken, SearchMode, type PageCursor } from "./page-token.js";
import { queryTerms, type QueryReading } from "./query-terms.js";
import type { SearchDocumentsInput, SearchDocumentsResult } from "./schemas.js";
import { resultsOf, type PageHit } from "./search-page.js";
import { bodyHits, excludedTerms, fuzzyHits, headHits, type Hit } from "./ranking/search-sql.js";
import { fold } from "./words.js";

export async function searchDocuments(db: DocsDb, input: SearchDocumentsInput): Promise<SearchDocumentsResult> {
  const cursor = input.pageToken ? decodePageToken(input.query, input.pageToken) : undefined;
  const reading =
    hasOperators(input.query) || (cursor && cursor.mode !== SearchMode.question) ? undefined : await queryTerms(db, input.query);
  if (reading?.phrased) {
    const led = await questionLed(db, input, reading, cursor);
    if (led) return led;
  }
  const modes: SearchMode[] = cursor ? [cursor.mode] : [SearchMode.typed, SearchMode.corrected, SearchMode.fuzzy];
  for (const mode of modes) {
    if (mode === SearchMode.fuzzy && !cursor) {
      const asked = await questionHits(db, reading, new Set(), input.pageSize);
      if (asked.length) return { results: await resultsOf(db, input.query, asked) };
    }
    const effective = mode === SearchMode.corrected ? (await correctQuery(db, input.query))?.query : input.query;
    if (effective === undefined) continue;
    const hits = await hitsOf(db, effective, mode, cursor, input.pageSize + 1);
    if (hits.length || cursor) return toPage(db, input, reading, effective, mode, hits, cursor);
  }
  return { results: [] };
}

/** `"…"`, `-word` and `OR` ask for exactly what they say: such a query is never read as a question. */
function hasOperators(query: string): boolean {
  return query.includes('"') || excludedTerms(query) !== null || /(?:^|\s)OR(?:\s|$)/.test(query);
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
  reading: QueryReading | undefined,
  query: string,
  mode: SearchMode,
  hits: Hit[],
  cursor: PageCursor | undefined,
): Promise<SearchDocumentsResult> {
  const page: PageHit[] = hits.slice(0, input.pageSize);
  const last = hits[page.length - 1];
  if (!cursor && mode !== SearchMode.fuzzy && page.length < input.pageSize) {
    page.push(...(await questionHits(db, reading, new Set(page.map((hit) => hit.name)), input.pageSize - page.length)));
  }
  const results = await resultsOf(db, query, page);
  if (hits.length <= input.pageSize || !last) return { results };
  return { results, nextPageToken: encodePageToken(input.query, { mode, tier: last.tier, score: last.score_text, name: last.name }) };
}

/** The pages of the question ranking, best first, each with its best section. */
async function questionPages(db: DocsDb, reading: QueryReading, most: number): Promise<(PageHit & { title: string })[]> {
  if (!reading.terms.some((term) => !term.filler)) return [];
  const pages = rankedPages(await rankedPassages(db, reading.terms, reading.corpusSize), 0, most);
  return pages.map((passages) => ({ name: passages[0]!.name, chunk: passages[0]!.id, title: passages[0]!.title }));
}

/**
 * The question ranking's best pages, except those in `listed`, at most `room`. Not for queries with
 * operators (no reading): those ask for exactly what they say.
 */
async function questionHits(db: DocsDb, reading: QueryReading | undefined, listed: Set<string>, room: number): Promise<PageHit[]> {
  if (!reading) return [];
  const pages = await questionPages(db, reading, listed.size + room);
  return pages.filter((page) => !listed.has(page.name)).slice(0, room);
}

/**
 * One page of a query worded as a sentence. The order: pages whose exact title is the query; the question
 * ranking's pages (every page it finds, best first); then the pages holding every word of the query
 * (typos corrected) that the ranking did not list, head matches before body matches, as for keywords. The
 * first two parts are a list computed afresh for each page (the same query on the same corpus gives the
 * same list), so a token in it is a position; in the third, a keyset position, with the list left out.
 * Undefined when nothing at all is found on the first page: the keyword search's fallbacks take over.
 */
async function questionLed(
  db: DocsDb,
  input: SearchDocumentsInput,
  reading: QueryReading,
  cursor: PageCursor | undefined,
): Promise<SearchDocumentsResult | undefined> {
  const ranked = await questionPages(db, reading, Number.MAX_SAFE_INTEGER);
  // A page whose title is the query holds all of it in its title, so the ranking finds it; it comes first.
  const title = fold(input.query.trim());
  const list = [...ranked.filter((page) => fold(page.title) === title), ...ranked.filter((page) => fold(page.title) !== title)];
  const shown = cursor?.tier === 0 ? Number(cursor.score) : cursor ? list.length : 0;
  const rest = list.slice(shown);
  const room = input.pageSize + 1 - rest.length;
  const fromList = rest.slice(0, input.pageSize);
  const corrected = withCorrections(input.query, reading.corrections);
  // The list's excerpts are made while the all-words pages are looked for: neither needs the other.
  const [listResults, words] = await Promise.all([
    resultsOf(db, input.query, fromList),
    room > 0
      ? wordHits(
          db,
          corrected,
          cursor,
          room,
          list.map((page) => page.name),
        )
      : Promise.resolve([]),
  ]);
  if (!cursor && !fromList.length && !words.length) return undefined;
  const fromWords = words.slice(0, input.pageSize - fromList.length);
  const results = [...listResults, ...(await resultsOf(db, corrected, fromWords))];
  if (rest.length + words.length <= input.pageSize) return { results };
  const last = fromWords[fromWords.length - 1];
  const at = last
    ? { tier: last.tier, score: last.score_text, name: last.name }
    : { tier: 0 as const, score: String(shown + fromList.length), name: fromList[fromList.length - 1]!.name };
  return { results, nextPageToken: encodePageToken(input.query, { mode: SearchMode.question, ...at }) };
}

/**
 * The pages holding every word (typos corrected) after the question ranking's `listed` pages: head
 * matches, then body matches, both asked at once (the room left is small, and a round trip costs more
 * here than the body tier).
 */
async function wordHits(db: DocsDb, query: string, cursor: PageCursor | undefined, room: number, listed: string[]): Promise<Hit[]> {
  const keyset = cursor && cursor.tier > 0 ? cursor : undefined;
  const [head, body] = await Promise.all([
    keyset?.tier === 2 ? Promise.resolve([]) : headHits(db, query, keyset, room, listed),
    bodyHits(db, query, keyset?.tier === 2 ? keyset : undefined, room, listed),
  ]);
  return [...head, ...body].slice(0, room);
}
