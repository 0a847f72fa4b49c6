/** How a node agent's operation that could not be asked names what it acts on and why (node-client.ts). */
import { DomainError, ErrorCode } from "@bancada/contracts";
import { BusFailure, BusRequestError } from "@bancada/service-kit";
import type { NodeOperation } from "./node-operations.js";

/** What an operation acts on, as its failure names it: a snapshot's files (kept on its node), else the box. */
export function thingOf(op: NodeOperation, args: unknown[], box: string | null): string {
  const snapshot = (op === "deleteSnapshot" || op === "importSnapshot" ? args[0] : op === "createFromCopy" ? args[1] : undefined) as
    { id?: string } | undefined;
  if (snapshot?.id) return `snapshot ${snapshot.id}`;
  return box ? `box ${box}` : "node agent";
}

/**
 * What a failure to reach a node answers, naming it: `deadline_exceeded` when its agent did not answer in time, else
 * `unavailable` (no agent of the node, one that died mid-operation, the bus cut). Retryable: it answers again once
 * its node is back.
 */
export function unreachable(error: unknown, node: string, what: string): DomainError {
  const reason = error instanceof BusRequestError ? error.reason : BusFailure.lost;
  const details = { node, reason };
  if (reason === BusFailure.timeout)
    return new DomainError(ErrorCode.deadlineExceeded, `The ${what} on node ${node} did not answer before the call's deadline.`, details);
  const why =
    reason === BusFailure.noResponders
      ? `its host is down: no agent of node ${node} is running`
      : reason === BusFailure.responderLost
        ? `its host stopped answering while it ran the operation (its agent died or was cut off; the operation may have run)`
        : `node ${node} could not be reached (${reason})`;
  return new DomainError(
    ErrorCode.unavailable,
    `The ${what} lives on node ${node} and ${why}. Retry later (with the same idempotency key): it answers again once its node is back.`,
    { ...details, retryable: true },
  );
}
