/**
 * Which node must run a call (service-kit owner-route.ts): a box lives on the node that holds its disk and
 * processes, a snapshot on the node that saved it. Looked up for the caller's account only: a box of another
 * account (or none) has no owner here, so the replica that received the call answers not_found itself, and
 * nothing of another account is ever forwarded.
 */
import type { BoxRow } from "../db/client.js";
import type { BoxesRuntime } from "./context.js";
import { DomainError, ErrorCode } from "@bancada/contracts";
import { nodeDownAfterMs, nodeIsUp, placeBox, type PlacementDemand } from "./placement.js";

export interface Owner {
  node: string;
  what: string;
}

/**
 * With `handOver`, the whole row is read (it costs the same round trip) and, when the box lives here, handed to the
 * call's handler as `found` (service-kit ToolOwner, `ctx.owner`): exec then reads its box once.
 */
export async function ownerOfBox(rt: BoxesRuntime, accountId: string, ref: string, handOver = false): Promise<Owner | null> {
  const where = ref.startsWith("bx_") ? { id: ref, accountId } : { liveName: ref, accountId };
  const row = handOver
    ? await rt.db.box.findFirst({ where })
    : await rt.db.box.findFirst({ where, select: { id: true, node: true, driver: true, state: true } });
  // a deleted box is rows only: any replica answers for it
  if (!row || row.state === "deleted" || row.driver !== rt.driver.kind) return null;
  await refuseIfDown(rt, row.node, `box ${row.id}`);
  return { node: row.node, what: `box ${row.id}`, ...(handOver && row.node === rt.driver.node ? { found: row as BoxRow } : {}) };
}

export async function ownerOfSnapshot(rt: BoxesRuntime, accountId: string, id: string | undefined): Promise<Owner | null> {
  if (id === undefined) return null;
  const row = await rt.db.snapshot.findFirst({ where: { id, accountId }, select: { id: true, node: true, driver: true, state: true } });
  // a deleted snapshot is a row only (its files are gone): any replica answers for it
  if (!row || row.state === "deleted" || row.driver !== rt.driver.kind) return null;
  await refuseIfDown(rt, row.node, `snapshot ${row.id}`);
  return { node: row.node, what: `snapshot ${row.id}` };
}

/**
 * Where create_box runs: a box from a snapshot where the snapshot is, any other where placement puts it
 * (placement.ts); null when no node is registered (this replica answers, as its driver says).
 */
export async function ownerOfNewBox(
  rt: BoxesRuntime,
  accountId: string,
  input: Omit<PlacementDemand, "template"> & { template?: string; snapshotId?: string },
): Promise<Owner | null> {
  if (input.snapshotId !== undefined) return ownerOfSnapshot(rt, accountId, input.snapshotId);
  const template = input.template ?? rt.driver.template.name;
  const node = await placeBox(rt, accountId, { vcpus: input.vcpus, memMiB: input.memMiB, dataGiB: input.dataGiB, template });
  return node === null ? null : { node, what: "new box" };
}

/**
 * Another node that stopped heartbeating (placement.ts) is down: its boxes answer `unavailable` naming it at once,
 * even where its bus subscription lingers (a hung or cut-off machine), and answer again once it heartbeats.
 */
async function refuseIfDown(rt: BoxesRuntime, node: string, what: string): Promise<void> {
  if (node === rt.driver.node) return;
  const state = await nodeIsUp(rt, node);
  if (!state || state.up) return;
  const silence = state.silentMs === null ? "it never heartbeat" : `no heartbeat for ${Math.round(state.silentMs / 1000)} s`;
  throw new DomainError(
    ErrorCode.unavailable,
    `The ${what} lives on node ${node}, which is down (${silence}). Retry later (with the same idempotency key): it answers again once its node is back.`,
    { node, reason: "node_down", downAfterMs: nodeDownAfterMs, retryable: true },
  );
}
