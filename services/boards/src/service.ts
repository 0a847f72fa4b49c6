/** Wiring of the boards service: migrations, database, tools and prompts on the bus, REST routes, expiry jobs. */
import path from "node:path";
import type { Router } from "express";
import { applyMigrations, hostTools, type ToolHost, type ServiceOptions } from "@bancada/service-kit";
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
    try {
      for (const outcome of await runExpiryJobs(db)) if (outcome.deleted > 0) log.info(outcome, "expired records removed");
    } catch (error) {
      log.warn({ err: error }, "expiry job failed");
    }
  };
  const intervalMs = options.expiryIntervalMs ?? 3600_000;
  const timer = intervalMs > 0 ? setInterval(() => void expire(), intervalMs).unref() : undefined;
  if (intervalMs > 0) void expire();
  return {
    name: "boards",
    db,
    host,
    routes: boardsRoutes(db),
    async stop() {
      clearInterval(timer);
      host.stop();
      await db.$disconnect();
    },
  };
}
