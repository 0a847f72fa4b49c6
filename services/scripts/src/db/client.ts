import { transactionOptions } from "@bancada/service-kit";
import { PrismaPg } from "@prisma/adapter-pg";
import pg from "pg";
import { PrismaClient } from "./generated/client.js";

/**
 * The service's Prisma client, and the pg pool under it for the hottest read (find-script.ts): one query through
 * pg costs a fifth of the CPU of the same read through Prisma's client engine. One pool, so the connection cap is
 * the same as Prisma's alone; Prisma's `$disconnect` ends it.
 */
export type ScriptsDb = PrismaClient & { readonly pool: pg.Pool };
export type ScriptsTx = Parameters<Parameters<PrismaClient["$transaction"]>[0]>[0];

export const postgresSchema = "scripts";

export function createScriptsDb(connectionString: string, poolMax = 10): ScriptsDb {
  // the search_path of every service's pool (service-kit's createPrismaClient): our schema, then `public` for extensions
  const pool = new pg.Pool({ connectionString, max: poolMax, options: `-c search_path=${postgresSchema},public` });
  // An idle connection that fails (the server restarted) must not crash the process; the next query reconnects.
  // Prisma's adapter listens too, but only once Prisma has connected: the raw reads may come first.
  pool.on("error", () => {});
  const adapter = new PrismaPg(pool, { schema: postgresSchema, disposeExternalPool: true });
  return Object.assign(new PrismaClient({ adapter, transactionOptions }), { pool });
}
