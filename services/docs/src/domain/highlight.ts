/**
 * Search excerpts: ts_headline marks the words that match, but it reads the text as its parser does, which
 * is not how a reader of Markdown does. Two things are done around it:
 * - The text is HTML-escaped before and unescaped after: ts_headline drops whatever looks like a tag, and
 *   `<key id or prefix>` in a command is a placeholder, not a tag.
 * - Highlights cover whole identifiers only. The parser splits `BANCADA_RATE_BURST` and `rate-limited` into
 *   words and marks `RATE` alone; an identifier is marked whole when every word of it matched, else not at all.
 * The marks are control characters while ts_headline works, so `**` already in the text is never mistaken for one.
 */

const start = "\u0002";
const stop = "\u0003";

/** ts_headline's options: the marks this module reads, and the excerpt's size. */
export const headlineOptions = `StartSel="${start}", StopSel="${stop}", MaxWords=40, MinWords=18, ShortWord=2, MaxFragments=2, FragmentDelimiter=" … "`;

/** An identifier: words joined by `_`, `-` or `.` with no space (`BANCADA_RATE_BURST`, `rate-limited`, `docs.docs_en`). */
const identifier = /[\p{L}\p{N}_\u0002\u0003]+(?:[-.][\p{L}\p{N}_\u0002\u0003]+)*/gu;
const marked = /\u0002[^\u0003]*\u0003/g;

/** ts_headline's output (of the HTML-escaped text, as search-page.ts asks for it) to the excerpt: whole identifiers in bold, the text as written. */
export function excerptOf(headline: string): string {
  const bolded = headline.replace(identifier, (token, offset: number) => {
    if (!token.includes(start)) return token;
    const plain = token.replace(/[\u0002\u0003]/g, "");
    const unmatched = token.replace(marked, "");
    if (/[\p{L}\p{N}]/u.test(unmatched)) return plain;
    const bold = headline.slice(offset - 2, offset) === "**" && headline.startsWith("**", offset + token.length);
    return bold ? plain : `**${plain}**`;
  });
  return bolded
    .replace(/[\u0002\u0003]/g, "")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&amp;/g, "&");
}
