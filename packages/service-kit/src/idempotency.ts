/**
 * Idempotent writes, one mechanism for every service. The key's record is claimed with an insert in the write's own
 * transaction: a second call with the same key waits on the unique key until the first commits, then finds the
 * first one's record (or, if the first rolled back, claims the key itself). The same request (same hash) → what
 * the first call stored, nothing written again; another request under the same key → the service's conflict
 * error. A failed write rolls its claim back with it, so it can be retried with the same key.
 *
 * Each service keeps its records in its own table under the names its tools use (`idempotencyKey`,
 * `requestId`, `request_id`); `IdempotencyRecords` is those few statements on that table, bound to one key.
 */

/** A key's record as the first call left it. */
export interface IdempotencyRecord<Stored> {
  /** The hash of the request that claimed the key. */
  hash: string;
  /** What a replay answers from (the result, or the id of what was made). */
  stored: Stored;
  /** Past its keeping time: the key may be claimed anew (only where records are reclaimed rather than swept). */
  expired?: boolean;
}

/** One key's record in a service's own table, within the write's transaction. */
export interface IdempotencyRecords<Stored> {
  /** Inserts the claim (`ON CONFLICT DO NOTHING`): the rows inserted, 1 when this call claimed the key. */
  insert(hash: string): Promise<number>;
  /** The key's record (the insert above has waited for whoever held it); null if it is gone. */
  find(): Promise<IdempotencyRecord<Stored> | null>;
  /** Takes an expired record over for this request. Without it, an expired record still counts. */
  reclaim?(hash: string): Promise<void>;
  /** Stores what a replay will answer. */
  save(stored: Stored): Promise<void>;
}

export type IdempotencyClaim<Stored> = { kind: "claimed" } | { kind: "replay"; stored: Stored };

/**
 * Claims the key for the request `hash`: `claimed` (run the write, then `records.save`) or `replay` with what the
 * first call stored. Another request under the key throws `conflict()`.
 */
export async function claimIdempotencyKey<Stored>(
  records: IdempotencyRecords<Stored>,
  hash: string,
  conflict: () => Error,
): Promise<IdempotencyClaim<Stored>> {
  if ((await records.insert(hash)) > 0) return { kind: "claimed" };
  const previous = await records.find();
  if (!previous) throw conflict();
  if (previous.expired && records.reclaim) {
    await records.reclaim(hash);
    return { kind: "claimed" };
  }
  if (previous.hash !== hash) throw conflict();
  return { kind: "replay", stored: previous.stored };
}

export interface IdempotentWrite<T, Stored> {
  /** The hash of what defines the request (the key itself excluded). */
  hash: string;
  /** The service's own error for a key reused by another request. */
  conflict: () => Error;
  /** The write itself, in the same transaction. */
  run: () => Promise<T>;
  /** What to keep for a replay (the result itself when omitted). */
  keep?: (result: T) => Stored;
  /** A replay's answer from what was kept (what was kept itself when omitted). */
  replay?: (stored: Stored) => T | Promise<T>;
}

/** Claims the key and runs the write, or answers the first call's result: the whole mechanism in one call. */
export async function idempotentWrite<T, Stored = T>(records: IdempotencyRecords<Stored>, write: IdempotentWrite<T, Stored>): Promise<T> {
  const claim = await claimIdempotencyKey(records, write.hash, write.conflict);
  if (claim.kind === "replay") return write.replay ? write.replay(claim.stored) : (claim.stored as unknown as T);
  const result = await write.run();
  await records.save(write.keep ? write.keep(result) : (result as unknown as Stored));
  return result;
}
