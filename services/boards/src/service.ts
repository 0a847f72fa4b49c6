/** Wiring of the boards service: migrations, database, tools and prompts on the bus, REST routes, expiry jobs. */
import path from "node:path";
import type { Router } from "express";
import { applyMigrations, hostTools, startPeriodicJob, type ToolHost, type ServiceOptions } from "@bancada/service-kit";
import { createBoardsDb, postgresSchema, type BoardsDb } from "./db/client.js";
import { runExpiryJobs } from "./domain/expiry.js";
import { boardsRoutes } from "./http/routes.js";
import { boardsPrompts } from "./prompts/index.js";
import { boardsInstructions, boardsTools } from "./tools/index.js";

export interface BoardsServiceOptions extends ServiceOptions {
  /** How often the expiry jobs run (default hourly); 0 turns the schedule off (tests run them directly). */
  expiryIntervalMs?: number;
}

export interface BoardsService {
  name: "boards";
  db: BoardsDb;
  host: ToolHost;
  routes: Router;
  stop(): Promise<void>;
}

export const migrationsDir = path.join(import.meta.dirname, "../prisma/migrations");

export async function createBoardsService(options: BoardsServiceOptions): Promise<BoardsService> {
  const log = options.log.child({ svc: "boards" });
  await applyMigrations({ connectionString: options.databaseUrl, schema: postgresSchema, migrationsDir, log });
  const db = createBoardsDb(options.databaseUrl, options.poolMax);
  const host = hostTools({
    bus: options.bus,
    subjects: options.subjects,
    service: "boards",
    version: "0.1.0",
    instructions: boardsInstructions,
    tools: boardsTools(db),
    prompts: boardsPrompts(db),
    log,
    ...(options.metrics ? { metrics: options.metrics } : {}),
  });
  const expire = async () => {
    for (const outcome of await runExpiryJobs(db)) if (outcome.deleted > 0) log.info(outcome, "expired records removed");
  };
  const intervalMs = options.expiryIntervalMs ?? 3600_000;
  const expiry = intervalMs > 0 ? startPeriodicJob({ name: "expiry job", intervalMs, run: expire, log, runNow: true }) : undefined;
  return {
    name: "boards",
    db,
    host,
    routes: boardsRoutes(db),
    async stop() {
      host.stop();
      await expiry?.stop();
      await db.$disconnect();
    },
  };
}
