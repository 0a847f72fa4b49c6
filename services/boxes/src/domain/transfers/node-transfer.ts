/**
 * URLs at which one node reads another node's disk bytes, node to node (never through the control plane): a stopped
 * box's disk moving off a drained node (move-box.ts) and a snapshot copied to the node a box made from it goes to
 * (snapshot-copy.ts). The control plane mints them, signed with the transfer key of the node that serves them
 * (node/node-key.ts), for one box or snapshot, one destination node and 15 minutes; that node checks them.
 */
import { DomainError, ErrorCode } from "@bancada/contracts";
import type { BoxesRuntime } from "../context.js";
import { signatureMatches, signGrant, type TransferGrant } from "./signing.js";

type NodeTransferOp = "move" | "snapshot";

/** What one URL is for: a box's disk (`move`) or a snapshot's files (`snapshot`) of `accountId`, read by node `to`. */
export interface NodeTransfer {
  op: NodeTransferOp;
  accountId: string;
  /** The box's or the snapshot's id. */
  id: string;
  to: string;
}

/** What the serving node's route is given: the box's or snapshot's id from the path, the rest from the query. */
export interface NodeTransferRequest {
  id: string;
  to: string;
  expires: number;
  signature: string;
}

const lifetimeSeconds = 15 * 60;
const routeOf: Record<NodeTransferOp, string> = { move: "disk", snapshot: "snapshot" };

const grantOf = (transfer: NodeTransfer, expires: number): TransferGrant => ({
  op: transfer.op,
  accountId: transfer.accountId,
  boxId: transfer.id,
  path: "",
  variant: transfer.to,
  expires,
});

/** The URL on node `from` (reached at its BOXES_PUBLIC_URL, `publicUrl`), signed with that node's transfer key. */
export function nodeTransferUrl(rt: BoxesRuntime, transfer: NodeTransfer, from: { node: string; publicUrl: string }): string {
  const expires = Math.floor(rt.transfers.now() / 1000) + lifetimeSeconds;
  const signature = signGrant(rt.transfers.keyOf(from.node), grantOf(transfer, expires));
  const query = new URLSearchParams({ to: transfer.to, expires: String(expires), signature });
  return `${from.publicUrl}/boxes/transfers/${routeOf[transfer.op]}/${transfer.id}?${query}`;
}

/**
 * The serving node's check, before anything is read: `found` (the box or snapshot the URL names, null: none) must be
 * what the URL was signed for — this thing of its account, this destination, with the key of the node it is on —
 * unexpired (403 otherwise), and on this node. `what` names it in the errors ("Box", "Snapshot").
 */
export function servedHere<T extends { id: string; accountId: string; node: string }>(
  rt: BoxesRuntime,
  op: NodeTransferOp,
  request: NodeTransferRequest,
  found: T | null,
  what: string,
): T {
  const transfer = { op, accountId: found?.accountId ?? "", id: request.id, to: request.to };
  if (!signatureMatches(rt.transfers.keyOf(found?.node ?? ""), grantOf(transfer, request.expires), request.signature))
    throw new DomainError(ErrorCode.permissionDenied, "This URL's signature does not match: only the boxes control plane hands them out.");
  if (request.expires * 1000 <= rt.transfers.now())
    throw new DomainError(ErrorCode.permissionDenied, `This URL expired at ${new Date(request.expires * 1000).toISOString()}.`);
  if (!found) throw new DomainError(ErrorCode.notFound, `${what} ${request.id} does not exist.`);
  if (found.node !== rt.driver.node)
    throw new DomainError(ErrorCode.unavailable, `${what} ${found.id} is on node ${found.node}, not on node ${rt.driver.node}.`, {
      node: found.node,
    });
  return found;
}
