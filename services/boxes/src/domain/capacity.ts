/**
 * What an account may run at once (its plan) and what this machine can hold (host admission), checked
 * whenever a box is about to take CPU and memory: create_box, resume_box (from suspended or stopped) and
 * waking a sleeping box. Each check runs in the transaction that records the box or claims its operation,
 * under a Postgres advisory lock per account (and per node for the host), so two racing calls are counted
 * one after the other and cannot both pass.
 *  - Account: every box that holds processes counts — creating, running, and sleeping or suspended (a frozen
 *    box keeps its memory on the machine) — and stopped boxes whose start is under way; only stopped boxes
 *    count nothing. Over the plan: failed_precondition.
 *  - Host: the same boxes of this node, all accounts together. Memory is never overcommitted; vCPUs up to the
 *    configured overcommit. Over it: unavailable (the request is fine, this machine is full).
 *  - Share: one account may hold at most BOXES_ACCOUNT_SHARE percent (default 50) of this node's memory and
 *    vCPUs, so that no plan, however large, lets one account take a node and leave other accounts only
 *    `unavailable`. Over it: failed_precondition (the account's own boxes on this node are what to free).
 *  - Disk (new disks only: create_box, fork_box): a box image is sparse and grows one-for-one with its writes,
 *    so what this node's images may still grow to (their dataGiB less what they hold now, disk-space.ts) plus
 *    the new disk must fit in the data folder's free space × BOXES_DISK_OVERCOMMIT. Over it: unavailable.
 */
import { DomainError, ErrorCode } from "@bancada/contracts";
import type { HostCapacity } from "./host-settings.js";
import type { BoxesTx } from "../db/client.js";
import { Prisma } from "../db/generated/client.js";
import type { BoxesContext } from "./context.js";
import { checkHostDisk } from "./disk-space.js";
import type { Plan } from "./plans.js";

export interface Demand {
  vcpus: number;
  memMiB: number;
  /** Boxes about to run (default 1; fork_box asks for its copies at once, save_snapshot for none). */
  boxes?: number;
  /** Disk about to be taken (new boxes and snapshots; a box that runs again takes none more). */
  dataGiB?: number;
}

interface Usage {
  boxes: number;
  vcpus: number;
  memMiB: number;
}

/** Locks the account (and, with `host`, the node) for the rest of the transaction, then checks both. */
export async function admit(
  tx: BoxesTx,
  ctx: BoxesContext,
  plan: Plan,
  demand: Demand,
  options: { exceptBoxId?: string; host: boolean },
): Promise<void> {
  const except = options.exceptBoxId ?? "";
  await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext('bancada-boxes account'), hashtext(${ctx.accountId}))`;
  checkAccount(plan, await accountUsage(tx, ctx.accountId, except), demand);
  if (demand.dataGiB) checkDisk(plan, await accountDisk(tx, ctx.accountId), demand.dataGiB);
  if (!options.host) return;
  await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext('bancada-boxes node'), hashtext(${ctx.driver.node}))`;
  checkHost(ctx.capacity, ctx.driver.node, await hostUsage(tx, ctx, except), demand);
  checkShare(ctx.capacity, ctx.driver.node, await accountUsage(tx, ctx.accountId, except, ctx), demand);
  if (demand.dataGiB && (demand.boxes ?? 1) > 0) await checkHostDisk(tx, ctx, demand.dataGiB);
}

/** The boxes that hold processes (and so memory): see the top of this file. */
const holdsProcesses = Prisma.sql`(state IN ('creating', 'running', 'sleeping', 'suspended') OR operation->>'kind' = 'start')`;

/** The account's boxes that hold processes: everywhere (its plan), or on this node (its share of the node). */
async function accountUsage(tx: BoxesTx, accountId: string, except: string, onNode?: BoxesContext): Promise<Usage> {
  const node = onNode ? Prisma.sql`AND driver = ${onNode.driver.kind} AND node = ${onNode.driver.node}` : Prisma.empty;
  const [row] = await tx.$queryRaw<Usage[]>`
    SELECT count(*)::int AS boxes, coalesce(sum(vcpus), 0)::int AS vcpus, coalesce(sum(mem_mib), 0)::int AS "memMiB"
      FROM boxes
     WHERE account_id = ${accountId} AND id <> ${except} ${node} AND ${holdsProcesses}`;
  return row!;
}

async function hostUsage(tx: BoxesTx, ctx: BoxesContext, except: string): Promise<Usage> {
  const [row] = await tx.$queryRaw<Usage[]>`
    SELECT count(*)::int AS boxes, coalesce(sum(vcpus), 0)::int AS vcpus, coalesce(sum(mem_mib), 0)::int AS "memMiB"
      FROM boxes
     WHERE driver = ${ctx.driver.kind} AND node = ${ctx.driver.node} AND id <> ${except} AND ${holdsProcesses}`;
  return row!;
}

/** GiB of disk the account holds: every box not deleted, in any state, and every snapshot not failed. */
async function accountDisk(tx: BoxesTx, accountId: string): Promise<number> {
  const [row] = await tx.$queryRaw<{ gib: number }[]>`
    SELECT ((SELECT coalesce(sum(data_gib), 0) FROM boxes WHERE account_id = ${accountId} AND state <> 'deleted')
          + (SELECT coalesce(sum(data_gib), 0) FROM snapshots WHERE account_id = ${accountId} AND state NOT IN ('failed', 'deleted')))::int AS gib`;
  return row!.gib;
}

function checkDisk(plan: Plan, used: number, requested: number): void {
  if (used + requested <= plan.maxTotalDataGiB) return;
  throw new DomainError(
    ErrorCode.failedPrecondition,
    `This workspace's plan (${plan.name}) allows ${plan.maxTotalDataGiB} GiB of disk in boxes and snapshots; ${used} are in use and this needs ${requested}. ` +
      "Delete a box first, or move to a larger plan.",
    { limit: "dataGiB", used, requested, max: plan.maxTotalDataGiB, plan: plan.name },
  );
}

function checkAccount(plan: Plan, used: Usage, demand: Demand): void {
  const boxes = demand.boxes ?? 1;
  if (boxes === 0) return;
  const limits = [
    { limit: "runningBoxes", max: plan.maxRunningBoxes, used: used.boxes, requested: boxes, unit: "running boxes" },
    { limit: "vcpus", max: plan.maxTotalVcpus, used: used.vcpus, requested: demand.vcpus, unit: "vCPUs in running boxes" },
    { limit: "memMiB", max: plan.maxTotalMemMiB, used: used.memMiB, requested: demand.memMiB, unit: "MiB of memory in running boxes" },
  ];
  for (const { limit, max, used: inUse, requested, unit } of limits) {
    if (inUse + requested <= max) continue;
    throw new DomainError(
      ErrorCode.failedPrecondition,
      `This workspace's plan (${plan.name}) allows ${max} ${unit} at once; ${inUse} are in use and this box needs ${requested}. ` +
        "Sleeping and suspended boxes count (they keep their memory): delete a box first, or move to a larger plan.",
      { limit, used: inUse, requested, max, plan: plan.name },
    );
  }
}

/** One account's part of this node: at most accountSharePercent of its memory and of its vCPUs. */
function checkShare(capacity: HostCapacity, node: string, used: Usage, demand: Demand): void {
  const share = capacity.accountSharePercent;
  const resources = [
    {
      resource: "memMiB",
      used: used.memMiB,
      requested: demand.memMiB,
      max: Math.floor((capacity.memMiB * share) / 100),
      unit: "MiB of memory",
    },
    { resource: "vcpus", used: used.vcpus, requested: demand.vcpus, max: Math.floor((capacity.vcpus * share) / 100), unit: "vCPUs" },
  ];
  for (const { resource, used: inUse, requested, max, unit } of resources) {
    if (requested === 0 || inUse + requested <= max) continue;
    throw new DomainError(
      ErrorCode.failedPrecondition,
      `One workspace may hold at most ${share}% of this machine's boxes' ${unit} (${max}), so that other workspaces keep room; ` +
        `this workspace's boxes here hold ${inUse} (sleeping and suspended ones too) and this box needs ${requested}. Delete a box first, or try a smaller one.`,
      { limit: "nodeShare", resource, used: inUse, requested, max, sharePercent: share, node },
    );
  }
}

function checkHost(capacity: HostCapacity, node: string, used: Usage, demand: Demand): void {
  if (used.memMiB + demand.memMiB > capacity.memMiB) {
    throw new DomainError(
      ErrorCode.unavailable,
      `This machine cannot hold the box: its boxes hold ${used.memMiB} of the ${capacity.memMiB} MiB of memory it gives to boxes ` +
        `(${capacity.hostMemMiB} MiB less ${capacity.reserveMiB} MiB kept for the host; memory is never overcommitted) and this box needs ${demand.memMiB} MiB. ` +
        "Try a smaller box, or again after other boxes stop.",
      { resource: "memMiB", used: used.memMiB, requested: demand.memMiB, capacity: capacity.memMiB, node },
    );
  }
  if (used.vcpus + demand.vcpus > capacity.vcpus) {
    throw new DomainError(
      ErrorCode.unavailable,
      `This machine cannot hold the box: its boxes have ${used.vcpus} of the ${capacity.vcpus} vCPUs it hands out ` +
        `(${capacity.cores} cores × ${capacity.overcommit}) and this box needs ${demand.vcpus}. Try a smaller box, or again after other boxes stop.`,
      { resource: "vcpus", used: used.vcpus, requested: demand.vcpus, capacity: capacity.vcpus, node },
    );
  }
}

/**
 * The next box's host uid: never one given before (see the migration that made the sequence). The driver's warm pool
 * takes its boxes' uids here too (outside any transaction), so a box started ahead has a uid no other box had.
 */
export async function nextHostUid(tx: Pick<BoxesTx, "$queryRaw">, ctx: Pick<BoxesContext, "uids">): Promise<number> {
  const [row] = await tx.$queryRaw<{ n: number }[]>`SELECT nextval('boxes_host_uid_seq')::int AS n`;
  const n = row!.n;
  if (n > ctx.uids.count) {
    throw new DomainError(
      ErrorCode.unavailable,
      `Every host uid for boxes is used (${ctx.uids.count} from ${ctx.uids.base}); raise BOXES_UID_COUNT.`,
      { uidBase: ctx.uids.base, uidCount: ctx.uids.count },
    );
  }
  return ctx.uids.base + n - 1;
}
