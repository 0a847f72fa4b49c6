/** The scripts service: its tools on the bus, its REST routes, the expiry of idempotency records. */
import path from "node:path";
import { defineService, type RunningService, type ServiceOptions } from "@bancada/service-kit";
import { createScriptsDb, postgresSchema, type ScriptsDb } from "./db/client.js";
import { expireCreateRequests } from "./domain/expire-requests.js";
import { scriptsRoutes } from "./http/routes.js";
import { scriptsResource } from "./resources/scripts-resource.js";
import { scriptsInstructions, scriptsTools, scriptsVocabulary } from "./tools/index.js";

export type ScriptsServiceOptions = ServiceOptions;
export type ScriptsService = RunningService<"scripts", ScriptsDb>;

export const migrationsDir = path.join(import.meta.dirname, "../prisma/migrations");

export const scriptsService = defineService<ScriptsServiceOptions>()({
  name: "scripts",
  scopes: ["scripts:read", "scripts:write"],
  version: "0.1.0",
  instructions: scriptsInstructions,
  vocabulary: scriptsVocabulary,
  prisma: { schema: postgresSchema, migrationsDir, createClient: createScriptsDb },
  tools: (db) => scriptsTools(db),
  resources: (db) => [scriptsResource(db)],
  routes: (db) => scriptsRoutes(db),
  jobs: (db) => [{ name: "expiring idempotency records", intervalMs: 3600_000, run: () => expireCreateRequests(db), runNow: true }],
});

export const createScriptsService = (options: ScriptsServiceOptions): Promise<ScriptsService> => scriptsService.start(options);
