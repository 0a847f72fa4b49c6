export { createBoxesService, boxesService, migrationsDir } from "./service.js";
export type { BoxesService, BoxesServiceOptions } from "./service.js";
export { createBoxesDb, postgresSchema } from "./db/client.js";
export type { BoxesDb } from "./db/client.js";
export type { BoxDriver } from "./driver/box-driver.js";
export { createLocalDriver, LocalDriver } from "./driver/local/local-driver.js";
export type { LocalDriverOptions } from "./driver/local/local-driver.js";
export { plans } from "./domain/plans.js";
export type { PlanName } from "./domain/plans.js";
