/**
 * Where the stand-in schema engine lives, and each component's `prisma.config.ts` built on it
 * (componentPrismaConfig sets PRISMA_SCHEMA_ENGINE_BINARY to it). With that, the Prisma CLI runs
 * `schema-engine.mjs` (Prisma's WebAssembly schema engine over adapter-pg) instead of downloading the
 * native binary from Prisma's binary host, which these machines cannot reach.
 */
import path from "node:path";
import { fileURLToPath } from "node:url";

/** Absolute path of the executable `schema-engine.mjs`. */
export const schemaEnginePath = fileURLToPath(new URL("./schema-engine.mjs", import.meta.url));

/**
 * A component's whole `prisma.config.ts` (its folder holds `prisma/schema.prisma` and `prisma/migrations`):
 *
 *   export default defineConfig(componentPrismaConfig({ dir: import.meta.dirname, schema: "scripts", envName: "SCRIPTS_DATABASE_URL" }));
 *
 * The database is the component's own variable, else DATABASE_URL, else the local development server;
 * the Postgres schema is set on the URL because the CLI's migrations and diffs work on that schema only.
 * The stand-in engine is used unless PRISMA_SCHEMA_ENGINE_BINARY names another.
 */
export function componentPrismaConfig({ dir, schema, envName }) {
  process.env.PRISMA_SCHEMA_ENGINE_BINARY ??= schemaEnginePath;
  const url = new URL(process.env[envName] ?? process.env.DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/bancada");
  url.searchParams.set("schema", schema);
  return {
    schema: path.join(dir, "prisma/schema.prisma"),
    migrations: { path: path.join(dir, "prisma/migrations") },
    datasource: { url: url.toString() },
  };
}
