/**
 * The real corpora the answer-quality evaluation runs on, each ingested through ingestFolder into a
 * database of its own (word weights are the corpus's own; kept between runs: an unchanged page costs a
 * hash, a new index version re-indexes all).
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { gunzipSync } from "node:zlib";
import { applyMigrations } from "@bancada/service-kit";
import { createDocsDb, ingestFolder, migrationsDir, postgresSchema, type DocsDb } from "../src/index.js";
import {
  nodeQuestions,
  nodeUnanswerableQuestions,
  npmQuestions,
  postgresQuestions,
  unanswerableQuestions,
  type EvalQuestion,
} from "./questions.js";

export interface EvalCorpus {
  label: string;
  /** The database it lives in, beside DATABASE_URL's. */
  database: string;
  folder: string;
  baseUri: string;
  /** Only the files whose name ends so (a folder shipping one page in several formats). */
  extension?: string;
}

export const postgresManual: EvalCorpus = {
  label: "PostgreSQL 15 manual (HTML)",
  database: "docs_eval_postgres_manual",
  folder: "/usr/share/doc/postgresql-doc-15/html",
  baseUri: "https://www.postgresql.org/docs/15",
};

export const npmDocs: EvalCorpus = {
  label: "npm CLI docs (Markdown)",
  database: "docs_eval_npm_docs",
  folder: "/usr/lib/node_modules/npm/docs/content",
  baseUri: "https://docs.npmjs.com/cli",
};

/**
 * Node.js's API documentation: one Markdown page per module, as the nodejs package ships it (Debian's
 * nodejs-doc and NodeSource's nodejs both install it here); the folder also holds each page as HTML and
 * JSON, so only the Markdown is read. Debian's nodejs-doc gzips every page but the smallest (`fs.md.gz`,
 * `string_decoder.md`), so the Markdown is first copied out, unzipped, under the same file names.
 * Installing nodejs-doc where NodeSource's nodejs is installed removes nodejs (the two packages conflict):
 * on such a machine the pages are already there.
 */
export const nodeApiDocs: EvalCorpus = {
  label: "Node.js API docs (Markdown)",
  database: "docs_eval_node_api",
  folder: "/usr/share/doc/nodejs/api",
  baseUri: "https://nodejs.org/api",
  extension: ".md",
};

/** Each corpus with the questions it answers and those it cannot: what the evaluation runs. */
export const evalSuites: readonly { corpus: EvalCorpus; answerable: readonly EvalQuestion[]; unanswerable: readonly EvalQuestion[] }[] = [
  { corpus: postgresManual, answerable: postgresQuestions, unanswerable: unanswerableQuestions },
  { corpus: npmDocs, answerable: npmQuestions, unanswerable: [] },
  { corpus: nodeApiDocs, answerable: nodeQuestions, unanswerable: nodeUnanswerableQuestions },
];

/** How the corpus's pages are named once ingested, before the file name (an EvalQuestion's `pages`). */
export function pagePrefix(corpus: EvalCorpus): string {
  return `documents/${corpus.baseUri.replace(/^https?:\/\//, "")}/`;
}

const log = (line: string) => process.stderr.write(`${line}\n`);

/** The corpus's database beside DATABASE_URL's (created if missing, migrated). */
export async function openEvalDb(corpus: EvalCorpus): Promise<DocsDb> {
  const base = process.env.DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
  const url = base.replace(/\/[^/]*$/, `/${corpus.database}`);
  const admin = createDocsDb(base, 1);
  const [exists] = await admin.$queryRaw<{ n: number }[]>`SELECT count(*)::int AS n FROM pg_database WHERE datname = ${corpus.database}`;
  if (!exists?.n) await admin.$executeRawUnsafe(`CREATE DATABASE ${corpus.database}`);
  await admin.$disconnect();
  await applyMigrations({ connectionString: url, schema: postgresSchema, migrationsDir });
  return createDocsDb(url, 4);
}

export async function ingestEvalCorpus(db: DocsDb, corpus: EvalCorpus): Promise<boolean> {
  if (!existsSync(corpus.folder)) {
    log(`${corpus.label}: ${corpus.folder} is not on this machine, skipped`);
    return false;
  }
  const extension = corpus.extension;
  const folder = extension ? unzippedCopy(corpus.folder, extension) : corpus.folder;
  const files = extension ? readdirSync(folder).filter((file) => file.endsWith(extension)) : undefined;
  const report = await ingestFolder({ db, folder, baseUri: corpus.baseUri, files, prune: true });
  log(
    `${corpus.label}: ${report.files} files, ${report.created} new, ${report.updated} updated, ${report.unchanged} unchanged, ${report.skipped} skipped (${(report.durationMs / 1000).toFixed(1)} s)`,
  );
  return true;
}

/** The folder's `*{extension}` and `*{extension}.gz` files as plain `*{extension}` in a folder of their own. */
function unzippedCopy(folder: string, extension: string): string {
  const copy = path.join(tmpdir(), `docs-eval-${path.basename(path.dirname(folder))}-${path.basename(folder)}`);
  mkdirSync(copy, { recursive: true });
  for (const file of readdirSync(folder)) {
    const zipped = file.endsWith(`${extension}.gz`);
    if (!zipped && !file.endsWith(extension)) continue;
    const bytes = readFileSync(path.join(folder, file));
    writeFileSync(path.join(copy, zipped ? file.slice(0, -3) : file), zipped ? gunzipSync(bytes) : bytes);
  }
  return copy;
}
