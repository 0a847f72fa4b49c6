/**
 * Words as the lexicon sees them: folded (lower case, accents removed) runs of letters and digits.
 * The same function reads documents and queries, so the two always agree.
 */
export function fold(text: string): string {
  return text
    .normalize("NFD")
    .replace(/\p{M}+/gu, "")
    .toLowerCase();
}

const wordPattern = /[\p{L}\p{N}]+/gu;

/** Every word of 2 to 40 characters that is not a bare number, in order of appearance (repeats kept). */
export function wordsOf(text: string): string[] {
  const out: string[] = [];
  for (const match of fold(text).matchAll(wordPattern)) {
    const word = match[0];
    if (word.length >= 2 && word.length <= 40 && !/^\d+$/.test(word)) out.push(word);
  }
  return out;
}

export function distinctWords(text: string): Set<string> {
  return new Set(wordsOf(text));
}

/** Every run of letters or digits, folded and joined by single spaces: how a question term and a sentence are compared. */
export function plainWords(text: string): string {
  return (fold(text).match(wordPattern) ?? []).join(" ");
}
