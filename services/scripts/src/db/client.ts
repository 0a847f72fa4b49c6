import { createPrismaClient } from "@bancada/service-kit";
import { PrismaPg } from "@prisma/adapter-pg";
import { PrismaClient } from "./generated/client.js";

export type ScriptsDb = PrismaClient;
export type ScriptsTx = Parameters<Parameters<PrismaClient["$transaction"]>[0]>[0];

export const postgresSchema = "scripts";

export function createScriptsDb(connectionString: string, poolMax?: number): ScriptsDb {
  return createPrismaClient(PrismaClient, PrismaPg, { connectionString, schema: postgresSchema, poolMax });
}
