/**
 * Idempotency keys of create_box and start_job: the key row is claimed in the same transaction as the
 * write, so two racing calls with one key serialize on it; the second finds the first's resource.
 * Same key + other arguments → idempotency_conflict. Rows are kept 7 days (docs/README.md).
 */
import { DomainError, ErrorCode } from "@bancada/contracts";
import type { BoxesDb, BoxesTx } from "../db/client.js";
import { limits } from "./limits.js";

export type Claim = { kind: "claimed" } | { kind: "replay"; resourceId: string };

export async function claimKey(tx: BoxesTx, accountId: string, tool: string, key: string, hash: string): Promise<Claim> {
  const inserted = await tx.$executeRaw`
    INSERT INTO idempotency_keys (account_id, tool, key, request_hash, resource_id)
    VALUES (${accountId}, ${tool}, ${key}, ${hash}, '') ON CONFLICT DO NOTHING`;
  if (inserted === 1) return { kind: "claimed" };
  const previous = await tx.idempotencyKey.findUniqueOrThrow({ where: { accountId_tool_key: { accountId, tool, key } } });
  if (previous.requestHash !== hash) {
    throw new DomainError(
      ErrorCode.idempotencyConflict,
      `This idempotencyKey was already used for ${tool} with other arguments; use a new key.`,
      {
        idempotencyKey: key,
      },
    );
  }
  return { kind: "replay", resourceId: previous.resourceId };
}

export async function recordKey(tx: BoxesTx, accountId: string, tool: string, key: string, resourceId: string): Promise<void> {
  await tx.idempotencyKey.update({ where: { accountId_tool_key: { accountId, tool, key } }, data: { resourceId } });
}

export async function expireKeys(db: BoxesDb, now = new Date()): Promise<number> {
  const { count } = await db.idempotencyKey.deleteMany({
    where: { createdAt: { lt: new Date(now.getTime() - limits.idempotencyRetentionMs) } },
  });
  return count;
}
