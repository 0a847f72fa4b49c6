import { PrismaPg } from "@prisma/adapter-pg";
import { createPrismaClient } from "@bancada/service-kit";
import { PrismaClient } from "./generated/client.js";

export type GatewayDb = PrismaClient;
export const postgresSchema = "gateway";

export function createGatewayDb(connectionString: string, poolMax = 5): GatewayDb {
  return createPrismaClient(PrismaClient, PrismaPg, { connectionString, schema: postgresSchema, poolMax });
}
