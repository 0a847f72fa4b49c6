/**
 * What an account may run at once (its plan) and what this machine can hold (host admission), checked
 * whenever a box is about to take CPU and memory: create_box, resume_box (from suspended or stopped) and
 * waking a sleeping box. Each check runs in the transaction that records the box or claims its operation,
 * under a Postgres advisory lock per account (and per node for the host), so two racing calls are counted
 * one after the other and cannot both pass.
 *  - Account: boxes creating or running, and boxes whose resume or start is under way, count; suspended,
 *    sleeping and stopped boxes cost nothing and count nothing. Over the plan: failed_precondition.
 *  - Host: every box of this node that holds processes counts (a frozen box keeps its memory), and boxes
 *    whose start is under way. Memory is never overcommitted; vCPUs up to the configured overcommit.
 *    Over it: unavailable (the request is fine, this machine is full).
 */
import { DomainError, ErrorCode } from "@bancada/contracts";
import type { HostCapacity } from "../config.js";
import type { BoxesTx } from "../db/client.js";
import type { BoxesContext } from "./context.js";
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
}

async function accountUsage(tx: BoxesTx, accountId: string, except: string): Promise<Usage> {
  const [row] = await tx.$queryRaw<Usage[]>`
    SELECT count(*)::int AS boxes, coalesce(sum(vcpus), 0)::int AS vcpus, coalesce(sum(mem_mib), 0)::int AS "memMiB"
      FROM boxes
     WHERE account_id = ${accountId} AND id <> ${except}
       AND (state IN ('creating', 'running') OR operation->>'kind' IN ('resume', 'start'))`;
  return row!;
}

async function hostUsage(tx: BoxesTx, ctx: BoxesContext, except: string): Promise<Usage> {
  const [row] = await tx.$queryRaw<Usage[]>`
    SELECT count(*)::int AS boxes, coalesce(sum(vcpus), 0)::int AS vcpus, coalesce(sum(mem_mib), 0)::int AS "memMiB"
      FROM boxes
     WHERE driver = ${ctx.driver.kind} AND node = ${ctx.driver.node} AND id <> ${except}
       AND (state IN ('creating', 'running', 'sleeping', 'suspended') OR operation->>'kind' = 'start')`;
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
        "Suspend, stop or delete a box first, or move to a larger plan.",
      { limit, used: inUse, requested, max, plan: plan.name },
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

/** The next box's host uid: never one given before (see the migration that made the sequence). */
export async function nextHostUid(tx: BoxesTx, ctx: BoxesContext): Promise<number> {
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
