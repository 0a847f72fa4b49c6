/**
 * Interactive-transaction limits for every service's PrismaClient. Prisma's defaults (2 s to get a
 * connection, 5 s to finish) turn a busy moment — many writers queued on one pool or one row lock —
 * into 500s; these wait longer and still bound a stuck transaction.
 */
export const transactionOptions = { maxWait: 10_000, timeout: 20_000 } as const;

/** A generated Prisma client class (each component generates its own), constructed with a driver adapter. */
export type PrismaClientClass<Db, Adapter> = new (options: { adapter: Adapter; transactionOptions?: typeof transactionOptions }) => Db;
/** `@prisma/adapter-pg`'s PrismaPg: passed in, so that service-kit does not depend on one adapter's version. */
export type PgAdapterClass<Adapter> = new (
  pool: { connectionString: string; max: number; options: string },
  options: { schema: string },
) => Adapter;

export interface PrismaClientTarget {
  connectionString: string;
  /** The Postgres schema of the component's tables: Prisma's queries and the connections' search_path. */
  schema: string;
  /** Connections in the pool (default 10). */
  poolMax?: number | undefined;
}

/**
 * A component's Prisma client on its own schema. The search_path puts the schema first so that raw SQL
 * finds the component's tables unqualified, and `public` after it for extensions installed there.
 */
export function createPrismaClient<Db, Adapter>(
  Client: PrismaClientClass<Db, Adapter>,
  PgAdapter: PgAdapterClass<Adapter>,
  target: PrismaClientTarget,
): Db {
  const { connectionString, schema, poolMax = 10 } = target;
  const adapter = new PgAdapter({ connectionString, max: poolMax, options: `-c search_path=${schema},public` }, { schema });
  return new Client({ adapter, transactionOptions });
}
