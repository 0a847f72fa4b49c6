/**
 * The conformance fixture service: the suite's diagnostic tools, prompts and resources declared through the
 * ordinary `defineService`, so the suite exercises the gateway's real relaying over the bus (and NATS when the
 * stack runs on it). Loaded by the conformance tests alone: no `bancada start` knows of it.
 */
import path from "node:path";
import { Router } from "express";
import type { ServiceFactory } from "@bancada/e2e";
import { defineService } from "@bancada/service-kit";
import { fixturePrompts, fixtureResources } from "./prompts-and-resources.js";
import { fixtureTools } from "./tools.js";
import { tasksTools } from "../fixtures/tasks-tools.js";

/** It keeps nothing: a client with nothing to close stands in for Prisma's. */
const noDb = { $disconnect: async () => {} };

export const conformanceService = defineService()({
  name: "conformance",
  version: "1.0.0",
  instructions: "Conformance fixtures: the MCP conformance suite's diagnostic tools, prompts and resources.",
  // the suite's fixtures are reads of no domain: they borrow docs:read, which every conformance key holds
  scopes: ["docs:read"],
  prisma: { schema: "conformance", migrationsDir: path.join(import.meta.dirname, "migrations"), createClient: () => noDb },
  // the Tasks extension scenarios' tools (greet, slow_compute, failing_job, protocol_error_job)
  tools: (_db, { resourceChanged }) => [...fixtureTools(resourceChanged), ...tasksTools],
  prompts: () => fixturePrompts(),
  resources: () => fixtureResources(),
  routes: () => Router(),
});

export const conformanceFactory: ServiceFactory = async (deps) => {
  const service = await conformanceService.start(deps);
  return { name: "conformance", routes: service.routes, stop: () => service.stop() };
};
