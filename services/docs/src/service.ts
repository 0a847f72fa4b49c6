/** Wiring of the docs service: migrations, database, tools on the bus, REST routes, optional demo corpus. */
import type { Router } from "express";
import { applyMigrations, hostTools, type ToolHost, type ServiceOptions } from "@bancada/service-kit";
import { createDocsDb, postgresSchema, type DocsDb } from "./db/client.js";
import { docsRoutes } from "./http/routes.js";
import { loadDemoCorpusIfEmpty } from "./ingest/demo-corpus.js";
import { migrationsDir } from "./migrations-dir.js";
import { docsInstructions, docsTools } from "./tools/index.js";

export interface DocsServiceOptions extends ServiceOptions {
  /** Accounts allowed to change the shared corpus over REST (DOCS_INGEST_ACCOUNTS). None by default. */
  ingestAccounts?: readonly string[];
  /** Load the demo corpus when the corpus is empty (the embedded, zero-configuration mode). */
  demoCorpus?: boolean;
}

export interface DocsService {
  name: "docs";
  db: DocsDb;
  host: ToolHost;
  routes: Router;
  stop(): Promise<void>;
}

export async function createDocsService(options: DocsServiceOptions): Promise<DocsService> {
  const log = options.log.child({ svc: "docs" });
  await applyMigrations({ connectionString: options.databaseUrl, schema: postgresSchema, migrationsDir, log });
  const db = createDocsDb(options.databaseUrl, options.poolMax);
  if (options.demoCorpus) {
    const loaded = await loadDemoCorpusIfEmpty(db);
    if (loaded) log.info({ documents: loaded.created, ms: loaded.durationMs }, "demo documentation corpus loaded into the empty corpus");
  }
  const host = hostTools({
    bus: options.bus,
    subjects: options.subjects,
    service: "docs",
    version: "0.1.0",
    instructions: docsInstructions,
    tools: docsTools(db),
    log,
    ...(options.metrics ? { metrics: options.metrics } : {}),
  });
  return {
    name: "docs",
    db,
    host,
    routes: docsRoutes(db, options.ingestAccounts ?? []),
    async stop() {
      host.stop();
      await db.$disconnect();
    },
  };
}
