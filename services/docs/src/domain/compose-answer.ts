/**
 * Builds an extractive answer from ranked passages: the sentences that carry most of the question's
 * weight, quoted as written, one paragraph per cited page ending with its [n] (the 1-based number of
 * the page in `references`). Nothing is paraphrased, so every statement is traceable to its source.
 * - No sentence is said twice: a sentence (nearly) equal to one already quoted, from the same page or
 *   another (documentation repeats itself across pages), is left out, and so is a sentence whose code
 *   block repeats a line of code already quoted (`pg_dump -Fc mydb > db.dump` shown by two pages); a page
 *   left with nothing new is not cited.
 * - A page's sentences keep the page's order; the page that answers best comes first.
 * - Notes and admonitions ("Note: …", "Warning: …") are quoted only when nothing else in the page matches.
 * - A sentence that introduces a code block ("To create a key with every scope:") is quoted with the block,
 *   as written (placeholders in angle brackets included): without it the sentence says nothing.
 * - A reference points at the section quoted first (`uri#anchor`) when the page names its sections.
 */
import { readLines } from "./markdown/lines.js";
import { clip, inlineToPlain } from "./markdown/inline.js";
import type { QueryTerm } from "./query-terms.js";
import type { RankedPassage } from "./ranking/rank-passages.js";
import type { Reference } from "./schemas.js";
import { plainWords } from "./words.js";

const sentencesPerPage = 2;
const sentenceMax = 320;
const excerptMax = 600;
/** A longer code block is cut at a line end (and marked "…"): an answer quotes a command, not a listing. */
const codeMax = 1_500;
/** Two sentences sharing this share of their words say the same thing. */
const sameSentence = 0.8;

export interface Prose {
  text: string;
  /** Inside a note, tip or warning. */
  note: boolean;
  /** The fenced code block the sentence introduces (it ends with ":" and the block follows it). */
  code?: string;
}

export function composeAnswer(pages: RankedPassage[][], terms: QueryTerm[]): { answer: string; references: Reference[] } {
  const references: Reference[] = [];
  const paragraphs: string[] = [];
  const said: Said = { words: [], code: new Set() };
  for (const passages of pages) {
    const chosen = pageSentences(passages, terms, said);
    if (!chosen.length) continue;
    const first = passages.find((passage) => passage.id === chosen[0]!.passage) ?? passages[0]!;
    references.push({
      name: first.name,
      uri: sectionUri(first),
      title: first.title,
      excerpt: clip(chosen.map((sentence) => sentence.text).join(" … "), excerptMax),
    });
    paragraphs.push(paragraphOf(chosen, references.length));
  }
  return { answer: paragraphs.join("\n\n"), references };
}

/** A page's sentences with the code blocks they introduce, ending with its reference: "… [2]". */
function paragraphOf(sentences: Candidate[], reference: number): string {
  let text = "";
  for (const sentence of sentences) {
    text += text && !text.endsWith("\n") ? ` ${sentence.text}` : sentence.text;
    if (sentence.code) text += `\n\n${clipCode(sentence.code)}\n\n`;
  }
  return text.endsWith("\n") ? `${text}[${reference}]` : `${text} [${reference}]`;
}

function clipCode(code: string): string {
  if (code.length <= codeMax) return code;
  const lines = code.split("\n");
  const fence = /^\s*(`{3,}|~{3,})/.exec(lines[0] ?? "")?.[1] ?? "```";
  const kept: string[] = [];
  for (const line of lines.slice(0, -1)) {
    if (kept.join("\n").length + line.length > codeMax) break;
    kept.push(line);
  }
  return [...kept, "…", fence].join("\n");
}

/** The page's URI at the quoted section; the bare URI for the page's opening section (its title heading). */
function sectionUri(passage: RankedPassage): string {
  const opening = passage.headingPath.length <= 1 && plainWords(passage.headingPath[0] ?? passage.title) === plainWords(passage.title);
  return passage.anchor && !opening ? `${passage.uri}#${passage.anchor}` : passage.uri;
}

interface Candidate {
  text: string;
  passage: string;
  order: number;
  weight: number;
  note: boolean;
  code?: string | undefined;
  words: Set<string>;
}

/** What the answer already quotes: each sentence's words, and the lines of its code blocks. */
interface Said {
  words: Set<string>[];
  code: Set<string>;
}

/** The lines of a code block that say something (fences and short lines such as "}" aside). */
function codeLines(code: string | undefined): string[] {
  if (!code) return [];
  return code
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => line.length >= 12 && !/^(`{3,}|~{3,})/.test(line));
}

/** The page's best sentences not yet said, in the page's order. */
function pageSentences(passages: RankedPassage[], terms: QueryTerm[], said: Said): Candidate[] {
  const candidates: Candidate[] = [];
  for (const passage of passages) {
    proseOf(passage.text).forEach((sentence, index) => {
      const text = clip(sentence.text, sentenceMax);
      candidates.push({
        text,
        passage: passage.id,
        order: passage.ordinal * 10_000 + index,
        weight: weightOf(sentence.text, terms),
        note: sentence.note,
        code: sentence.code,
        words: new Set(plainWords(sentence.text).split(" ").filter(Boolean)),
      });
    });
  }
  const repeatsCode = (candidate: Candidate, quoted: Set<string>) => codeLines(candidate.code).some((line) => quoted.has(line));
  const fresh = candidates.filter(
    (candidate) =>
      candidate.words.size && !said.words.some((words) => similar(words, candidate.words)) && !repeatsCode(candidate, said.code),
  );
  const useful = fresh.filter((candidate) => candidate.weight > 0);
  const plain = useful.filter((candidate) => !candidate.note);
  const pool = plain.length ? plain : useful;
  // A passage chosen for its title or headings alone still leads with its first sentence that is new.
  const ranked = pool.length
    ? [...pool].sort((a, b) => b.weight - a.weight || a.order - b.order)
    : fresh.filter((candidate) => !candidate.note).slice(0, 1);
  const chosen: Candidate[] = [];
  for (const candidate of ranked) {
    if (chosen.some((other) => similar(other.words, candidate.words)) || repeatsCode(candidate, said.code)) continue;
    chosen.push(candidate);
    for (const line of codeLines(candidate.code)) said.code.add(line);
    if (chosen.length === sentencesPerPage) break;
  }
  for (const candidate of chosen) said.words.push(candidate.words);
  return chosen.sort((a, b) => a.order - b.order);
}

function similar(a: Set<string>, b: Set<string>): boolean {
  let shared = 0;
  for (const word of a) if (b.has(word)) shared++;
  return shared / Math.min(a.size, b.size) >= sameSentence;
}

/** The passage's prose as sentences: tables left out, list items one sentence each, code blocks only with the sentence introducing them. */
export function sentencesOf(markdown: string): string[] {
  return proseOf(markdown).map((sentence) => sentence.text);
}

const labels = "note|tip|warning|caution|important|nota|aviso|atenção|atencao|dica";
/** "**Note:**", "**Note**:", "**Note**" or "Note:" opening a line. */
const noteLabel = new RegExp(`^(?:(?:\\*\\*|__)(?:${labels}):?(?:\\*\\*|__):?|(?:${labels}):)\\s*`, "i");

/** Sentences with whether they stand in a note: a quoted block or a paragraph opening with "Note:", "Warning:" … */
export function proseOf(markdown: string): Prose[] {
  const blocks: Prose[] = [];
  let paragraph: string[] = [];
  let note = false;
  let quotedNote = false;
  // The paragraph just ended, while it may still be followed by the code block it introduces.
  let introducing: Prose | undefined;
  const flush = () => {
    if (paragraph.length) {
      const block = { text: paragraph.join(" "), note };
      blocks.push(block);
      introducing = /:\s*$/.test(block.text) ? block : undefined;
    }
    paragraph = [];
    note = false;
  };
  for (const line of readLines(markdown)) {
    if (line.kind === "code") {
      flush();
      if (introducing) introducing.code = introducing.code === undefined ? line.raw : `${introducing.code}\n${line.raw}`;
      continue;
    }
    // Only blank lines may stand between a sentence and its block, and one block is all it introduces.
    if (line.kind !== "blank" || introducing?.code !== undefined) introducing = undefined;
    if (line.kind !== "text" || /^\s*\|/.test(line.raw)) {
      flush();
      if (line.kind !== "blank") introducing = undefined;
      quotedNote = false;
      continue;
    }
    const quoted = /^\s*>/.test(line.raw);
    if (!quoted) quotedNote = false;
    let raw = line.raw.replace(/^\s*>\s?/, "").trim();
    const labelled = noteLabel.test(raw);
    if (labelled) {
      flush();
      raw = raw.replace(noteLabel, "");
      if (quoted) quotedNote = true;
    }
    const item = /^(?:[-*+]|\d+[.)])\s+(.*)$/.exec(raw);
    if (item) {
      flush();
      note = quotedNote;
      paragraph.push(item[1] ?? "");
      continue;
    }
    if (!raw) {
      if (!labelled) flush();
      continue;
    }
    if (!paragraph.length) note = quotedNote || labelled;
    paragraph.push(raw);
  }
  flush();
  return blocks
    .flatMap((block) => {
      const sentences = inlineToPlain(block.text, true).split(/(?<=[.!?])\s+(?=[\p{Lu}\p{N}"'`(])/u);
      return sentences.map((text, index): Prose => {
        const code = index === sentences.length - 1 ? block.code : undefined;
        return code === undefined ? { text: text.trim(), note: block.note } : { text: text.trim(), note: block.note, code };
      });
    })
    .filter((sentence) => sentence.text.length >= 3);
}

/** The question's weight found in a sentence: a term by its words in sequence, a synonym, or one of its forms (an inflection). */
function weightOf(sentence: string, terms: QueryTerm[]): number {
  const line = ` ${plainWords(sentence)} `;
  let weight = 0;
  for (const term of terms) {
    if (line.includes(` ${term.words} `)) weight += term.weight;
    else if (term.synonyms.some((synonym) => line.includes(` ${synonym.words} `))) weight += term.weight * 0.85;
    else if (term.forms.some((form) => line.includes(` ${form} `))) weight += term.weight * 0.7;
  }
  return weight;
}
