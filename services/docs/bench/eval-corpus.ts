/**
 * The real corpora the answer-quality evaluation runs on, each ingested through ingestFolder into a
 * database of its own (word weights are the corpus's own; kept between runs: an unchanged page costs a
 * hash, a new index version re-indexes all).
 */
import { existsSync, readdirSync } from "node:fs";
import { applyMigrations } from "@bancada/service-kit";
import { createDocsDb, ingestFolder, migrationsDir, postgresSchema, type DocsDb } from "../src/index.js";

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
 * JSON, so only the Markdown is read.
 */
export const nodeApiDocs: EvalCorpus = {
  label: "Node.js API docs (Markdown)",
  database: "docs_eval_node_api",
  folder: "/usr/share/doc/nodejs/api",
  baseUri: "https://nodejs.org/api",
  extension: ".md",
};

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
  const files = extension ? readdirSync(corpus.folder).filter((file) => file.endsWith(extension)) : undefined;
  const report = await ingestFolder({ db, folder: corpus.folder, baseUri: corpus.baseUri, files, prune: true });
  log(
    `${corpus.label}: ${report.files} files, ${report.created} new, ${report.updated} updated, ${report.unchanged} unchanged, ${report.skipped} skipped (${(report.durationMs / 1000).toFixed(1)} s)`,
  );
  return true;
}
