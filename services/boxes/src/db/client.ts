import { createPrismaClient } from "@bancada/service-kit";
import { PrismaPg } from "@prisma/adapter-pg";
import { PrismaClient } from "./generated/client.js";

export type BoxesDb = PrismaClient;
export type BoxesTx = Parameters<Parameters<PrismaClient["$transaction"]>[0]>[0];
export type { Box as BoxRow, Job as JobRow, Snapshot as SnapshotRow } from "./generated/client.js";

export const postgresSchema = "boxes";

export function createBoxesDb(connectionString: string, poolMax?: number): BoxesDb {
  return createPrismaClient(PrismaClient, PrismaPg, { connectionString, schema: postgresSchema, poolMax });
}
