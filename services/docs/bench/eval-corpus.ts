/**
 * The real corpora the answer-quality evaluation runs on, ingested through ingestFolder into a database
 * of their own (kept between runs: an unchanged page costs a hash, a new index version re-indexes all).
 */
import { existsSync } from "node:fs";
import { applyMigrations } from "@bancada/service-kit";
import { createDocsDb, ingestFolder, migrationsDir, postgresSchema, type DocsDb } from "../src/index.js";

export interface EvalCorpus {
  label: string;
  folder: string;
  baseUri: string;
}

export const postgresManual: EvalCorpus = {
  label: "PostgreSQL 15 manual (HTML)",
  folder: "/usr/share/doc/postgresql-doc-15/html",
  baseUri: "https://www.postgresql.org/docs/15",
};

export const npmDocs: EvalCorpus = {
  label: "npm CLI docs (Markdown)",
  folder: "/usr/lib/node_modules/npm/docs/content",
  baseUri: "https://docs.npmjs.com/cli",
};

const log = (line: string) => process.stderr.write(`${line}\n`);

/** A database URL for the evaluation: EVAL_DATABASE_URL, else database docs_answers_eval beside DATABASE_URL (created if missing). */
export async function openEvalDb(): Promise<{ db: DocsDb; url: string }> {
  const base = process.env.DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
  const url = process.env.EVAL_DATABASE_URL ?? base.replace(/\/[^/]*$/, "/docs_answers_eval");
  const admin = createDocsDb(base, 1);
  const [exists] = await admin.$queryRaw<{ n: number }[]>`SELECT count(*)::int AS n FROM pg_database WHERE datname = 'docs_answers_eval'`;
  if (!process.env.EVAL_DATABASE_URL && !exists?.n) await admin.$executeRawUnsafe("CREATE DATABASE docs_answers_eval");
  await admin.$disconnect();
  await applyMigrations({ connectionString: url, schema: postgresSchema, migrationsDir });
  return { db: createDocsDb(url, 4), url };
}

export async function ingestEvalCorpus(db: DocsDb, corpus: EvalCorpus): Promise<boolean> {
  if (!existsSync(corpus.folder)) {
    log(`${corpus.label}: ${corpus.folder} is not on this machine, skipped`);
    return false;
  }
  const report = await ingestFolder({ db, folder: corpus.folder, baseUri: corpus.baseUri, prune: true });
  log(
    `${corpus.label}: ${report.files} files, ${report.created} new, ${report.updated} updated, ${report.unchanged} unchanged, ${report.skipped} skipped (${(report.durationMs / 1000).toFixed(1)} s)`,
  );
  return true;
}
