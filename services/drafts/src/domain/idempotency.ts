/**
 * request_id idempotency of the draft writes. The record is claimed with an insert in the write's own
 * transaction: a second call with the same request_id waits on the key until the first commits, then
 * finds its result (or, if the first rolled back, claims the key itself). Same operation, person and
 * arguments → the stored result, nothing written again; anything else → idempotency_conflict.
 * A failed write rolls back its claim too, so it can be retried with the same request_id.
 */
import { createHash } from "node:crypto";
import type { z } from "zod";
import { DomainError, ErrorCode } from "@bancada/contracts";
import { idempotentWrite, type IdempotencyRecords } from "@bancada/service-kit";
import type { DraftsTx } from "../db/client.js";

export interface IdempotentWrite {
  workspaceId: string;
  requestId: string;
  operation: string;
  personId: string;
  /** What defines the write (request_id excluded), in a stable key order. */
  args: Record<string, unknown>;
}

export function idempotent<S extends z.ZodType>(
  tx: DraftsTx,
  write: IdempotentWrite,
  result: S,
  run: () => Promise<z.output<S>>,
): Promise<z.output<S>> {
  return idempotentWrite<z.output<S>, unknown>(draftsRecords(tx, write), {
    hash: requestHash(write),
    conflict: () =>
      new DomainError(
        ErrorCode.idempotencyConflict,
        "This request_id was already used for another write (other arguments, tool or person); use a new request_id for a new write.",
        { request_id: write.requestId },
      ),
    run,
    replay: (stored) => result.parse(stored),
  });
}

/** The records of one request_id in `write_requests`. */
function draftsRecords(tx: DraftsTx, write: IdempotentWrite): IdempotencyRecords<unknown> {
  const where = { workspaceId_requestId: { workspaceId: write.workspaceId, requestId: write.requestId } };
  return {
    insert: (hash) => tx.$executeRaw`
      INSERT INTO write_requests (workspace_id, request_id, request_hash, response)
      VALUES (${write.workspaceId}::uuid, ${write.requestId}::uuid, ${hash}, '{}'::jsonb)
      ON CONFLICT DO NOTHING`,
    find: async () => {
      const previous = await tx.writeRequest.findUnique({ where });
      return previous ? { hash: previous.requestHash, stored: previous.response } : null;
    },
    save: async (response) => {
      await tx.writeRequest.update({ where, data: { response: response as object } });
    },
  };
}

function requestHash(write: IdempotentWrite): string {
  return createHash("sha256")
    .update(JSON.stringify([write.operation, write.personId, write.args]))
    .digest("hex");
}
