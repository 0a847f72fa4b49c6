/**
 * Account plans (seed: "o plano limita" vCPUs; "never sleep" and "unlimited run" are for paid plans).
 * An account's plan is a row in account_plans; accounts without one get the service's default plan.
 */
import type { BoxesContext } from "./context.js";

export const plans = {
  free: { maxVcpus: 4, paid: false },
  pro: { maxVcpus: 16, paid: true },
  scale: { maxVcpus: 32, paid: true },
} as const;
export type PlanName = keyof typeof plans;
export type Plan = (typeof plans)[PlanName] & { name: PlanName };

export async function planOf(ctx: BoxesContext): Promise<Plan> {
  const row = await ctx.db.accountPlan.findUnique({ where: { accountId: ctx.accountId } });
  const name = row && row.plan in plans ? (row.plan as PlanName) : ctx.defaultPlan;
  return { name, ...plans[name] };
}
