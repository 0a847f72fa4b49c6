/** A fresh, empty PostgreSQL database per test file, dropped at the end. */
import { randomBytes } from "node:crypto";
import pg from "pg";

/** Set by CI, or by vitest.global-setup.ts to an embedded PostgreSQL when nothing is configured. */
export const adminDatabaseUrl = process.env.DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";

export interface TestDatabase {
  url: string;
  name: string;
  drop(): Promise<void>;
}

export async function freshDatabase(prefix = "bancada_test"): Promise<TestDatabase> {
  const name = `${prefix}_${randomBytes(5).toString("hex")}`;
  await adminQuery(`CREATE DATABASE "${name}"`);
  const url = new URL(adminDatabaseUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    name,
    drop: () => adminQuery(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`),
  };
}

async function adminQuery(sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminDatabaseUrl });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}
