/**
 * `bancada docs …`: the docs service's command line, called by the cli package.
 *   docs ingest <folder> --base-uri <uri> [--prune]   ingest Markdown/HTML files incrementally
 *   docs demo                                         load the demo corpus into an empty corpus (or refresh its pages of the repository's docs)
 */
import { parseArgs } from "node:util";
import { applyMigrations } from "@bancada/service-kit";
import { createDocsDb, postgresSchema } from "../db/client.js";
import { migrationsDir } from "../migrations-dir.js";
import { loadDemoCorpus } from "./demo-corpus.js";
import { IngestError, ingestFolder, type IngestProgress, type IngestReport } from "./ingest-folder.js";
import { documentExtensions } from "./source-files.js";

export const docsUsage = `Usage:
  bancada docs ingest <folder> --base-uri <uri> [--prune]   add or update the Markdown/HTML files of <folder>; --prune deletes pages whose file is gone
  bancada docs demo                                          load the demo corpus (Bancada's own docs) into an empty documentation corpus, or refresh it`;

export interface DocsCommandDeps {
  databaseUrl: string;
  print: (line: string) => void;
}

/** Returns the process exit code: 0 done, 1 failed, 2 wrong usage. */
export async function runDocsCommand(argv: string[], deps: DocsCommandDeps): Promise<number> {
  const [command, ...rest] = argv;
  if (command !== "ingest" && command !== "demo") {
    deps.print(docsUsage);
    return command === undefined || command === "help" || command === "--help" ? 0 : 2;
  }
  let args: ReturnType<typeof parseIngestArgs>;
  try {
    args = command === "ingest" ? parseIngestArgs(rest) : undefined;
  } catch (error) {
    deps.print(`${(error as Error).message}\n\n${docsUsage}`);
    return 2;
  }
  await applyMigrations({ connectionString: deps.databaseUrl, schema: postgresSchema, migrationsDir });
  const db = createDocsDb(deps.databaseUrl, 4);
  try {
    if (!args) {
      const loaded = await loadDemoCorpus(db);
      deps.print(
        loaded
          ? `Demo corpus: ${loaded.created} documents added, ${loaded.updated} updated, ${loaded.deleted} deleted.`
          : "The corpus holds other documents: the demo corpus was not loaded.",
      );
      return 0;
    }
    const report = await ingestFolder({ db, ...args, onProgress: throttled(deps.print) });
    printReport(report, args.folder, deps.print);
    return 0;
  } catch (error) {
    if (error instanceof IngestError) {
      deps.print(error.message);
      return 1;
    }
    throw error;
  } finally {
    await db.$disconnect();
  }
}

function parseIngestArgs(argv: string[]): { folder: string; baseUri: string; prune: boolean } | undefined {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: { "base-uri": { type: "string" }, prune: { type: "boolean", default: false } },
  });
  if (positionals.length !== 1 || !positionals[0]) throw new Error("Name exactly one folder to ingest.");
  if (!values["base-uri"])
    throw new Error("--base-uri is required: the URI the folder is published under, e.g. https://docs.example.com/guide");
  return { folder: positionals[0], baseUri: values["base-uri"], prune: values.prune };
}

/** A progress line at most once a second (and when a phase starts), so long ingests show they are alive. */
function throttled(print: (line: string) => void): (progress: IngestProgress) => void {
  let last = 0;
  let phase = "";
  return (progress) => {
    const now = Date.now();
    if (progress.phase === "done" || (progress.phase === phase && now - last < 1_000)) return;
    last = now;
    phase = progress.phase;
    print(
      progress.phase === "pruning"
        ? "pruning: deleting documents whose file is gone…"
        : `ingest: ${progress.processed} of ${progress.files} files read (${progress.files ? Math.floor((progress.processed / progress.files) * 100) : 100}%): ${tally(progress)}`,
    );
  };
}

/** The counts of a run, in the same words while it runs and at its end. */
function tally(counts: Omit<IngestProgress, "phase" | "files" | "processed">, deleted = false): string {
  const parts = [`${counts.created} new`, `${counts.updated} updated`, `${counts.unchanged} unchanged`, `${counts.skipped} skipped`];
  return (deleted ? [...parts, `${counts.deleted} deleted`] : parts).join(", ");
}

function printReport(report: IngestReport, folder: string, print: (line: string) => void): void {
  const seconds = report.durationMs / 1000;
  const written = report.created + report.updated;
  if (report.files === 0) print(noFilesReason(report, folder));
  print(
    `Done in ${seconds.toFixed(1)} s: ${report.processed} of ${report.files} files read: ${tally(report, true)}` +
      `${written ? ` (${Math.round(written / Math.max(seconds, 0.001))} documents/s written)` : ""}.`,
  );
  for (const skipped of report.skippedFiles) print(`  skipped ${skipped.file}: ${skipped.reason}`);
}

/** Why a folder gave no file to ingest: empty, or only files of other kinds. */
function noFilesReason(report: IngestReport, folder: string): string {
  const accepted = documentExtensions.join(" ");
  const why = report.ignored
    ? `its ${report.ignored} file${report.ignored === 1 ? " is" : "s are"} of other kinds`
    : "it holds no files (hidden folders and node_modules are not searched)";
  return `No Markdown or HTML file in ${folder}: ${why}. Files ending in ${accepted} are ingested.`;
}
