export { createBoardsService, boardsService, migrationsDir } from "./service.js";
export type { BoardsService, BoardsServiceOptions } from "./service.js";
export { createBoardsDb, postgresSchema } from "./db/client.js";
export type { BoardsDb } from "./db/client.js";
export { runExpiryJobs } from "./domain/expiry.js";
