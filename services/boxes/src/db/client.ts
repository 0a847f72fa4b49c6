import { PrismaPg } from "@prisma/adapter-pg";
import { transactionOptions } from "@bancada/service-kit";
import { PrismaClient } from "./generated/client.js";

export type BoxesDb = PrismaClient;
export type BoxesTx = Parameters<Parameters<PrismaClient["$transaction"]>[0]>[0];
export type { Box as BoxRow, Job as JobRow } from "./generated/client.js";

export const postgresSchema = "boxes";

export function createBoxesDb(connectionString: string, poolMax = 10): BoxesDb {
  const adapter = new PrismaPg(
    { connectionString, max: poolMax, options: `-c search_path=${postgresSchema},public` },
    { schema: postgresSchema },
  );
  return new PrismaClient({ adapter, transactionOptions });
}
