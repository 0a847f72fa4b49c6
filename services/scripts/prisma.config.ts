// Prisma CLI configuration of the scripts service (its schema engine is the Wasm stand-in: no native binary here).
import { defineConfig } from "prisma/config";
import { componentPrismaConfig } from "@bancada/prisma-engine";

export default defineConfig(componentPrismaConfig({ dir: import.meta.dirname, schema: "scripts", envName: "SCRIPTS_DATABASE_URL" }));
