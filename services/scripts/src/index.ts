export { createScriptsService, scriptsService, migrationsDir } from "./service.js";
export type { ScriptsService, ScriptsServiceOptions } from "./service.js";
export { createScriptsDb, postgresSchema } from "./db/client.js";
export type { ScriptsDb } from "./db/client.js";
