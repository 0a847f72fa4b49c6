/** The docs service: its tools on the bus, its REST routes, the demo corpus of the embedded mode. */
import { defineService, type RunningService, type ServiceOptions } from "@bancada/service-kit";
import { createDocsDb, postgresSchema, type DocsDb } from "./db/client.js";
import { docsRoutes } from "./http/routes.js";
import { loadDemoCorpus } from "./ingest/demo-corpus.js";
import { migrationsDir } from "./migrations-dir.js";
import { documentsResource } from "./resources/documents-resource.js";
import { docsInstructions, docsTools, docsVocabulary } from "./tools/index.js";
import docsPackage from "@bancada/docs/package.json" with { type: "json" };

export interface DocsServiceOptions extends ServiceOptions {
  /** Accounts allowed to change the shared corpus over REST (DOCS_INGEST_ACCOUNTS). None by default. */
  ingestAccounts?: readonly string[];
  /** Load the demo corpus into an empty corpus, or refresh its repository pages (the embedded, zero-configuration mode). */
  demoCorpus?: boolean;
}

export type DocsService = RunningService<"docs", DocsDb>;

export const docsService = defineService<DocsServiceOptions>()({
  name: "docs",
  scopes: docsPackage.bancada.scopes,
  version: "0.1.0",
  instructions: docsInstructions,
  vocabulary: docsVocabulary,
  prisma: { schema: postgresSchema, migrationsDir, createClient: createDocsDb },
  async start(db, { options, log }) {
    if (!options.demoCorpus) return;
    const loaded = await loadDemoCorpus(db);
    if (loaded && loaded.created + loaded.updated + loaded.deleted > 0) {
      const { created, updated, deleted, durationMs } = loaded;
      log.info(
        { created, updated, deleted, ms: durationMs },
        "demo documentation corpus (Bancada's own docs) loaded or brought up to date",
      );
    }
  },
  tools: (db) => docsTools(db),
  resources: (db) => [documentsResource(db)],
  routes: (db, { options }) => docsRoutes(db, options.ingestAccounts ?? []),
});

export const createDocsService = (options: DocsServiceOptions): Promise<DocsService> => docsService.start(options);
