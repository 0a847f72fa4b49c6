/**
 * Ingests a folder of Markdown/HTML files under a base URI, incrementally: a file whose source hash
 * equals the stored one costs reading and hashing it, nothing else (it is not even parsed), changed
 * files are written in batches
 * (one transaction each, the next batch prepared while the previous one is written), and with `prune`
 * the documents under the base URI whose file is gone are deleted. Documents outside the base URI are
 * never touched.
 */
import { stat } from "node:fs/promises";
import path from "node:path";
import type { DocsDb } from "../db/client.js";
import { deleteDocuments } from "../domain/delete-documents.js";
import { nameUri, namePrefixOf } from "../domain/names.js";
import { prepareDocument, sourceHashOf, type PreparedDocument } from "../domain/prepare-document.js";
import { writeDocuments } from "../domain/write-documents.js";
import { documentFiles, readSourceFile, uriOfFile } from "./source-files.js";

export interface IngestProgress {
  phase: "writing" | "pruning" | "done";
  files: number;
  processed: number;
  created: number;
  updated: number;
  unchanged: number;
  skipped: number;
  deleted: number;
}

export interface IngestReport extends Omit<IngestProgress, "phase"> {
  ignored: number;
  skippedFiles: { file: string; reason: string }[];
  durationMs: number;
}

export interface IngestFolderOptions {
  db: DocsDb;
  folder: string;
  baseUri: string;
  /** These files of the folder (relative or absolute) instead of every document file under it. */
  files?: readonly string[];
  prune?: boolean;
  batchSize?: number;
  onProgress?: (progress: IngestProgress) => void;
}

export class IngestError extends Error {}

export async function ingestFolder(options: IngestFolderOptions): Promise<IngestReport> {
  const started = performance.now();
  const folder = path.resolve(options.folder);
  if (!(await stat(folder).catch(() => undefined))?.isDirectory()) throw new IngestError(`${options.folder} is not a folder.`);
  const base = baseOf(options.baseUri);
  const { files, ignored } = options.files
    ? { files: options.files.map((file) => path.resolve(folder, file)).sort(), ignored: 0 }
    : await documentFiles(folder);
  const stored = await storedUnder(options.db, base);
  const report: IngestReport = {
    files: files.length,
    processed: 0,
    created: 0,
    updated: 0,
    unchanged: 0,
    skipped: 0,
    deleted: 0,
    ignored,
    skippedFiles: [],
    durationMs: 0,
  };
  const progress = (phase: IngestProgress["phase"]) => options.onProgress?.({ phase, ...counts(report) });
  const seen = new Map<string, string>();
  const skip = (file: string, reason: string) => {
    report.skipped++;
    report.skippedFiles.push({ file: path.relative(folder, file) || file, reason });
  };
  const writer = new BatchWriter(options.db, report, () => progress("writing"));
  for (const file of files) {
    const document = await prepareFile(options.baseUri, folder, file, { seen, stored, skip });
    report.processed++;
    if (document === "unchanged") report.unchanged++;
    else if (document) await writer.add(document, options.batchSize ?? 50);
    if (report.processed % 100 === 0) progress("writing");
  }
  await writer.finish();
  if (options.prune) {
    progress("pruning");
    const gone = [...stored.keys()].filter((name) => !seen.has(name));
    for (let i = 0; i < gone.length; i += 100) {
      const outcomes = await deleteDocuments(options.db, gone.slice(i, i + 100));
      report.deleted += outcomes.filter((outcome) => outcome.status === "deleted").length;
    }
  }
  report.durationMs = Math.round(performance.now() - started);
  progress("done");
  return report;
}

interface FileContext {
  seen: Map<string, string>;
  stored: Map<string, string>;
  skip: (file: string, reason: string) => void;
}

/** A document to write, "unchanged" (same source hash as stored: not even parsed), or undefined when skipped. */
async function prepareFile(
  baseUri: string,
  folder: string,
  file: string,
  context: FileContext,
): Promise<PreparedDocument | "unchanged" | undefined> {
  const { uri, name } = nameUri(uriOfFile(baseUri, folder, file));
  const first = context.seen.get(name);
  if (first) return void context.skip(file, `names the same document (${name}) as ${path.relative(folder, first)}`);
  context.seen.set(name, file);
  const read = await readSourceFile(file, uri);
  if (!read.ok) return void context.skip(file, read.reason);
  if (context.stored.get(name) === sourceHashOf(read.source, uri)) return "unchanged";
  try {
    return prepareDocument(read.source);
  } catch (error) {
    return void context.skip(file, (error as Error).message);
  }
}

/** Writes full batches while the next one is prepared: at most one write in flight, its failure surfacing at the next call. */
class BatchWriter {
  readonly #db: DocsDb;
  readonly #report: IngestReport;
  readonly #written: () => void;
  #batch: PreparedDocument[] = [];
  #writing: Promise<void> = Promise.resolve();

  constructor(db: DocsDb, report: IngestReport, written: () => void) {
    this.#db = db;
    this.#report = report;
    this.#written = written;
  }

  async add(document: PreparedDocument, batchSize: number): Promise<void> {
    this.#batch.push(document);
    if (this.#batch.length >= batchSize) await this.#flush();
  }

  async finish(): Promise<void> {
    await this.#flush();
    await this.#writing;
  }

  async #flush(): Promise<void> {
    const documents = this.#batch;
    this.#batch = [];
    await this.#writing;
    if (!documents.length) return;
    this.#writing = writeDocuments(this.#db, documents).then((outcomes) => {
      for (const outcome of outcomes) this.#report[outcome.status]++;
      this.#written();
    });
    // Awaited at the next flush; until then a failure must not count as an unhandled rejection.
    this.#writing.catch(() => undefined);
  }
}

function baseOf(baseUri: string): { name: string; prefix: string } {
  try {
    return { name: nameUri(baseUri, "baseUri").name, prefix: namePrefixOf(baseUri) };
  } catch {
    throw new IngestError(`--base-uri must be an absolute http(s) URI, e.g. https://docs.example.com/guide (got '${baseUri}').`);
  }
}

/** Names and hashes of the documents at or under the base URI. */
async function storedUnder(db: DocsDb, base: { name: string; prefix: string }): Promise<Map<string, string>> {
  const rows = await db.$queryRaw<{ name: string; content_hash: string }[]>`
    SELECT name, content_hash FROM documents WHERE name = ${base.name} OR starts_with(name, ${base.prefix})`;
  return new Map(rows.map((row) => [row.name, row.content_hash]));
}

function counts(report: IngestReport): Omit<IngestProgress, "phase"> {
  const { files, processed, created, updated, unchanged, skipped, deleted } = report;
  return { files, processed, created, updated, unchanged, skipped, deleted };
}
