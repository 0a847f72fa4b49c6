/**
 * requestId idempotency of the task writes (7 days, docs/boards.md#write-rules). The record is claimed with an insert in the
 * write's own transaction: a second call with the same requestId waits on the unique key until the
 * first commits, then finds its result (or, if the first rolled back, claims the key itself). Same
 * arguments → the stored result, nothing written; other arguments (or another tool, or another
 * person's requestId) → IDEMPOTENCY_CONFLICT. Records are keyed by (account, requestId): another
 * account's requestIds are never seen, so no answer here can tell that one exists. A record older than 7 days counts as gone. Errors roll
 * the whole transaction back, claim included: a failed call can be retried with the same requestId.
 */
import { createHash } from "node:crypto";
import { idempotentWrite, type IdempotencyRecords } from "@bancada/service-kit";
import type { BoardsTx } from "../db/client.js";
import type { BoardsContext } from "./context.js";
import { idempotencyConflict } from "./errors.js";
import { retention } from "./limits.js";

export interface IdempotentWrite {
  requestId: string;
  boardId: string;
  /** The operation's name: the same requestId for another operation is a conflict too. */
  operation: string;
  /** The arguments that define the operation (requestId excluded). */
  args: Record<string, unknown>;
}

export function idempotent<T>(tx: BoardsTx, ctx: BoardsContext, write: IdempotentWrite, run: () => Promise<T>): Promise<T> {
  return idempotentWrite<T, unknown>(boardsRecords(tx, ctx, write), {
    hash: argsHash(write.operation, write.args),
    conflict: () => idempotencyConflict(write.requestId),
    run,
    replay: (stored) => stored as T, // written by this function from a T
  });
}

/** The records of one requestId in `idempotency_records` (kept 7 days, then claimed anew). */
function boardsRecords(tx: BoardsTx, ctx: BoardsContext, write: IdempotentWrite): IdempotencyRecords<unknown> {
  return {
    insert: (hash) => tx.$executeRaw`
      INSERT INTO idempotency_records (account_id, request_id, person_id, board_id, tool, args_hash, result, created_at)
      VALUES (${ctx.accountId}, ${write.requestId}::uuid, ${ctx.personId}, ${write.boardId}::uuid, ${write.operation}, ${hash}, '{}'::jsonb, now())
      ON CONFLICT (account_id, request_id) DO NOTHING`,
    find: async () => {
      const [previous] = await tx.$queryRaw<{ args_hash: string; result: unknown; expired: boolean }[]>`
        SELECT args_hash, result, created_at < now() - make_interval(secs => ${retention.idempotencyMs / 1000}) AS expired
          FROM idempotency_records WHERE account_id = ${ctx.accountId} AND request_id = ${write.requestId}::uuid FOR UPDATE`;
      return previous ? { hash: previous.args_hash, stored: previous.result, expired: previous.expired } : null;
    },
    reclaim: async (hash) => {
      await tx.$executeRaw`
        UPDATE idempotency_records SET board_id = ${write.boardId}::uuid, tool = ${write.operation}, args_hash = ${hash}, created_at = now()
         WHERE account_id = ${ctx.accountId} AND request_id = ${write.requestId}::uuid`;
    },
    save: async (result) => {
      await tx.$executeRaw`
        UPDATE idempotency_records SET result = ${JSON.stringify(result)}::jsonb WHERE account_id = ${ctx.accountId} AND request_id = ${write.requestId}::uuid`;
    },
  };
}

/** A hash of the operation and its arguments, independent of key order and of the order of tag ids. */
export function argsHash(operation: string, args: Record<string, unknown>): string {
  return createHash("sha256")
    .update(canonical([operation, args]))
    .digest("hex");
}

/** JSON with sorted keys, ids in lower case, tag ids as a set; undefined fields left out. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (value && typeof value === "object") {
    const entries = Object.entries(value).filter(([, v]) => v !== undefined);
    entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([key, v]) => `${JSON.stringify(key)}:${canonical(key === "tagIds" ? asSet(v) : v)}`).join(",")}}`;
  }
  if (typeof value === "string" && uuidPattern.test(value)) return JSON.stringify(value.toLowerCase());
  return JSON.stringify(value ?? null);
}

function asSet(ids: unknown): unknown {
  return Array.isArray(ids) ? ids.map((id) => String(id).toLowerCase()).sort() : ids;
}

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
