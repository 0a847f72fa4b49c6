/**
 * A small corpus shipped with the service (services/docs/demo: how to use Bancada, in English and
 * Portuguese) so that a new installation can try search_documents, get_documents and answer_query at once.
 */
import path from "node:path";
import type { DocsDb } from "../db/client.js";
import { ingestFolder, type IngestReport } from "./ingest-folder.js";

export const demoFolder = path.join(import.meta.dirname, "../../demo");
export const demoBaseUri = "https://bancada.example/docs";

/** Ingests the demo corpus when no document exists yet; returns undefined (and writes nothing) otherwise. */
export async function loadDemoCorpusIfEmpty(db: DocsDb): Promise<IngestReport | undefined> {
  const [row] = await db.$queryRaw<{ found: boolean }[]>`SELECT EXISTS (SELECT 1 FROM documents) AS found`;
  if (row?.found) return undefined;
  return ingestFolder({ db, folder: demoFolder, baseUri: demoBaseUri });
}
