/**
 * Where the stand-in schema engine lives, for a service's `prisma.config.ts`:
 *
 *   import { schemaEnginePath } from "@bancada/prisma-engine";
 *   process.env.PRISMA_SCHEMA_ENGINE_BINARY ??= schemaEnginePath;
 *
 * With that, the Prisma CLI runs `schema-engine.mjs` (Prisma's WebAssembly schema engine over adapter-pg)
 * instead of downloading the native binary from Prisma's binary host, which these machines cannot reach.
 */
import { fileURLToPath } from "node:url";

/** Absolute path of the executable `schema-engine.mjs`. */
export const schemaEnginePath = fileURLToPath(new URL("./schema-engine.mjs", import.meta.url));
