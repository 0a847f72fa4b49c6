/**
 * Scores candidate passages on their words, the way a reader judges them:
 * - where a term is found: the page's title (a command's name is its title) counts most, then the
 *   section's headings, then the page's description, then the body;
 * - how: the word itself above one of its synonyms above another word of the same stem — a stem never
 *   outranks the exact word, and a stem only matches a word that is the stem plus an inflection
 *   ("deprecated" for "deprecate"), never a longer word that happens to start with it ("login" for "log");
 * - closeness: the question's words within a few words of each other in the text beat the same words
 *   scattered over the section.
 * The score is the weighted share of the question's terms, each counted by its best place, plus the
 * closeness bonus.
 */
import type { Passage } from "./passages.js";
import type { QueryTerm } from "./query-terms.js";
import { fold, plainWords } from "./words.js";

export interface RankedPassage extends Passage {
  score: number;
}

const place = { title: 1, heading: 0.85, description: 0.7, body: 0.35 } as const;
/** A term also found in the body of a passage whose head holds it: the section is about it and says something. */
const bodyAlso = 0.15;
const synonymShare = 0.85;
const stemShare = 0.7;
/** The most a passage gains for the question's words close together. */
const closenessShare = 0.3;

const suffixes = new Set(
  (
    "s es ed d ing e er ers est ly ment ments ion ions ation ations ate ated ates ating ator ators ity ies ied y able ible al ness ive " +
    "a as o os ar er ir ado ada ados adas ido ida idos idas ando endo indo cao coes ao oes mente agem vel veis ante antes"
  ).split(" "),
);

export function rankPassages(passages: Passage[], terms: QueryTerm[]): RankedPassage[] {
  const total = terms.reduce((sum, term) => sum + term.weight, 0);
  if (!total) return passages.map((passage) => ({ ...passage, score: 0 }));
  const matchers = terms.map(matcherOf);
  return passages
    .map((passage) => {
      const title = plainWords(passage.title).split(" ");
      const headings = plainWords(passage.headingPath.join(" ")).split(" ");
      const description = plainWords(passage.description).split(" ");
      const body = plainWords(passage.text).split(" ");
      let held = 0;
      const positions: { at: number; term: number }[] = [];
      matchers.forEach((match, index) => {
        const inBody = bestIn(body, match, (at) => positions.push({ at, term: index }));
        const head = Math.max(
          place.title * bestIn(title, match),
          place.heading * bestIn(headings, match),
          place.description * bestIn(description, match),
        );
        const strength = Math.max(head, place.body * inBody) + (head > 0 ? bodyAlso * inBody : 0);
        held += terms[index]!.weight * strength;
      });
      const score = held / total + closenessShare * closeness(positions, terms, total);
      return { ...passage, score };
    })
    .sort((a, b) => b.score - a.score || a.ordinal - b.ordinal);
}

type Matcher = (words: string[], at: number) => number;

/** How well the word(s) at `at` stand for the term: 1 the word itself, then a synonym, then a stem; 0 not at all. */
function matcherOf(term: QueryTerm): Matcher {
  const exact = term.words.split(" ");
  const synonyms = term.synonyms.map((synonym) => synonym.words.split(" "));
  const stems = [
    ...new Set([...term.stems, ...term.synonyms.flatMap((synonym) => synonym.stems)].map((stem) => plainWords(fold(stem)))),
  ].filter((stem) => stem && !stem.includes(" "));
  const sequenceAt = (words: string[], at: number, sequence: string[]) => sequence.every((word, offset) => words[at + offset] === word);
  return (words, at) => {
    if (sequenceAt(words, at, exact)) return 1;
    if (synonyms.some((synonym) => sequenceAt(words, at, synonym))) return synonymShare;
    const word = words[at]!;
    return stems.some((stem) => inflects(word, stem)) ? stemShare : 0;
  };
}

/** `word` is `stem` plus an inflection, or plus a doubled last letter and one ("logging" for "log"). */
function inflects(word: string, stem: string): boolean {
  if (word === stem) return true;
  if (stem.length < 3 || !word.startsWith(stem)) return false;
  const rest = word.slice(stem.length);
  return suffixes.has(rest) || (rest[0] === stem.at(-1) && suffixes.has(rest.slice(1)));
}

function bestIn(words: string[], match: Matcher, found?: (at: number) => void): number {
  let best = 0;
  for (let at = 0; at < words.length; at++) {
    const strength = match(words, at);
    if (strength > 0) {
      found?.(at);
      if (strength > best) best = strength;
    }
  }
  return best;
}

/**
 * The weighted share of the question's terms found together within a short span of the text (at most
 * 4 words per term found plus 4), when at least two distinct terms are.
 */
function closeness(positions: { at: number; term: number }[], terms: QueryTerm[], total: number): number {
  if (positions.length < 2) return 0;
  positions.sort((a, b) => a.at - b.at);
  const distinct = new Set(positions.map((position) => position.term)).size;
  const span = 4 * distinct + 4;
  let best = 0;
  const counts = new Map<number, number>();
  let weight = 0;
  let start = 0;
  for (const position of positions) {
    const count = counts.get(position.term) ?? 0;
    if (!count) weight += terms[position.term]!.weight;
    counts.set(position.term, count + 1);
    while (position.at - positions[start]!.at > span) {
      const leaving = positions[start++]!;
      const left = counts.get(leaving.term)! - 1;
      counts.set(leaving.term, left);
      if (!left) weight -= terms[leaving.term]!.weight;
    }
    if ([...counts.values()].filter(Boolean).length >= 2) best = Math.max(best, weight);
  }
  return best / total;
}
