import { PrismaPg } from "@prisma/adapter-pg";
import { transactionOptions } from "@bancada/service-kit";
import { PrismaClient } from "./generated/client.js";

export type DraftsDb = PrismaClient;
export type DraftsTx = Parameters<Parameters<PrismaClient["$transaction"]>[0]>[0];
/** What a read needs: the client or a transaction, for raw SQL. */
export type Queryable = Pick<DraftsTx, "$queryRaw" | "$executeRaw">;

export const postgresSchema = "drafts";

export function createDraftsDb(connectionString: string, poolMax = 10): DraftsDb {
  const adapter = new PrismaPg(
    { connectionString, max: poolMax, options: `-c search_path=${postgresSchema},public` },
    { schema: postgresSchema },
  );
  return new PrismaClient({ adapter });
}

/** One write = one transaction, with the limits every service uses (service-kit's transactionOptions). */
export function transaction<T>(db: DraftsDb, run: (tx: DraftsTx) => Promise<T>): Promise<T> {
  return db.$transaction(run, transactionOptions);
}
