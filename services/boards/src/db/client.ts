import { transactionOptions } from "@bancada/service-kit";
import { PrismaPg } from "@prisma/adapter-pg";
import { PrismaClient } from "./generated/client.js";

export type BoardsDb = PrismaClient;
export type BoardsTx = Parameters<Parameters<PrismaClient["$transaction"]>[0]>[0];

export const postgresSchema = "boards";

export function createBoardsDb(connectionString: string, poolMax = 10): BoardsDb {
  const adapter = new PrismaPg(
    { connectionString, max: poolMax, options: `-c search_path=${postgresSchema},public` },
    { schema: postgresSchema },
  );
  return new PrismaClient({ adapter, transactionOptions });
}
