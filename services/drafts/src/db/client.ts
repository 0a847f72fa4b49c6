import { PrismaPg } from "@prisma/adapter-pg";
import { createPrismaClient, transactionOptions } from "@bancada/service-kit";
import { PrismaClient } from "./generated/client.js";

export type DraftsDb = PrismaClient;
export type DraftsTx = Parameters<Parameters<PrismaClient["$transaction"]>[0]>[0];
/** What a read needs: the client or a transaction, for raw SQL. */
export type Queryable = Pick<DraftsTx, "$queryRaw" | "$executeRaw">;

export const postgresSchema = "drafts";

export function createDraftsDb(connectionString: string, poolMax?: number): DraftsDb {
  return createPrismaClient(PrismaClient, PrismaPg, { connectionString, schema: postgresSchema, poolMax });
}

/** One write = one transaction, with the limits every service uses (service-kit's transactionOptions). */
export function transaction<T>(db: DraftsDb, run: (tx: DraftsTx) => Promise<T>): Promise<T> {
  return db.$transaction(run, transactionOptions);
}
