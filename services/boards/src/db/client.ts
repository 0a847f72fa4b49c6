import { createPrismaClient } from "@bancada/service-kit";
import { PrismaPg } from "@prisma/adapter-pg";
import { PrismaClient } from "./generated/client.js";

export type BoardsDb = PrismaClient;
export type BoardsTx = Parameters<Parameters<PrismaClient["$transaction"]>[0]>[0];

export const postgresSchema = "boards";

export function createBoardsDb(connectionString: string, poolMax?: number): BoardsDb {
  return createPrismaClient(PrismaClient, PrismaPg, { connectionString, schema: postgresSchema, poolMax });
}
