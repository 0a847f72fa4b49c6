// Prisma CLI configuration of the boards service (its schema engine is the Wasm stand-in: no native binary here).
import { defineConfig } from "prisma/config";
import { componentPrismaConfig } from "@bancada/prisma-engine";

export default defineConfig(componentPrismaConfig({ dir: import.meta.dirname, schema: "boards", envName: "BOARDS_DATABASE_URL" }));
