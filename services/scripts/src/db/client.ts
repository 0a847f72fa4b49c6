import { PrismaPg } from "@prisma/adapter-pg";
import { transactionOptions } from "@bancada/service-kit";
import { PrismaClient } from "./generated/client.js";

export type ScriptsDb = PrismaClient;
export type ScriptsTx = Parameters<Parameters<PrismaClient["$transaction"]>[0]>[0];

export const postgresSchema = "scripts";

export function createScriptsDb(connectionString: string, poolMax = 10): ScriptsDb {
  const adapter = new PrismaPg(
    { connectionString, max: poolMax, options: `-c search_path=${postgresSchema},public` },
    { schema: postgresSchema },
  );
  return new PrismaClient({ adapter, transactionOptions });
}
