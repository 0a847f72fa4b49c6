import { PrismaPg } from "@prisma/adapter-pg";
import { transactionOptions } from "@bancada/service-kit";
import { PrismaClient } from "./generated/client.js";

export type GatewayDb = PrismaClient;
export const postgresSchema = "gateway";

export function createGatewayDb(connectionString: string, poolMax = 5): GatewayDb {
  const adapter = new PrismaPg({ connectionString, max: poolMax, options: `-c search_path=${postgresSchema},public` }, { schema: postgresSchema });
  return new PrismaClient({ adapter, transactionOptions });
}
