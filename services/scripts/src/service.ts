/** Wiring of the scripts service: migrations, database, tools on the bus, REST routes. */
import path from "node:path";
import type { Router } from "express";
import { applyMigrations, hostTools, startPeriodicJob, type ToolHost, type ServiceOptions } from "@bancada/service-kit";
import { createScriptsDb, postgresSchema, type ScriptsDb } from "./db/client.js";
import { expireCreateRequests } from "./domain/expire-requests.js";
import { scriptsRoutes } from "./http/routes.js";
import { scriptsInstructions, scriptsTools } from "./tools/index.js";

export type ScriptsServiceOptions = ServiceOptions;

export interface ScriptsService {
  name: "scripts";
  db: ScriptsDb;
  host: ToolHost;
  routes: Router;
  stop(): Promise<void>;
}

export const migrationsDir = path.join(import.meta.dirname, "../prisma/migrations");

export async function createScriptsService(options: ScriptsServiceOptions): Promise<ScriptsService> {
  const log = options.log.child({ svc: "scripts" });
  await applyMigrations({ connectionString: options.databaseUrl, schema: postgresSchema, migrationsDir, log });
  const db = createScriptsDb(options.databaseUrl, options.poolMax);
  const host = hostTools({
    bus: options.bus,
    subjects: options.subjects,
    service: "scripts",
    version: "0.1.0",
    instructions: scriptsInstructions,
    tools: scriptsTools(db),
    log,
    ...(options.metrics ? { metrics: options.metrics } : {}),
  });
  const expiry = startPeriodicJob({ name: "expiring idempotency records", intervalMs: 3600_000, run: () => expireCreateRequests(db), log, runNow: true });
  return {
    name: "scripts",
    db,
    host,
    routes: scriptsRoutes(db),
    async stop() {
      host.stop();
      await expiry.stop();
      await db.$disconnect();
    },
  };
}
