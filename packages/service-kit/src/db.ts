/**
 * Interactive-transaction limits for every service's PrismaClient. Prisma's defaults (2 s to get a
 * connection, 5 s to finish) turn a busy moment — many writers queued on one pool or one row lock —
 * into 500s; these wait longer and still bound a stuck transaction.
 */
export const transactionOptions = { maxWait: 10_000, timeout: 20_000 } as const;
