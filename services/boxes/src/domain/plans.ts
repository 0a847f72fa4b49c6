/**
 * Account plans (docs/boxes.md#limits): the plan caps a box's vCPUs; "never sleep" and "unlimited run" are for paid plans.
 * An account's plan is a row in account_plans; accounts without one get the service's default plan.
 * Besides the size of one box, a plan caps what the account holds at once (domain/capacity.ts): boxes
 * that hold processes and memory (creating, running, sleeping, suspended, or being started again), and their
 * vCPUs and memory added up; only stopped boxes count nothing. Memory averages 1.5 GiB per
 * vCPU of the total (one box may take 2 GiB per vCPU), so memory-heavy accounts meet the memory cap first.
 * `allowanceCentavos` is what the plan includes each month (get_usage shows it beside the spend).
 * Disk is capped apart (maxTotalDataGiB): the dataGiB of every box not deleted, in any state, and of every snapshot.
 */
import type { BoxesDb } from "../db/client.js";

export const plans = {
  free: {
    maxVcpus: 4,
    paid: false,
    maxRunningBoxes: 3,
    maxTotalVcpus: 8,
    maxTotalMemMiB: 12_288,
    allowanceCentavos: 1_000,
    maxTotalDataGiB: 1_000,
  },
  pro: {
    maxVcpus: 16,
    paid: true,
    maxRunningBoxes: 10,
    maxTotalVcpus: 64,
    maxTotalMemMiB: 98_304,
    allowanceCentavos: 10_000,
    maxTotalDataGiB: 10_000,
  },
  scale: {
    maxVcpus: 32,
    paid: true,
    maxRunningBoxes: 50,
    maxTotalVcpus: 256,
    maxTotalMemMiB: 393_216,
    allowanceCentavos: 50_000,
    maxTotalDataGiB: 50_000,
  },
} as const;
export type PlanName = keyof typeof plans;
export type Plan = (typeof plans)[PlanName] & { name: PlanName };

/** The plan of the context's account (a use case's context, or anything holding what the lookup needs). */
export async function planOf(ctx: { db: BoxesDb; accountId: string; defaultPlan: PlanName }): Promise<Plan> {
  const row = await ctx.db.accountPlan.findUnique({ where: { accountId: ctx.accountId } });
  const name = row && row.plan in plans ? (row.plan as PlanName) : ctx.defaultPlan;
  return { name, ...plans[name] };
}
