/**
 * What anchor text could teach on the evaluation corpora, measured before building it: every link of a page
 * to another page of the same corpus (`[text](target)`, and `[text][]` with its `[text]: target` definition),
 * with the words of the sentence holding it, gathered per target page. For each answerable question it
 * reports the question's words the sentences linking to an answering page hold and the page itself lacks
 * (what anchor text adds that the page's own words cannot), and how well the anchor words alone rank the
 * pages (BM25 over each page's anchor words): top 3 overall, and the answering page's rank for the
 * questions answer_query misses today. Run (after answers.ts ingested the corpora):
 *   npx tsx services/docs/bench/anchor-text.ts
 */
import { answerQuery } from "../src/domain/answer-query.js";
import type { DocsDb } from "../src/index.js";
import { wordsOf } from "../src/domain/words.js";
import { evalSuites, openEvalDb, pagePrefix } from "./eval-corpus.js";
import type { EvalQuestion } from "./questions.js";

const inline = /\[([^\]]+)\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g;
const reference = /\[([^\]]+)\]\[([^\]]*)\]/g;
const definition = /^\[([^\]]+)\]:\s*(\S+)/gm;
/** Question words no ranking counts (the evaluation's own reading drops these as stop words or filler). */
const common = new Set(
  "how do does the to of in and or is are be can my me it its that this with for on by from what which when why as at into out up off all any some one use get set make new".split(
    " ",
  ),
);

for (const { corpus, answerable: questions } of evalSuites) {
  const db = await openEvalDb(corpus);
  try {
    const prefix = pagePrefix(corpus);
    const pages = await db.$queryRaw<{ name: string; content: string }[]>`SELECT name, title || E'\n' || content AS content FROM documents`;
    const anchors = anchorWords(pages, prefix);
    const links = [...anchors.values()].reduce((sum, words) => sum + words.links, 0);
    console.log(`\n## ${corpus.label}: ${links} links to another page, ${anchors.size} of ${pages.length} pages linked to`);
    const own = new Map(pages.map((page) => [page.name, new Set(wordsOf(page.content))]));
    let added = 0;
    let top3 = 0;
    for (const question of questions) {
      const words = wordsOf(question.question).filter((word) => !common.has(word));
      const expected = question.pages.map((page) => prefix + page);
      const gained = expected.flatMap((name) => words.filter((word) => anchors.get(name)?.counts.has(word) && !own.get(name)?.has(word)));
      if (gained.length) {
        added++;
        console.log(`  adds ${[...new Set(gained)].join(", ")}: ${question.question}`);
      }
      const ranked = bm25(anchors, words, pages.length);
      const at = ranked.findIndex((name) => expected.includes(name));
      if (at >= 0 && at < 3) top3++;
      if (!(await answered(db, question, prefix)))
        console.log(`  missed today, answering page ${at < 0 ? "absent" : `#${at + 1}`} by anchor words alone: ${question.question}`);
    }
    console.log(`  questions whose anchor words add a word the answering page lacks: ${added}/${questions.length}`);
    console.log(`  anchor words alone, an answering page in the top 3: ${top3}/${questions.length}`);
  } finally {
    await db.$disconnect();
  }
}

interface Anchors {
  counts: Map<string, number>;
  length: number;
  links: number;
}

/** Per linked page, the words of the sentences linking to it from another page (the link's target left out). */
function anchorWords(pages: { name: string; content: string }[], prefix: string): Map<string, Anchors> {
  const names = new Set(pages.map((page) => page.name));
  const byTail = new Map<string, string>();
  for (const name of names) {
    const parts = name.slice(prefix.length).split("/");
    byTail.set(parts.at(-1)!, name);
    if (parts.length > 1) byTail.set(parts.slice(-2).join("/"), name);
  }
  const target = (url: string): string | undefined => {
    if (/^[a-z]+:/i.test(url)) return undefined;
    const path = url
      .split("#")[0]!
      .replace(/\.(html?|md)$/, "")
      .replace(/^\/+|\/+$/g, "");
    return path ? (byTail.get(path) ?? byTail.get(path.split("/").slice(-2).join("/")) ?? byTail.get(path.split("/").at(-1)!)) : undefined;
  };
  const anchors = new Map<string, Anchors>();
  for (const page of pages) {
    const defined = new Map([...page.content.matchAll(definition)].map((match) => [match[1]!.toLowerCase(), match[2]!]));
    for (const sentence of page.content.split(/\n\s*\n|(?<=[.!?])\s+/)) {
      const targets = [
        ...[...sentence.matchAll(inline)].map((match) => match[2]!),
        ...[...sentence.matchAll(reference)].map((match) => defined.get((match[2] || match[1])!.toLowerCase()) ?? ""),
      ]
        .map(target)
        .filter((name): name is string => !!name && name !== page.name);
      const words = wordsOf(sentence.replace(/\]\([^)]*\)|\]\[[^\]]*\]/g, "]"));
      for (const name of new Set(targets)) {
        const entry = anchors.get(name) ?? { counts: new Map<string, number>(), length: 0, links: 0 };
        for (const word of words) entry.counts.set(word, (entry.counts.get(word) ?? 0) + 1);
        entry.length += words.length;
        entry.links++;
        anchors.set(name, entry);
      }
    }
  }
  return anchors;
}

/** Pages ranked by BM25 (k1 1.2, b 0.75) of their anchor words alone. */
function bm25(anchors: Map<string, Anchors>, words: string[], corpus: number): string[] {
  const average = [...anchors.values()].reduce((sum, entry) => sum + entry.length, 0) / Math.max(1, anchors.size);
  const frequency = (word: string) => [...anchors.values()].filter((entry) => entry.counts.has(word)).length;
  const idf = new Map(words.map((word) => [word, Math.log(1 + (corpus - frequency(word) + 0.5) / (frequency(word) + 0.5))]));
  return [...anchors]
    .map(([name, entry]) => {
      let score = 0;
      for (const word of words) {
        const count = entry.counts.get(word) ?? 0;
        if (count) score += (idf.get(word)! * count * 2.2) / (count + 1.2 * (0.25 + (0.75 * entry.length) / average));
      }
      return { name, score };
    })
    .filter((page) => page.score > 0)
    .sort((a, b) => b.score - a.score)
    .map((page) => page.name);
}

async function answered(db: DocsDb, question: EvalQuestion, prefix: string): Promise<boolean> {
  const { references } = await answerQuery(db, { query: question.question });
  return references.slice(0, 3).some((reference) => question.pages.includes(reference.name.slice(prefix.length)));
}
