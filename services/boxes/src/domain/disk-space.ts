/**
 * Host disk admission (capacity.ts): a new disk is admitted only when it, plus what this node's box disks may
 * still grow to, fits in the data folder's free space × BOXES_DISK_OVERCOMMIT. A box's image is sparse and
 * grows one-for-one with its writes up to its dataGiB, so what it owes is its dataGiB less what it holds now;
 * every box of the node that keeps its disk owes (stopped ones too: they may start again). Snapshots never
 * grow: what they hold is already out of the free space. A driver whose disks are not on this machine has no
 * `diskSpace` and admits every disk (the plan's maxTotalDataGiB still applies).
 */
import { DomainError, ErrorCode } from "@bancada/contracts";
import type { BoxesTx } from "../db/client.js";
import type { BoxesContext } from "./context.js";

const GiB = 1024 ** 3;

export async function checkHostDisk(tx: BoxesTx, ctx: BoxesContext, requestedGiB: number): Promise<void> {
  if (!ctx.driver.diskSpace) return;
  const boxes = await tx.box.findMany({
    where: { driver: ctx.driver.kind, node: ctx.driver.node, state: { notIn: ["deleting", "deleted"] } },
    select: { id: true, dataGiB: true },
  });
  const space = await ctx.driver.diskSpace(boxes.map((box) => box.id));
  const owedBytes = boxes.reduce((sum, box) => sum + Math.max(0, box.dataGiB * GiB - (space.heldBytes.get(box.id) ?? 0)), 0);
  const capacityBytes = space.freeBytes * ctx.capacity.diskOvercommit;
  if (owedBytes + requestedGiB * GiB <= capacityBytes) return;
  const [used, capacity] = [Math.ceil(owedBytes / GiB), Math.floor(capacityBytes / GiB)];
  throw new DomainError(
    ErrorCode.unavailable,
    `This machine cannot hold the box's disk: ${capacity} GiB of disk can be promised here (${Math.floor(space.freeBytes / GiB)} GiB free × ${ctx.capacity.diskOvercommit}), ` +
      `the disks of its boxes may still grow by ${used} GiB, and this box asks for ${requestedGiB} GiB. ` +
      "Try a smaller dataGiB, or again after other boxes are deleted.",
    { resource: "disk", used, requested: requestedGiB, capacity, node: ctx.driver.node },
  );
}
