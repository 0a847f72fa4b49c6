/**
 * The change feed. Numbers are handed out per account under the feed head's row lock, which is held
 * until the write commits: changes become visible in number order and without gaps, so a reader that
 * follows the feed sees every change exactly once, in order.
 */
import type { ScriptsTx } from "../db/client.js";

export type ChangeKind = "created" | "updated" | "trashed" | "restored";

export async function appendChange(
  tx: ScriptsTx,
  change: { accountId: string; scriptId: string; revision: number; kind: ChangeKind; at: Date },
): Promise<void> {
  const [head] = await tx.$queryRaw<{ last_seq: bigint }[]>`
    INSERT INTO feed_heads (account_id, last_seq) VALUES (${change.accountId}, 1)
    ON CONFLICT (account_id) DO UPDATE SET last_seq = feed_heads.last_seq + 1
    RETURNING last_seq`;
  await tx.change.create({
    data: {
      accountId: change.accountId,
      seq: head!.last_seq,
      scriptId: change.scriptId,
      revision: change.revision,
      kind: change.kind,
      at: change.at,
    },
  });
}
