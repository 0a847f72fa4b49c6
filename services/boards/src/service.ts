/** The boards service: its tools and prompts on the bus, its REST routes, the expiry jobs. */
import path from "node:path";
import { defineService, type RunningService, type ServiceOptions } from "@bancada/service-kit";
import { createBoardsDb, postgresSchema, type BoardsDb } from "./db/client.js";
import { runExpiryJobs } from "./domain/expiry.js";
import { boardsRoutes } from "./http/routes.js";
import { boardsPrompts } from "./prompts/index.js";
import { boardsInstructions, boardsTools, boardsVocabulary } from "./tools/index.js";
import boardsPackage from "@bancada/boards/package.json" with { type: "json" };

export interface BoardsServiceOptions extends ServiceOptions {
  /** How often the expiry jobs run (default hourly); 0 turns the schedule off (tests run them directly). */
  expiryIntervalMs?: number;
  /** Where people open the web console (BANCADA_PUBLIC_URL): list_boards and the prompts send them there to create a board. */
  consoleUrl?: string | undefined;
}

export type BoardsService = RunningService<"boards", BoardsDb>;

export const migrationsDir = path.join(import.meta.dirname, "../prisma/migrations");

export const boardsService = defineService<BoardsServiceOptions>()({
  name: "boards",
  scopes: boardsPackage.bancada.scopes,
  version: "0.1.0",
  instructions: boardsInstructions,
  vocabulary: boardsVocabulary,
  prisma: { schema: postgresSchema, migrationsDir, createClient: createBoardsDb },
  tools: (db, { options }) => boardsTools(db, { consoleUrl: options.consoleUrl }),
  prompts: (db, { options }) => boardsPrompts(db, options.consoleUrl),
  routes: (db) => boardsRoutes(db),
  jobs: (db, { options, log }) => {
    const intervalMs = options.expiryIntervalMs ?? 3600_000;
    const expire = async () => {
      for (const outcome of await runExpiryJobs(db)) if (outcome.deleted > 0) log.info(outcome, "expired records removed");
    };
    return [intervalMs > 0 && { name: "expiry job", intervalMs, run: expire, runNow: true }];
  },
});

export const createBoardsService = (options: BoardsServiceOptions): Promise<BoardsService> => boardsService.start(options);
