/** The scripts service: its tools on the bus, its REST routes, the expiry of idempotency records. */
import path from "node:path";
import { defineService, type RunningService, type ServiceOptions } from "@bancada/service-kit";
import { createScriptsDb, postgresSchema, type ScriptsDb } from "./db/client.js";
import { expireCreateRequests } from "./domain/expire-requests.js";
import { scriptsRoutes } from "./http/routes.js";
import type { Scripts } from "./domain/context.js";
import { scriptUri, scriptsResource } from "./resources/scripts-resource.js";
import { scriptsInstructions, scriptsTools, scriptsVocabulary } from "./tools/index.js";
import scriptsPackage from "@bancada/scripts/package.json" with { type: "json" };

export type ScriptsServiceOptions = ServiceOptions;
export type ScriptsService = RunningService<"scripts", ScriptsDb>;

export const migrationsDir = path.join(import.meta.dirname, "../prisma/migrations");

export const scriptsService = defineService<ScriptsServiceOptions>()({
  name: "scripts",
  scopes: scriptsPackage.bancada.scopes,
  version: "0.1.0",
  instructions: scriptsInstructions,
  vocabulary: scriptsVocabulary,
  prisma: { schema: postgresSchema, migrationsDir, createClient: createScriptsDb },
  // a changed script is a changed resource: subscribed clients of its account are told (docs/gateway.md)
  context: ({ db, resourceChanged }): Scripts => ({ db, changed: (accountId, id) => resourceChanged(accountId, scriptUri(id)) }),
  tools: (scripts) => scriptsTools(scripts),
  resources: (scripts) => [scriptsResource(scripts)],
  routes: (scripts) => scriptsRoutes(scripts),
  jobs: ({ db }) => [{ name: "expiring idempotency records", intervalMs: 3600_000, run: () => expireCreateRequests(db), runNow: true }],
});

export const createScriptsService = (options: ScriptsServiceOptions): Promise<ScriptsService> => scriptsService.start(options);
