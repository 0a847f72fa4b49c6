/**
 * Answers must fit the largest reply the tool host lets through (service-kit's maxReplyBytes): texts
 * are shortened further, and marked as cut, when they would not.
 */
export { wholeCharacters } from "../driver/utf8.js";

export function jsonSize(text: string): number {
  return Buffer.byteLength(JSON.stringify(text));
}

/**
 * Shortens texts until their JSON fits `budget` bytes: each gets an equal share, and what a short text
 * does not use goes to the others. Returns which ones were shortened.
 */
export function fitTexts(texts: string[], budget: number): { texts: string[]; shortened: boolean[] } {
  const sizes = texts.map(jsonSize);
  const shortened = texts.map(() => false);
  if (sizes.reduce((sum, size) => sum + size, 0) <= budget) return { texts: [...texts], shortened };
  const allowed = new Array<number>(texts.length).fill(0);
  let remaining = budget;
  const order = texts.map((_, index) => index).sort((a, b) => sizes[a]! - sizes[b]!);
  order.forEach((index, position) => {
    allowed[index] = Math.min(sizes[index]!, Math.floor(remaining / (order.length - position)));
    remaining -= allowed[index]!;
  });
  const out = texts.map((text, index) => {
    if (sizes[index]! <= allowed[index]!) return text;
    shortened[index] = true;
    return shrinkTo(text, allowed[index]!);
  });
  return { texts: out, shortened };
}

/** The longest prefix whose JSON is at most `bytes` (a few passes: escaping makes size per character vary). */
function shrinkTo(text: string, bytes: number): string {
  let out = text;
  for (let pass = 0; pass < 20; pass++) {
    const size = jsonSize(out);
    if (size <= bytes) return out;
    out = cutText(out, Math.max(0, Math.floor(out.length * (bytes / size) * 0.99)));
  }
  return "";
}

/** The first `length` UTF-16 units, without splitting a surrogate pair. */
function cutText(text: string, length: number): string {
  const code = text.charCodeAt(length - 1);
  return text.slice(0, code >= 0xd800 && code <= 0xdbff ? length - 1 : length);
}
