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
import type { DraftsTx } from "../db/client.js";

export interface IdempotentWrite {
  workspaceId: string;
  requestId: string;
  operation: string;
  personId: string;
  /** What defines the write (request_id excluded), in a stable key order. */
  args: Record<string, unknown>;
}

export async function idempotent<S extends z.ZodType>(
  tx: DraftsTx,
  write: IdempotentWrite,
  result: S,
  run: () => Promise<z.output<S>>,
): Promise<z.output<S>> {
  const hash = requestHash(write);
  const claimed = await tx.$executeRaw`
    INSERT INTO write_requests (workspace_id, request_id, request_hash, response)
    VALUES (${write.workspaceId}::uuid, ${write.requestId}::uuid, ${hash}, '{}'::jsonb)
    ON CONFLICT DO NOTHING`;
  if (claimed === 0) {
    const previous = await tx.writeRequest.findUniqueOrThrow({
      where: { workspaceId_requestId: { workspaceId: write.workspaceId, requestId: write.requestId } },
    });
    if (previous.requestHash !== hash) {
      throw new DomainError(
        ErrorCode.idempotencyConflict,
        "This request_id was already used for another write (other arguments, tool or person); use a new request_id for a new write.",
        { request_id: write.requestId },
      );
    }
    return result.parse(previous.response);
  }
  const outcome = await run();
  await tx.writeRequest.update({
    where: { workspaceId_requestId: { workspaceId: write.workspaceId, requestId: write.requestId } },
    data: { response: outcome as object },
  });
  return outcome;
}

function requestHash(write: IdempotentWrite): string {
  return createHash("sha256")
    .update(JSON.stringify([write.operation, write.personId, write.args]))
    .digest("hex");
}
