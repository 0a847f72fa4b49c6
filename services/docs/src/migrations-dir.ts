import path from "node:path";

/** The committed Prisma migrations of the `docs` schema, applied at start by applyMigrations. */
export const migrationsDir = path.join(import.meta.dirname, "../prisma/migrations");
