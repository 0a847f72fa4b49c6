// Prisma CLI configuration for this service. The schema engine is our Wasm stand-in (no native binary here).
import path from "node:path";
import { defineConfig } from "prisma/config";
import { schemaEnginePath } from "@bancada/prisma-engine";

process.env.PRISMA_SCHEMA_ENGINE_BINARY ??= schemaEnginePath;
const base = process.env.BOXES_DATABASE_URL ?? process.env.DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/bancada";

export default defineConfig({
  schema: path.join(import.meta.dirname, "prisma/schema.prisma"),
  migrations: { path: path.join(import.meta.dirname, "prisma/migrations") },
  datasource: { url: withSchema(base, "boxes") },
});

function withSchema(url: string, schema: string): string {
  const parsed = new URL(url);
  parsed.searchParams.set("schema", schema);
  return parsed.toString();
}
