export { startEmbeddedPostgres, embeddedServerAnswers, EmbeddedPostgresError } from "./embedded-postgres.js";
export type { EmbeddedPostgresOptions, EmbeddedPostgresServer } from "./embedded-postgres.js";
