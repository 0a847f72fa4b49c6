/**
 * Builds an extractive answer: from each chosen passage, the one or two sentences that carry most of
 * the question's weight, quoted as written and followed by [n], the 1-based number of the cited
 * document in `references`. Nothing is paraphrased, so every statement is traceable to its source.
 */
import { readLines } from "./markdown/lines.js";
import { clip, inlineToPlain } from "./markdown/inline.js";
import type { Passage } from "./passages.js";
import type { QueryTerm } from "./query-terms.js";
import type { Reference } from "./schemas.js";
import { plainWords } from "./words.js";

const sentencesPerPassage = 2;
const sentenceMax = 320;
const excerptMax = 600;

export function composeAnswer(passages: Passage[], terms: QueryTerm[]): { answer: string; references: Reference[] } {
  const references: Reference[] = [];
  const quotes = new Map<string, string[]>();
  const paragraphs: string[] = [];
  for (const passage of passages) {
    const chosen = bestSentences(passage.text, terms);
    if (!chosen.length) continue;
    let number = references.findIndex((reference) => reference.name === passage.name) + 1;
    if (number === 0) {
      references.push({ name: passage.name, uri: passage.uri, title: passage.title, excerpt: "" });
      number = references.length;
    }
    quotes.set(passage.name, [...(quotes.get(passage.name) ?? []), ...chosen]);
    paragraphs.push(`${chosen.join(" ")} [${number}]`);
  }
  for (const reference of references) reference.excerpt = clip((quotes.get(reference.name) ?? []).join(" … "), excerptMax);
  return { answer: paragraphs.join("\n\n"), references };
}

/** The passage's prose as sentences: code blocks and tables left out, list items one sentence each. */
export function sentencesOf(markdown: string): string[] {
  const blocks: string[] = [];
  let paragraph: string[] = [];
  const flush = () => {
    if (paragraph.length) blocks.push(paragraph.join(" "));
    paragraph = [];
  };
  for (const line of readLines(markdown)) {
    if (line.kind !== "text" || /^\s*\|/.test(line.raw)) {
      flush();
      continue;
    }
    const item = /^\s*(?:[-*+]|\d+[.)])\s+(.*)$/.exec(line.raw);
    if (item) {
      flush();
      paragraph.push(item[1] ?? "");
    } else paragraph.push(line.raw.replace(/^\s*>\s?/, ""));
  }
  flush();
  return blocks
    .map((block) => inlineToPlain(block, true))
    .flatMap((block) => block.split(/(?<=[.!?])\s+(?=[\p{Lu}\p{N}"'`(])/u))
    .map((sentence) => sentence.trim())
    .filter((sentence) => sentence.length >= 3);
}

function bestSentences(text: string, terms: QueryTerm[]): string[] {
  const sentences = sentencesOf(text);
  const scored = sentences.map((sentence, index) => ({ sentence, index, weight: weightOf(sentence, terms) }));
  const useful = scored.filter((entry) => entry.weight > 0).sort((a, b) => b.weight - a.weight || a.index - b.index);
  // A passage chosen for its title or headings alone still leads with its first sentence.
  const chosen = useful.length ? useful.slice(0, sentencesPerPassage) : scored.slice(0, 1);
  return chosen.sort((a, b) => a.index - b.index).map((entry) => clip(entry.sentence, sentenceMax));
}

/** The question's weight (IDF) found in a sentence: a term matches by its words in sequence, or a word by a stem. */
function weightOf(sentence: string, terms: QueryTerm[]): number {
  const line = ` ${plainWords(sentence)} `;
  const words = line.trim().split(" ");
  let weight = 0;
  for (const term of terms) {
    const hit =
      line.includes(` ${term.words} `) || words.some((word) => term.stems.some((stem) => stem.length >= 4 && word.startsWith(stem)));
    if (hit) weight += term.idf;
  }
  return weight;
}
