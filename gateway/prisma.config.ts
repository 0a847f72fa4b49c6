// Prisma CLI configuration of the gateway (its schema engine is the Wasm stand-in: no native binary here).
import { defineConfig } from "prisma/config";
import { componentPrismaConfig } from "@bancada/prisma-engine";

export default defineConfig(componentPrismaConfig({ dir: import.meta.dirname, schema: "gateway", envName: "GATEWAY_DATABASE_URL" }));
