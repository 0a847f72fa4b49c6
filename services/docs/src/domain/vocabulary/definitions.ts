/**
 * The vocabulary a page teaches: which words stand for which, learned from how documentation defines its
 * names, never from anyone's questions. A reference page names a thing and says what it does in its first
 * sentence: "npm-pack — Create a tarball from a package", "`fs.rm(path[, options], callback)` —
 * Asynchronously removes files and directories". Each word of that sentence is paired with each word of
 * the name it defines (tarball → pack, removes → rm), so a question in the sentence's words can reach the
 * page that only names the thing.
 * - The page: its title defined by its description.
 * - A section whose heading is a name (code: `fs.rm()`, `--dry-run`, `json`): its heading defined by the
 *   first sentence of its text. Other headings ("Notes", "Creating buckets with Terraform") define
 *   nothing; their words are already the page's words.
 * Pairs are counted once per page; what is worth keeping is decided at query time, against the corpus
 * (query-terms.ts).
 */
import type { ChunkDraft } from "../markdown/sections.js";
import { firstParagraph } from "../markdown/describe.js";
import { wordsOf } from "../words.js";

export interface VocabularyPair {
  /** A word of the definition. */
  word: string;
  /** A word of the name it defines. */
  name: string;
}

/** The first words of a definition that are paired: its verb and object come first. */
const definitionWordsMax = 12;
const sentenceMax = 300;

export function vocabularyOf(title: string, description: string, chunks: ChunkDraft[]): VocabularyPair[] {
  const pairs = new Map<string, VocabularyPair>();
  const pair = (name: string, definition: string | undefined) => {
    if (!definition) return;
    const names = new Set(nameWords(name));
    const words = [...new Set(wordsOf(firstSentence(definition)))].filter((word) => !names.has(word)).slice(0, definitionWordsMax);
    for (const n of names) for (const word of words) pairs.set(`${word} ${n}`, { word, name: n });
  };
  pair(title, description);
  for (const chunk of chunks) {
    const heading = chunk.headingPath.at(-1);
    if (!heading || !isName(heading)) continue;
    pair(heading, firstParagraph(withoutComments(chunk.text), sentenceMax));
  }
  return [...pairs.values()];
}

/**
 * A heading that names a thing rather than says something: a call (`fs.rm()`), a dotted, hyphenated or
 * colon-joined identifier (`fs.rm`, `dry-run`, `Class: fs.Dir`), an option (`--json`), or one word written
 * as code is (`json`, `readFile`). "Notes", "See Also" or "Building Indexes Concurrently" name nothing.
 */
export function isName(heading: string): boolean {
  const text = heading.trim();
  return /\(|^-|\w[._:-]\w/.test(text) || /^[a-z][a-z0-9]*$|^[a-z]+[A-Z]\w*$/.test(text);
}

/** The words of a name; a call's signature names its function, not its parameters ("fs.rm(path, options)" → fs, rm). */
export function nameWords(name: string): string[] {
  const call = name.indexOf("(");
  return [...new Set(wordsOf(call > 0 ? name.slice(0, call) : name))];
}

/** Up to the first full stop followed by a space (or the end): "Asynchronously removes files. Returns…". */
function firstSentence(text: string): string {
  const end = /[.!?](\s|$)/.exec(text);
  return end ? text.slice(0, end.index) : text;
}

/** HTML comments hold metadata (Node.js's `<!-- YAML added: v14.14.0 -->`), not the section's first sentence. */
function withoutComments(text: string): string {
  return text.replace(/<!--[\s\S]*?-->/g, "");
}
