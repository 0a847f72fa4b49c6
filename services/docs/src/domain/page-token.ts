/**
 * Search page tokens: where the previous page ended (tier, score and document name: the sort key) and how
 * the query was read (as typed, corrected, fuzzy titles, or as a question), bound to the query by a hash. Keyset
 * paging: a page boundary does not move when documents are added or removed elsewhere in the ranking.
 */
import { createHash } from "node:crypto";
import { z } from "zod";
import { invalidArgument } from "@bancada/contracts";

export const SearchMode = { typed: "t", corrected: "c", fuzzy: "f", question: "q" } as const;
export type SearchMode = (typeof SearchMode)[keyof typeof SearchMode];

export interface PageCursor {
  mode: SearchMode;
  /**
   * 1: head matches, 2: body matches (see search-sql.ts); 0: a place in the question ranking (mode `q`),
   * where `score` counts the pages of that ranking already shown.
   */
  tier: 0 | 1 | 2;
  score: string;
  name: string;
}

const tokenBody = z.object({
  v: z.literal(1),
  q: z.string(),
  m: z.enum(["t", "c", "f", "q"]),
  t: z.union([z.literal(0), z.literal(1), z.literal(2)]),
  s: z.string().regex(/^-?[0-9.e+-]+$/),
  n: z.string(),
});

export function encodePageToken(query: string, cursor: PageCursor): string {
  return Buffer.from(
    JSON.stringify({ v: 1, q: queryHash(query), m: cursor.mode, t: cursor.tier, s: cursor.score, n: cursor.name }),
  ).toString("base64url");
}

export function decodePageToken(query: string, token: string): PageCursor {
  let body: z.infer<typeof tokenBody>;
  try {
    body = tokenBody.parse(JSON.parse(Buffer.from(token, "base64url").toString("utf8")));
  } catch {
    throw invalidArgument([{ path: "pageToken", message: "is not a token this service issued; pass nextPageToken exactly as returned" }]);
  }
  if (body.q !== queryHash(query)) {
    throw invalidArgument([{ path: "pageToken", message: "belongs to another query; send the same query as for the previous page" }]);
  }
  return { mode: body.m, tier: body.t, score: body.s, name: body.n };
}

function queryHash(query: string): string {
  return createHash("sha256").update(query).digest("base64url").slice(0, 16);
}
