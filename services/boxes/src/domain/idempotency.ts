/**
 * Idempotency keys of create_box and start_job: the key row is claimed in the same transaction as the
 * write, so two racing calls with one key serialize on it; the second finds the first's resource.
 * Same key + other arguments → idempotency_conflict. Rows are kept 7 days (docs/README.md). The mechanism is
 * service-kit's (idempotency.ts); the key is claimed here and recorded once the resource has its id.
 */
import { DomainError, ErrorCode } from "@bancada/contracts";
import { claimIdempotencyKey, type IdempotencyRecords } from "@bancada/service-kit";
import type { BoxesDb, BoxesTx } from "../db/client.js";
import { limits } from "./limits.js";

export type Claim = { kind: "claimed" } | { kind: "replay"; resourceId: string };

export async function claimKey(tx: BoxesTx, accountId: string, tool: string, key: string, hash: string): Promise<Claim> {
  const claim = await claimIdempotencyKey(keyRecords(tx, accountId, tool, key), hash, () => {
    return new DomainError(
      ErrorCode.idempotencyConflict,
      `This idempotencyKey was already used for ${tool} with other arguments; use a new key.`,
      {
        idempotencyKey: key,
      },
    );
  });
  return claim.kind === "claimed" ? claim : { kind: "replay", resourceId: claim.stored };
}

export async function recordKey(tx: BoxesTx, accountId: string, tool: string, key: string, resourceId: string): Promise<void> {
  await keyRecords(tx, accountId, tool, key).save(resourceId);
}

/** The record of one key of one tool in `idempotency_keys`: it keeps the id of what the first call made. */
function keyRecords(tx: BoxesTx, accountId: string, tool: string, key: string): IdempotencyRecords<string> {
  const where = { accountId_tool_key: { accountId, tool, key } };
  return {
    insert: (hash) => tx.$executeRaw`
      INSERT INTO idempotency_keys (account_id, tool, key, request_hash, resource_id)
      VALUES (${accountId}, ${tool}, ${key}, ${hash}, '') ON CONFLICT DO NOTHING`,
    find: async () => {
      const previous = await tx.idempotencyKey.findUnique({ where });
      return previous ? { hash: previous.requestHash, stored: previous.resourceId } : null;
    },
    save: async (resourceId) => {
      await tx.idempotencyKey.update({ where, data: { resourceId } });
    },
  };
}

export async function expireKeys(db: BoxesDb, now = new Date()): Promise<number> {
  const { count } = await db.idempotencyKey.deleteMany({
    where: { createdAt: { lt: new Date(now.getTime() - limits.idempotencyRetentionMs) } },
  });
  return count;
}
