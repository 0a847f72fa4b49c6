import pg from "pg";

/** Creates the database named in the URL when the server has no such database yet (a first start). */
export async function ensureDatabase(url: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  try {
    await client.connect();
    await client.end();
    return;
  } catch (error) {
    await client.end().catch(() => {});
    if ((error as { code?: string }).code !== "3D000") throw explain(url, error);
  }
  const target = new URL(url);
  const name = decodeURIComponent(target.pathname.slice(1));
  const admin = new URL(url);
  admin.pathname = "/postgres";
  const adminClient = new pg.Client({ connectionString: admin.toString() });
  try {
    await adminClient.connect();
    await adminClient.query(`CREATE DATABASE "${name.replaceAll('"', '""')}"`);
  } catch (error) {
    if ((error as { code?: string }).code !== "42P04") throw explain(url, error);
  } finally {
    await adminClient.end().catch(() => {});
  }
}

function explain(url: string, error: unknown): Error {
  const safe = new URL(url);
  safe.password = safe.password ? "***" : "";
  return new Error(`Cannot use the database ${safe.toString()}: ${(error as Error).message}. Is PostgreSQL running, and is DATABASE_URL right?`, {
    cause: error,
  });
}
