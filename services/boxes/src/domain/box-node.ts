/**
 * The one path: any replica serves any call for any box. A use case acts on a box through the driver of the node
 * that holds it — this replica's own driver when the box is here, else that node's agent over the bus
 * (node/node-drivers.ts `driverFor`). These helpers read what the call names (for the caller's account only), pick
 * that node and give the use case a context whose `driver` is the node's. Another account's box, or none, keeps
 * this replica's context: the use case answers not_found itself and no node is asked anything.
 */
import type { BoxRow } from "../db/client.js";
import type { BoxesContext, BoxesRuntime } from "./context.js";
import { DomainError, ErrorCode } from "@bancada/contracts";
import { nodeDownAfterMs, nodeIsUp, placeBox, placeNear, type NodeReach, type PlacementDemand } from "./placement.js";
import { nodeTransferUrl } from "./transfers/node-transfer.js";

/**
 * The box `ref` names (id or live name) and a context on its node; `box` null when the account has none such.
 * `answering`: for work that records something before the node acts (power, delete, fork, snapshot): see onNode.
 */
export async function onBoxNode(ctx: BoxesContext, ref: string, answering = false): Promise<{ ctx: BoxesContext; box: BoxRow | null }> {
  const where = ref.startsWith("bx_") ? { id: ref, accountId: ctx.accountId } : { liveName: ref, accountId: ctx.accountId };
  const box = await ctx.db.box.findFirst({ where });
  // a deleted box is rows only: this replica answers for it
  if (!box || box.state === "deleted" || box.driver !== ctx.driver.kind) return { ctx, box };
  return { ctx: await onNode(ctx, box.node, `box ${box.id}`, answering), box };
}

/** A context on the node that keeps the caller's snapshot `id` (this replica's when there is none such). */
export async function onSnapshotNode(ctx: BoxesContext, id: string | undefined, answering = false): Promise<BoxesContext> {
  if (id === undefined) return ctx;
  const row = await ctx.db.snapshot.findFirst({
    where: { id, accountId: ctx.accountId },
    select: { id: true, node: true, driver: true, state: true },
  });
  // a deleted snapshot is a row only (its files are gone)
  if (!row || row.state === "deleted" || row.driver !== ctx.driver.kind) return ctx;
  return onNode(ctx, row.node, `snapshot ${row.id}`, answering);
}

/**
 * Where create_box makes the box: where its snapshot is while that node can hold it (else on the node placement
 * picks, which copies the snapshot first: snapshot-copy.ts), else where placement puts it (placement.ts); this
 * replica's own node when no node is registered (its driver then says what it can do).
 */
export async function onNewBoxNode(
  ctx: BoxesContext,
  input: Omit<PlacementDemand, "template"> & { template?: string | undefined; snapshotId?: string | undefined },
): Promise<BoxesContext> {
  if (input.snapshotId !== undefined) return nearSnapshot(ctx, { ...input, snapshotId: input.snapshotId });
  const template = input.template ?? ctx.driver.template.name;
  const resources = { vcpus: input.vcpus, memMiB: input.memMiB, dataGiB: input.dataGiB };
  const node = await placeBox(ctx, ctx.accountId, { ...resources, template });
  if (node !== null) return onNode(ctx, node, "new box", true);
  // no node is up and this replica runs no box (a control plane, or a machine without bubblewrap): its driver
  // answers every call with why, this one too, before anything is written
  if (!ctx.driver.available) ctx.driver.enforcement(resources);
  return ctx;
}

/** A new box from the caller's snapshot: on the snapshot's node, or on another with the URL to copy it from. */
async function nearSnapshot(ctx: BoxesContext, input: Omit<PlacementDemand, "template"> & { snapshotId: string }): Promise<BoxesContext> {
  const row = await ctx.db.snapshot.findFirst({ where: { id: input.snapshotId, accountId: ctx.accountId } });
  // not the caller's, not ready or of another driver: on its node (or here), the use case answers
  if (!row || row.state !== "ready" || row.driver !== ctx.driver.kind) return onSnapshotNode(ctx, input.snapshotId, true);
  const demand = { vcpus: input.vcpus, memMiB: input.memMiB, dataGiB: Math.max(input.dataGiB, row.dataGiB), template: row.template };
  const node = await placeNear(ctx, ctx.accountId, demand, row.node);
  const source = node === null || node === row.node ? null : await nodeIsUp(ctx, row.node);
  if (node === null || !source?.publicUrl) return onNode(ctx, row.node, `snapshot ${row.id}`, true);
  const transfer = { op: "snapshot" as const, accountId: ctx.accountId, id: row.id, to: node };
  return {
    ...(await onNode(ctx, node, "new box", true)),
    snapshotSource: nodeTransferUrl(ctx, transfer, { node: row.node, publicUrl: source.publicUrl }),
  };
}

/**
 * The context whose driver is `node`'s: this replica's own, or the node's agent (a down node answers unavailable).
 * `answering`: the agent is asked first whether it answers (a create records the box before the node makes it).
 */
async function onNode(ctx: BoxesContext, node: string, what: string, answering = false): Promise<BoxesContext> {
  if (node === ctx.driver.node) return ctx;
  const reach = await refuseIfDown(ctx, node, what);
  const driver = answering ? await ctx.nodes.answeringDriverFor(node, what) : await ctx.nodes.driverFor(node, what);
  return {
    ...ctx,
    driver,
    // admitted by what its node holds
    capacity: reach?.capacity ?? ctx.capacity,
    // its published ports listen on its host (the node's proxy, over its agent) and name that host
    ports: ctx.nodes.portsOf(node, driver) ?? ctx.ports,
    // in its own range of host ports, where its proxy listens
    portSettings: reach
      ? { ...ctx.portSettings, publicHost: reach.host, range: reach.portRange ?? ctx.portSettings.range }
      : ctx.portSettings,
    // its boxes' sshCommand names its own SSH endpoint
    ssh: reach ? { host: reach.host, port: reach.sshPort } : ctx.ssh,
    // its transfer URLs enter its own HTTP, signed with the key it checks them with
    transfers: { ...ctx.transfers, publicUrl: reach?.publicUrl ?? ctx.transfers.publicUrl, signingKey: ctx.transfers.keyOf(node) },
  };
}

/**
 * Another node that stopped heartbeating (placement.ts) is down: its boxes answer `unavailable` naming it at once,
 * even where its bus subscription lingers (a hung or cut-off machine), and answer again once it heartbeats. Gives
 * back where the node is reached (null: this replica's own node, or one never registered).
 */
async function refuseIfDown(rt: BoxesRuntime, node: string, what: string): Promise<NodeReach | null> {
  if (node === rt.driver.node) return null;
  const state = await nodeIsUp(rt, node);
  if (!state || state.up) return state;
  const silence = state.silentMs === null ? "it never heartbeat" : `no heartbeat for ${Math.round(state.silentMs / 1000)} s`;
  throw new DomainError(
    ErrorCode.unavailable,
    `The ${what} lives on node ${node}, which is down (${silence}). Retry later (with the same idempotency key): it answers again once its node is back.`,
    { node, reason: "node_down", downAfterMs: nodeDownAfterMs, retryable: true },
  );
}
