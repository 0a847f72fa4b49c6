/**
 * The use of a transfer URL: its signature and expiry are checked before anything else happens (403 either way,
 * with nothing read or written), then the box is found by the id the URL was signed for, in the account it was
 * signed for, and woken like exec would wake it. It must have entered the box's own node (docs/boxes.md).
 */
import { DomainError, ErrorCode } from "@bancada/contracts";
import type { BoxRow } from "../../db/client.js";
import { awakeBox, recordActivity } from "../awake.js";
import type { BoxesContext, BoxesRuntime } from "../context.js";
import { signatureMatches, type TransferOp } from "./signing.js";

export interface TransferRequest {
  op: TransferOp;
  boxId: string;
  path: string;
  variant: string;
  expires: number;
  signature: string;
}

export async function openTransfer(rt: BoxesRuntime, request: TransferRequest): Promise<{ ctx: BoxesContext; box: BoxRow }> {
  const tool = request.op === "upload" ? "get_upload_url" : "get_download_url";
  const found = await rt.db.box.findUnique({ where: { id: request.boxId } });
  const grant = { ...request, accountId: found?.accountId ?? "" };
  // checked with the key of the box's node (any replica can tell a good URL that reached the wrong node, below)
  if (!found || !signatureMatches(rt.transfers.keyOf(found.node), grant, request.signature))
    throw new DomainError(
      ErrorCode.permissionDenied,
      `This transfer URL's signature does not match: use the URL exactly as ${tool} gave it, or ask ${tool} for a new one.`,
    );
  if (request.expires * 1000 <= rt.transfers.now())
    throw new DomainError(
      ErrorCode.permissionDenied,
      `This transfer URL expired at ${new Date(request.expires * 1000).toISOString()}; ask ${tool} for a new one.`,
      { expiredAt: new Date(request.expires * 1000).toISOString() },
    );
  if (found.state === "deleted" || found.state === "deleting")
    throw new DomainError(ErrorCode.notFound, `Box ${found.id} was deleted; its files are gone.`, { boxId: found.id });
  // The URL was minted with the box's node's BOXES_PUBLIC_URL (box_nodes): only a deployment that sends one node's
  // URLs to another node lands here, and the bytes are not relayed between them.
  if (found.node !== rt.driver.node)
    throw new DomainError(
      ErrorCode.unavailable,
      `Box ${found.id} lives on node ${found.node}, but this transfer URL reached node ${rt.driver.node}: each boxes replica needs a BOXES_PUBLIC_URL that reaches it alone.`,
      { node: found.node, reachedNode: rt.driver.node },
    );
  const ctx: BoxesContext = { ...rt, accountId: found.accountId, personId: found.createdBy, agentId: "transfer-url" };
  return { ctx, box: await awakeBox(ctx, found.id, request.op === "upload" ? "an upload" : "a download") };
}

/** A transfer is activity: the box must not fall asleep under a long upload or download (see reaper.ts). */
export function keepAwake(rt: BoxesRuntime, boxId: string): () => void {
  const timer = setInterval(() => void recordActivity(rt, boxId), 60_000);
  timer.unref();
  return () => {
    clearInterval(timer);
    void recordActivity(rt, boxId);
  };
}
