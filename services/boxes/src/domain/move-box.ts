/**
 * Moving boxes off a drained node (`bancada boxes drain <node>`): every stopped box there is carried, disk and job
 * logs, to a node placement picks for it (placement.ts, as for a new box of its size and template). Boxes with
 * processes — running, sleeping, suspended — stay where they are and are served as before: moving them would end
 * their processes. A box with published ports stays too (its ports' addresses are its node's: moving would change
 * them under whoever uses them). Any control-plane replica moves; a box is moved by one, the one whose claim wins.
 *
 * One move, as the state machine's `move` operation (transitions.ts), so that start_box, delete_box and the rest
 * answer failed_precondition meanwhile instead of racing it:
 *   1. claim `move` on the stopped box, with its destination in the operation;
 *   2. the destination's agent imports the disk from a URL of the source node signed for this move (the
 *      source node's transfer route serves its `exportDisk`; the bytes go node to node, not through here);
 *   3. in one transaction, still under the claim: the box's node becomes the destination and the claim ends;
 *   4. the source's copy is removed.
 * A failure at 2 removes what the destination received and ends the claim: the box stays, whole, where it was. A
 * claim whose replica died is ended after `moveTimeoutMs` by whichever replica looks next.
 */
import { DomainError, ErrorCode } from "@bancada/contracts";
import type { BoxRow } from "../db/client.js";
import type { DownloadStream } from "../driver/box-driver.js";
import { operationOf, type Operation } from "./box-view.js";
import type { BoxesContext, BoxesRuntime } from "./context.js";
import { boxHandle } from "./find-box.js";
import { nodeIsUp, placeBox } from "./placement.js";
import { nodeTransferUrl, servedHere, type NodeTransferRequest } from "./transfers/node-transfer.js";
import { claimOperation, newOperation, releaseOperation } from "./transitions.js";

/** A move whose claim is older than this is over (the import's own deadline is 10 minutes). */
const moveTimeoutMs = 15 * 60_000;
/** A box that could not be moved is tried again after this long (its reason is logged once per try). */
const retryAfterMs = 60_000;

interface MoveOperation extends Operation {
  kind: "move";
  /** The node the box is being moved to. */
  to: string;
}

/**
 * One round (every 2 s on each control-plane replica): the stopped boxes of drained nodes, moved one by one.
 * `failures`: when each box last failed to move, kept by the caller between rounds (a box is retried after a minute).
 */
export async function moveDrainedBoxes(rt: BoxesRuntime, failures: Map<string, number>): Promise<string[]> {
  await endStaleMoves(rt);
  const due = await rt.db.$queryRaw<{ id: string }[]>`
    SELECT b.id FROM boxes b JOIN box_nodes n ON n.node = b.node
     WHERE n.draining AND b.driver = ${rt.driver.kind} AND b.state = 'stopped' AND b.operation IS NULL
       AND NOT EXISTS (SELECT 1 FROM box_ports p WHERE p.box_id = b.id)
     ORDER BY b.state_changed_at, b.id LIMIT 20`;
  const moved: string[] = [];
  for (const { id } of due) {
    if ((failures.get(id) ?? 0) > Date.now() - retryAfterMs) continue;
    try {
      if (await moveBox(rt, id)) moved.push(id);
      failures.delete(id);
    } catch (error) {
      failures.set(id, Date.now());
      rt.log.warn(
        { boxId: id, reason: error instanceof Error ? error.message : String(error) },
        "a box could not be moved off its drained node",
      );
    }
  }
  return moved;
}

/** Moves one stopped box to the node placement picks; false when another replica (or a call) took it first. */
async function moveBox(rt: BoxesRuntime, boxId: string): Promise<boolean> {
  const box = await rt.db.box.findUnique({ where: { id: boxId } });
  if (!box || box.state !== "stopped" || box.operation !== null) return false;
  const ctx: BoxesContext = { ...rt, accountId: box.accountId, personId: box.createdBy, agentId: "drain" };
  const to = await placeBox(rt, box.accountId, { vcpus: box.vcpus, memMiB: box.memMiB, dataGiB: box.dataGiB, template: box.template });
  if (to === null || to === box.node) throw new Error("no other node is up to take it");
  const source = await nodeIsUp(rt, box.node);
  if (!source?.up) throw new Error(`its node ${box.node} is down: its disk cannot be read`);
  if (!source.publicUrl) throw new Error(`its node ${box.node} records no BOXES_PUBLIC_URL: its disk cannot be read`);
  const operation: MoveOperation = { ...newOperation(ctx, "move"), kind: "move", to };
  if (!(await claimOperation(rt.db, ctx, box.id, operation, ["stopped"]))) return false;
  const started = performance.now();
  const target = await rt.nodes.answeringDriverFor(to, `box ${box.id}`).catch(async (error: unknown) => {
    await releaseOperation(rt.db, box.id, operation);
    throw error;
  });
  let bytes: number;
  try {
    const url = nodeTransferUrl(
      rt,
      { op: "move", accountId: box.accountId, id: box.id, to },
      { node: box.node, publicUrl: source.publicUrl },
    );
    ({ bytes } = await target.importDisk({ id: box.id, runtime: null }, url));
  } catch (error) {
    await releaseOperation(rt.db, box.id, operation);
    throw error;
  }
  if (!(await commitMove(rt, box, operation))) {
    // taken over meanwhile (a delete_box settled by a restart, say): the copy goes, the box stays
    await target.destroy({ id: box.id, runtime: null }).catch(() => {});
    return false;
  }
  rt.log.info({ boxId: box.id, from: box.node, to, bytes, ms: Math.round(performance.now() - started) }, "box moved off a drained node");
  await rt.nodes
    .driverFor(box.node, `box ${box.id}`)
    .then((left) => left.destroy(boxHandle(box)))
    .catch((error: unknown) =>
      rt.log.warn({ err: error, boxId: box.id, node: box.node }, "the moved box's old disk stays on its drained node: remove it there"),
    );
  return true;
}

/** The box is the destination's from now on: one conditional write, under the claim it started with. */
async function commitMove(rt: BoxesRuntime, box: BoxRow, operation: MoveOperation): Promise<boolean> {
  const changed = await rt.db.$executeRaw`
    UPDATE boxes SET node = ${operation.to}, runtime = NULL, operation = NULL, version = version + 1, updated_at = now()
     WHERE id = ${box.id} AND node = ${box.node} AND operation->>'kind' = 'move'
       AND operation->>'startedAt' = ${operation.startedAt} AND operation->>'instance' = ${operation.instance}`;
  return changed === 1;
}

/** Moves whose replica died (or hung) past moveTimeoutMs: the claim ends, what the destination received goes. */
async function endStaleMoves(rt: BoxesRuntime): Promise<void> {
  const stale = await rt.db.$queryRaw<{ id: string; operation: MoveOperation }[]>`
    SELECT id, operation FROM boxes
     WHERE operation->>'kind' = 'move' AND (operation->>'startedAt')::timestamptz < now() - make_interval(secs => ${moveTimeoutMs / 1000})`;
  for (const { id, operation } of stale) {
    const target = await rt.nodes.driverFor(operation.to, `box ${id}`).catch(() => null);
    await target?.destroy({ id, runtime: null }).catch(() => {});
    await releaseOperation(rt.db, id, operation);
    rt.log.warn({ boxId: id, to: operation.to }, "a move that did not finish was ended: the box stays where it was");
  }
}

/**
 * The source node's side (its transfer route): the URL must be signed for this box and destination, unexpired, on
 * the box's own node, and the box must be stopped and claimed for a move to that destination.
 */
export async function openDiskExport(rt: BoxesRuntime, request: NodeTransferRequest): Promise<DownloadStream> {
  const found = servedHere(rt, "move", request, await rt.db.box.findUnique({ where: { id: request.id } }), "Box");
  const operation = operationOf(found) as MoveOperation | null;
  if (found.state !== "stopped" || operation?.kind !== "move" || operation.to !== request.to)
    throw new DomainError(ErrorCode.failedPrecondition, `Box ${found.id} is not being moved to node ${request.to}.`, { boxId: found.id });
  return rt.driver.exportDisk(boxHandle(found));
}
