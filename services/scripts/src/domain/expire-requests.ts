import type { ScriptsDb } from "../db/client.js";

/** Idempotency records are kept 7 days (docs/README.md: at least 7), then removed. */
const idempotencyRetentionMs = 7 * 24 * 3600 * 1000;

export async function expireCreateRequests(db: ScriptsDb, now = new Date()): Promise<number> {
  const { count } = await db.createRequest.deleteMany({ where: { createdAt: { lt: new Date(now.getTime() - idempotencyRetentionMs) } } });
  return count;
}
