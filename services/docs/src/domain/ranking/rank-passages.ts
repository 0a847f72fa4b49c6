/**
 * Scores candidate passages on their words, the way a reader judges them:
 * - where a term is found: the page's title (a command's name is its title) counts most, then the
 *   section's headings, then the page's description, then the body;
 * - how: the word itself above one of its synonyms above another word of the same stem above a name the
 *   corpus defines with the word — a stem never outranks the exact word; the words of the same stem are the corpus's words Snowball stems alike in
 *   the question's language (QueryTerm.forms: "deprecated" for "deprecate", never "login" for "log");
 * - closeness: the question's words within a few words of each other in the text beat the same words
 *   scattered over the section;
 * - phrases: two words next to each other in the question ("create … user", "computed from other
 *   columns") found in that order a few words apart, in any field, count again (a sequential-dependence
 *   bonus): a passage saying the question's phrase beats one holding its words apart;
 * - a title made of the question's words ("CREATE USER" for "create a user that …") is about exactly
 *   that, above a longer title that only mentions one of them;
 * - a command's or function's name written as one word ("vacuumdb", "createuser", "getDocuments") holds
 *   the question's words it is made of, in a title or a heading, when every part is one of them (or a
 *   synonym: "db" for "database"): "log" never finds "login", whose other part is no word of the question.
 * The score is the weighted share of the question's terms, each counted by its best place, plus the
 * closeness, phrase and title bonuses.
 */
import { fieldNames, fields, type Field } from "./fields.js";
import type { Passage } from "./passages.js";
import type { QueryTerm } from "../query-terms.js";
import { plainWords } from "../words.js";

export interface RankedPassage extends Passage {
  score: number;
}

/** Where a term is found: each field's weight (fields.ts). */
const place = (field: Field): number => fields[field].weight;
/** A term also found in the body of a passage whose head holds it: the section is about it and says something. */
const bodyAlso = 0.15;
const synonymShare = 0.85;
/**
 * A name the corpus defines with the question's word (vocabulary/): a hint, below a curated synonym and a
 * stem, and low enough that the word itself in a body (0.35) outranks a learned name in a title (1 × 0.3).
 */
export const learnedShare = 0.3;
const stemShare = 0.7;
/** The most a passage gains for the question's words close together. */
const closenessShare = 0.3;
/** The most a passage gains for holding every pair of the question's adjacent words in order. */
const phraseShare = 0.5;
/** Words between two of the question's adjacent words for them to still be its phrase ("computed from other columns"). */
const phraseGap = 3;
/** The most a passage gains for a title made only of the question's words. */
const titleShare = 0.25;
/** A word of a name made of two of the question's words ("vacuumdb"): a little under the word itself. */
const compoundShare = 0.85;
/** Names are compounds in titles and headings (command and function names); body text is read word by word. */
const namedFields = new Set<Field>(["title", "heading"]);

export function rankPassages(passages: Passage[], terms: QueryTerm[]): RankedPassage[] {
  const total = terms.reduce((sum, term) => sum + term.weight, 0);
  if (!total) return passages.map((passage) => ({ ...passage, score: 0 }));
  const lookup = wordMatcherOf(terms);
  return passages
    .map((passage) => {
      const texts: Record<Field, string> = {
        title: passage.title,
        heading: passage.headingPath.join(" "),
        description: passage.description,
        body: passage.text,
      };
      const words = {} as Record<Field, string[]>;
      const positions = {} as Record<Field, Position[]>;
      const strengths = {} as Record<Field, number[]>;
      for (const field of fieldNames) {
        words[field] = plainWords(texts[field]).split(" ").filter(Boolean);
        positions[field] = [];
        strengths[field] = terms.map(() => 0);
        const named = namedFields.has(field);
        matchField(words[field], named ? lookup.withCompounds : lookup, named, strengths[field], positions[field]);
      }
      let held = 0;
      terms.forEach((term, index) => {
        const inBody = strengths.body[index]!;
        const head = Math.max(
          place("title") * strengths.title[index]!,
          place("heading") * strengths.heading[index]!,
          place("description") * strengths.description[index]!,
        );
        held += term.weight * (Math.max(head, place("body") * inBody) + (head > 0 ? bodyAlso * inBody : 0));
      });
      const score =
        held / total +
        closenessShare * closeness(positions.body, terms, total) +
        phraseShare * phrases(positions, terms) +
        titleShare * titled(words.title, positions.title, terms, total);
      return { ...passage, score };
    })
    .sort((a, b) => b.score - a.score || a.ordinal - b.ordinal);
}

interface Position {
  at: number;
  term: number;
}

/**
 * The weighted share of the question's adjacent pairs of content words (filler aside) that a field holds
 * in the question's order, at most `phraseGap` words apart, each pair counted in its best field.
 */
function phrases(positions: Record<Field, Position[]>, terms: QueryTerm[]): number {
  const content = terms.map((term, index) => ({ term, index })).filter(({ term }) => !term.filler);
  if (content.length < 2) return 0;
  let possible = 0;
  let held = 0;
  for (let at = 1; at < content.length; at++) {
    const first = content[at - 1]!.index;
    const second = content[at]!.index;
    const weight = terms[first]!.weight + terms[second]!.weight;
    possible += weight;
    let best = 0;
    for (const field of fieldNames) {
      if (place(field) <= best || !inOrder(positions[field], first, second)) continue;
      best = place(field);
    }
    held += weight * best;
  }
  return possible ? held / possible : 0;
}

function inOrder(positions: Position[], first: number, second: number): boolean {
  const starts = positions.filter((position) => position.term === first).map((position) => position.at);
  return positions.some(
    (position) => position.term === second && starts.some((at) => position.at > at && position.at - at <= phraseGap + 1),
  );
}

/**
 * How much the title is made of the question's words: the share of its words that are terms of the
 * question, times the question's weight those terms carry. A one-word title counts only when that word
 * is a content word of the question, and a title of words the question lacks counts nothing.
 */
function titled(title: string[], positions: Position[], terms: QueryTerm[], total: number): number {
  if (!title.length || !positions.length) return 0;
  const covered = new Set(positions.map((position) => position.at));
  const share = covered.size / title.length;
  const matched = new Set(positions.map((position) => position.term));
  const weight = [...matched].reduce((sum, index) => sum + (terms[index]!.filler ? 0 : terms[index]!.weight), 0);
  return share * share * (weight / total);
}

/**
 * What a word of a passage may stand for: the first word of a term or of one of its synonyms (`words`,
 * checked in sequence from there when it has several), or one of their forms (an inflection).
 */
interface WordMatch {
  term: number;
  /** 1 the word itself, `synonymShare` a synonym, `stemShare` a stem, `learnedShare` a learned name. */
  strength: number;
  /** A learned name: it counts only in a title or a heading, where it names something. */
  namedOnly?: boolean;
  words: string[] | null;
}

/**
 * A word's matches, each distinct word tested once per question (passages share most of their words):
 * the cost is one lookup per word of the passages, whatever the number of terms.
 */
type WordLookup = (word: string) => WordMatch[];

function wordMatcherOf(terms: QueryTerm[]): WordLookup & { withCompounds: WordLookup } {
  const byFirst = new Map<string, WordMatch[]>();
  const phrases: (WordMatch & { words: string[]; inflected: Set<string> })[] = [];
  const inflections = terms.map((term, index) => {
    const single = new Set<string>();
    for (const form of [
      { words: term.words.split(" "), forms: term.forms, strength: 1, namedOnly: false },
      ...term.synonyms.map((synonym) => ({
        words: synonym.words.split(" "),
        forms: synonym.forms,
        strength: synonym.learned ? learnedShare : synonymShare,
        namedOnly: synonym.learned === true,
      })),
    ]) {
      const match = { term: index, strength: form.strength, words: form.words.length > 1 ? form.words : null, namedOnly: form.namedOnly };
      byFirst.set(form.words[0]!, [...(byFirst.get(form.words[0]!) ?? []), match]);
      if (form.words.length > 1) phrases.push({ term: index, strength: form.strength, words: form.words, inflected: new Set(form.forms) });
      else for (const word of form.forms) single.add(word);
    }
    return single;
  });
  const known = new Map<string, WordMatch[]>();
  const lookup: WordLookup = (word) => {
    let matches = known.get(word);
    if (!matches) {
      matches = [...(byFirst.get(word) ?? [])];
      inflections.forEach((forms, term) => {
        if (forms.has(word)) matches!.push({ term, strength: stemShare, words: null });
      });
      // A phrase whose first word is inflected ("signing in", "logged in" for "sign in", "log in").
      for (const phrase of phrases) {
        const [first, ...rest] = phrase.words;
        if (word !== first && phrase.inflected.has(word))
          matches.push({ ...phrase, strength: phrase.strength * stemShare, words: [word, ...rest] });
      }
      known.set(word, matches);
    }
    return matches;
  };
  const compounds = new Map<string, WordMatch[]>();
  const withCompounds: WordLookup = (word) => {
    const matches = lookup(word);
    if (matches.length) return matches;
    let parts = compounds.get(word);
    if (!parts) compounds.set(word, (parts = compoundOf(word, byFirst)));
    return parts;
  };
  return Object.assign(lookup, { withCompounds });
}

/**
 * A word made of two single words of the question (or their synonyms), each of at least two letters and
 * each a different term: both terms at `compoundShare` of the strength they have on their own.
 */
function compoundOf(word: string, byFirst: Map<string, WordMatch[]>): WordMatch[] {
  if (word.length < 4) return [];
  const single = (part: string) => (byFirst.get(part) ?? []).filter((match) => !match.words);
  for (const [first, matches] of byFirst) {
    if (first.length < 2 || word.length - first.length < 2 || !word.startsWith(first)) continue;
    const right = single(word.slice(first.length));
    for (const left of matches.filter((match) => !match.words)) {
      const second = right.find((match) => match.term !== left.term);
      if (second) return [left, second].map((match) => ({ ...match, strength: match.strength * compoundShare }));
    }
  }
  return [];
}

/**
 * Each term's best strength in the field, and every place a term is found by its own words (learned names
 * count only where names are: `named`).
 */
function matchField(words: string[], lookup: WordLookup, named: boolean, strengths: number[], positions: Position[]): void {
  words.forEach((word, at) => {
    for (const match of lookup(word)) {
      if (match.namedOnly && !named) continue;
      if (match.words && !match.words.every((part, offset) => words[at + offset] === part)) continue;
      if (match.strength > strengths[match.term]!) strengths[match.term] = match.strength;
      // A learned name is a hint for its word, not the word: it earns no closeness, phrase or title bonus.
      if (!match.namedOnly) positions.push({ at, term: match.term });
    }
  });
}

/**
 * The weighted share of the question's terms found together within a short span of the text (at most
 * 4 words per term found plus 4), when at least two distinct terms are.
 */
function closeness(positions: Position[], terms: QueryTerm[], total: number): number {
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
