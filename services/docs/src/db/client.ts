import { createPrismaClient } from "@bancada/service-kit";
import { PrismaPg } from "@prisma/adapter-pg";
import { PrismaClient } from "./generated/client.js";

export type DocsDb = PrismaClient;
export type DocsTx = Parameters<Parameters<PrismaClient["$transaction"]>[0]>[0];

export const postgresSchema = "docs";

export function createDocsDb(connectionString: string, poolMax?: number): DocsDb {
  return createPrismaClient(PrismaClient, PrismaPg, { connectionString, schema: postgresSchema, poolMax });
}
