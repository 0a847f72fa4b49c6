/** The services this build contains, and how to start each one. */
import path from "node:path";
import type { Router } from "express";
import type { Subjects } from "@bancada/contracts";
import type { Bus, Logger, ToolMetrics } from "@bancada/service-kit";
import type { Env } from "./env.js";
import { createBoardsService, migrationsDir as boardsMigrations } from "@bancada/boards";
import { createBoxesService, migrationsDir as boxesMigrations } from "@bancada/boxes";
import { createDocsService, migrationsDir as docsMigrations } from "@bancada/docs";
import { createDraftsService, migrationsDir as draftsMigrations } from "@bancada/drafts";
import { createScriptsService, migrationsDir as scriptsMigrations } from "@bancada/scripts";
import { migrationsDir as gatewayMigrations } from "@bancada/gateway";

export interface RunningService {
  name: string;
  routes: Router;
  stop(): Promise<void>;
}

export interface ServiceDeps {
  databaseUrl: string;
  bus: Bus;
  subjects: Subjects;
  log: Logger;
  metrics: ToolMetrics;
  env: Env;
  /** True when the embedded PostgreSQL serves this process (the zero-configuration mode). */
  embedded: boolean;
}

export const serviceRegistry: Record<string, (deps: ServiceDeps) => Promise<RunningService>> = {
  scripts: (deps) => createScriptsService(deps),
  boards: (deps) => createBoardsService(deps),
  docs: (deps) =>
    createDocsService({
      ...deps,
      ingestAccounts: deps.env.DOCS_INGEST_ACCOUNTS,
      // the demo corpus fills an empty corpus in the embedded mode, so a new user can try the tools at once
      demoCorpus: deps.env.DOCS_DEMO_CORPUS || deps.embedded,
    }),
  drafts: (deps) =>
    createDraftsService({
      ...deps,
      dataDir: path.join(path.resolve(deps.env.BANCADA_DATA_DIR), "drafts-assets"),
      // a local path is the caller's own file only when no separate deployment is in play
      localFileUploads: deps.embedded || !deps.env.NATS_URL,
    }),
  boxes: (deps) => createBoxesService({ ...deps, dataDir: path.join(path.resolve(deps.env.BANCADA_DATA_DIR), "boxes") }),
};

export const serviceNames = Object.keys(serviceRegistry);

/** Every component's Postgres schema and committed Prisma migrations. */
export const migrationSets = [
  { component: "gateway", schema: "gateway", dir: gatewayMigrations },
  { component: "scripts", schema: "scripts", dir: scriptsMigrations },
  { component: "boards", schema: "boards", dir: boardsMigrations },
  { component: "docs", schema: "docs", dir: docsMigrations },
  { component: "drafts", schema: "drafts", dir: draftsMigrations },
  { component: "boxes", schema: "boxes", dir: boxesMigrations },
] as const;
