/** A stack whose corpus is the fixture corpus, ingested through the service's own ingestFolder. */
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { connectClient } from "@bancada/testkit";
import { ingestFolder, type IngestReport } from "../src/index.js";
import { fixtureBaseUri, fixtureCorpus, writeCorpus, type FixturePage } from "./fixtures/corpus.js";
import { readerKey, startDocsStack, tempFolder, type DocsStack } from "./stack.js";

export interface CorpusStack extends DocsStack {
  client: Client;
  pages: FixturePage[];
  ingest: IngestReport;
  /** The document name of a fixture file, e.g. "storage/creating.md" → documents/docs.nimbus.example/docs/storage/creating. */
  nameOf(file: string): string;
  stop(): Promise<void>;
}

/** `count` or `only` limit the corpus (its first pages, or those whose file matches), for files that do not need all of it. */
export async function startCorpusStack(options: { count?: number; only?: RegExp } = {}): Promise<CorpusStack> {
  const docs = await startDocsStack();
  const folder = await tempFolder();
  const pages = fixtureCorpus()
    .filter((page) => !options.only || options.only.test(page.file))
    .slice(0, options.count);
  await writeCorpus(folder.path, pages);
  const ingest = await ingestFolder({ db: docs.service().db, folder: folder.path, baseUri: fixtureBaseUri });
  await folder.remove();
  const client = await connectClient(docs.stack.mcpUrl, await readerKey(docs.stack));
  return {
    ...docs,
    client,
    pages,
    ingest,
    nameOf: (file) => `documents/${fixtureBaseUri.replace(/^https:\/\//, "")}/${file.replace(/\.md$/, "")}`,
    async stop() {
      await client.close();
      await docs.stack.stop();
    },
  };
}
