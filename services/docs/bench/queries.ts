/**
 * The benchmark's query mix, drawn deterministically from the corpus: exact titles (known items),
 * two-word topics, quoted phrases, single common words, and titles with a typo (the correction path).
 */
import type { BenchPage } from "./corpus.js";

export interface BenchQuery {
  kind: string;
  text: string;
  question: string;
}

function typo(title: string): string {
  const words = title.split(" ");
  const index = words.findIndex((word) => word.length >= 7);
  if (index < 0) return `${title}x`;
  const word = words[index]!;
  words[index] = `${word.slice(0, 2)}${word[3]}${word[2]}${word.slice(4)}`;
  return words.join(" ");
}

export function buildQueries(pages: BenchPage[]): BenchQuery[] {
  const queries: BenchQuery[] = [];
  const step = Math.max(1, Math.floor(pages.length / 97));
  for (let i = 0, n = 0; queries.length < 500; i = (i + step) % pages.length, n++) {
    const page = pages[i]!;
    const words = page.title.split(" ");
    const question = `${page.fact.replace(/\.$/, "")}?`;
    const kinds: BenchQuery[] = [
      { kind: "exact title", text: page.title, question },
      { kind: "exact title", text: pages[(i * 7 + 3) % pages.length]!.title, question },
      { kind: "two words", text: `${words[1]} ${words.at(-1)}`, question },
      { kind: "quoted phrase", text: `"${words.slice(0, 2).join(" ")}"`, question },
      { kind: "one common word", text: words[1]!.replace(/s$/, ""), question },
      { kind: "typo", text: typo(page.title), question },
    ];
    queries.push(kinds[n % kinds.length]!);
  }
  return queries;
}
