/**
 * The demo corpus of the embedded mode, so that a new installation can try search_documents,
 * get_documents and answer_query at once, on questions about Bancada itself:
 * - Bancada's own documentation (README.md, ARCHITECTURE.md, docs/*.md, infra/README.md: how to deploy), read from the repository this
 *   package sits in at ingest time — never a copy, so it says what the code beside it does. It is
 *   refreshed at every start that asks for the demo (unchanged files cost a hash), pages whose file is gone
 *   are pruned, as long as the corpus holds nothing but the demo.
 * - services/docs/demo: short how-to pages in English and Portuguese, loaded once into an empty corpus.
 */
import { readdir, stat } from "node:fs/promises";
import path from "node:path";
import type { DocsDb } from "../db/client.js";
import { namePrefixOf } from "../domain/names.js";
import { ingestFolder, type IngestReport } from "./ingest-folder.js";

export const demoFolder = path.join(import.meta.dirname, "../../demo");
export const demoBaseUri = "https://bancada.example/docs";
/** The repository's root: services/docs/src/ingest is four folders down. */
const repositoryRoot = path.join(import.meta.dirname, "../../../..");
export const repositoryBaseUri = "https://bancada.example/repository";
/** Every page of the demo is under this host: a corpus holding a page elsewhere is someone's own. */
const demoHostUri = "https://bancada.example";

const repositoryPages = ["README.md", "ARCHITECTURE.md", "infra/README.md"];

/** The repository's documentation files that exist, relative to its root. */
async function repositoryDocFiles(root = repositoryRoot): Promise<string[]> {
  const docs = await readdir(path.join(root, "docs")).catch(() => [] as string[]);
  const pages = await Promise.all(repositoryPages.map(async (file) => ((await isFile(path.join(root, file))) ? [file] : [])));
  return [...pages.flat(), ...docs.filter((file) => file.endsWith(".md")).map((file) => `docs/${file}`)];
}

async function isFile(file: string): Promise<boolean> {
  return (await stat(file).catch(() => undefined))?.isFile() ?? false;
}

/**
 * Into an empty corpus: both parts. Into a corpus of the demo's pages only (loaded by this or an older
 * version): the repository's pages brought up to date. A corpus holding anyone's own documents is never
 * touched: returns undefined.
 */
export async function loadDemoCorpus(db: DocsDb): Promise<IngestReport | undefined> {
  const demoHost = namePrefixOf(demoHostUri);
  const [row] = await db.$queryRaw<{ found: boolean; foreign: boolean }[]>`
    SELECT EXISTS (SELECT 1 FROM documents) AS found,
           EXISTS (SELECT 1 FROM documents WHERE NOT starts_with(name, ${demoHost})) AS foreign`;
  if (row?.foreign) return undefined;
  const files = await repositoryDocFiles();
  const repository = files.length
    ? await ingestFolder({ db, folder: repositoryRoot, files, baseUri: repositoryBaseUri, prune: true })
    : undefined;
  if (row?.found) return repository;
  const demo = await ingestFolder({ db, folder: demoFolder, baseUri: demoBaseUri });
  return repository ? sum(demo, repository) : demo;
}

function sum(a: IngestReport, b: IngestReport): IngestReport {
  return {
    files: a.files + b.files,
    processed: a.processed + b.processed,
    created: a.created + b.created,
    updated: a.updated + b.updated,
    unchanged: a.unchanged + b.unchanged,
    skipped: a.skipped + b.skipped,
    deleted: a.deleted + b.deleted,
    ignored: a.ignored + b.ignored,
    skippedFiles: [...a.skippedFiles, ...b.skippedFiles],
    durationMs: a.durationMs + b.durationMs,
  };
}
