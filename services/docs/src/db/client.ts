import { transactionOptions } from "@bancada/service-kit";
import { PrismaPg } from "@prisma/adapter-pg";
import { PrismaClient } from "./generated/client.js";

export type DocsDb = PrismaClient;
export type DocsTx = Parameters<Parameters<PrismaClient["$transaction"]>[0]>[0];

export const postgresSchema = "docs";

export function createDocsDb(connectionString: string, poolMax = 10): DocsDb {
  const adapter = new PrismaPg(
    { connectionString, max: poolMax, options: `-c search_path=${postgresSchema},public` },
    { schema: postgresSchema },
  );
  return new PrismaClient({ adapter, transactionOptions });
}
