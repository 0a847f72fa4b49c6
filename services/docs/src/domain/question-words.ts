/**
 * The curated words of data/question-words.json: filler that phrases a question ("way", "want",
 * "preciso") and groups of synonyms documentation uses ("sign in" ~ "login", "remove" ~ "uninstall").
 * Data, not code: a group is added by editing the file.
 */
import { readFileSync } from "node:fs";
import { fold, plainWords } from "./words.js";

interface QuestionWords {
  filler: string[];
  synonyms: string[][];
}

const data = JSON.parse(readFileSync(new URL("./data/question-words.json", import.meta.url), "utf8")) as QuestionWords;

const filler = new Set(data.filler.map((word) => plainWords(word)));
/** Each member (its plain words) → its group's members. */
const groups = new Map<string, string[]>();
for (const group of data.synonyms) for (const member of group) groups.set(plainWords(member), group);

export function isFiller(words: string): boolean {
  return filler.has(words);
}

/**
 * The other members of a term's synonym group: what a page may say instead of the question's word. A
 * phrase ("sign in") is found on a page as its words in sequence, and by the index as its hyphenated
 * spelling ("sign-in"): its words apart would be other words ("sign" alone is a signature).
 */
export function synonymsOf(words: string): string[] {
  const group = groups.get(words);
  if (!group) return [];
  return [...new Set(group.map((member) => plainWords(member)).filter((member) => member && member !== words))];
}

const phrases = [...groups.keys()].filter((member) => member.includes(" ")).sort((a, b) => b.length - a.length);

/**
 * The question with each known phrase of several words ("sign in", "lock file") replaced by its group's
 * first one-word member ("login"), so it is read as one term: "log" alone would find pages about logging.
 */
export function joinPhrases(question: string): string {
  let out = question.normalize("NFC");
  for (const phrase of phrases) {
    const words = phrase.split(" ").map((word) => word.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"));
    const pattern = new RegExp(`(?<![\\p{L}\\p{N}])${words.join("[\\s\\-_]+")}(?![\\p{L}\\p{N}])`, "gu");
    const head = groups
      .get(phrase)!
      .map((member) => plainWords(member))
      .find((member) => member && !member.includes(" "));
    if (!head) continue;
    let match: RegExpExecArray | null;
    // Matched on the folded text (same length, one character each) so "Sign In" and "sign in" both count.
    const foldedOut = [...out].map((char) => fold(char)).join("");
    if (foldedOut.length !== out.length) return out;
    let rebuilt = "";
    let at = 0;
    pattern.lastIndex = 0;
    while ((match = pattern.exec(foldedOut))) {
      rebuilt += `${out.slice(at, match.index)}${head}`;
      at = match.index + match[0].length;
    }
    out = rebuilt + out.slice(at);
  }
  return out;
}
