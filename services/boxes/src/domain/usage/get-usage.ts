/**
 * get_usage: what the caller's account spent on boxes in a month (docs/boxes.md#usage-and-billing). Each box's
 * exact cost (cost.ts) is rounded once, half up, to whole centavos; every other line is a sum of box lines, so
 * the lines by box, kind, agent and person each add up to the total exactly, and a box's line equals the
 * costCentavos its get_box shows for the current month.
 */
import { invalidArgument } from "@bancada/contracts";
import type { BoxesContext } from "../context.js";
import { plans, planOf } from "../plans.js";
import { boxCosts, type StoredSnapshot } from "./cost.js";
import { moneyOf, roundToCentavos } from "./money.js";
import { billingPeriod, billingTimeZone, periodAt, type BillingPeriod } from "./period.js";
import { priceText } from "./prices.js";
import type { GetUsageInput, UsageResult } from "./schemas.js";
import type { BoxesRuntime } from "../context.js";

/**
 * Whose boxes the lines cover: the whole account's (a caller that may read the boxes), or only the boxes the
 * caller's own agent created (any other key of the account: the tool needs no scope, so that an agent can see what
 * it spends, but the spend of other people and agents is theirs). The plan, its allowance and what is left of it
 * are the account's in both.
 */
export type UsageCoverage = "account" | "caller";

export async function getUsage(ctx: BoxesContext, input: GetUsageInput, covers: UsageCoverage = "account"): Promise<UsageResult> {
  const now = ctx.now();
  const current = periodAt(now);
  const period = input.period ?? current;
  if (period > current)
    throw invalidArgument([{ path: "period", message: `${period} has not begun yet; the current month in São Paulo is ${current}` }]);
  const window = billingPeriod(period);
  const asOf = now < window.end ? now : window.end;
  const intervals = await intervalsIn(ctx, ctx.accountId, window);
  const snapshots = await snapshotsIn(ctx, ctx.accountId, window);
  const spent = boxCosts(intervals, ctx.prices, { ...window, openUntil: asOf }, snapshots);
  const ahead = boxCosts(intervals, ctx.prices, { ...window, openUntil: window.end }, snapshots);
  const boxes = await ctx.db.box.findMany({
    where: { accountId: ctx.accountId, id: { in: [...spent.keys()] } },
    select: { id: true, name: true, kind: true, state: true, createdBy: true, createdByAgent: true },
  });
  const accountLines = boxes.map((box) => ({
    box,
    centavos: roundToCentavos(spent.get(box.id)!),
    ahead: roundToCentavos(ahead.get(box.id)!),
  }));
  const accountTotal = accountLines.reduce((sum, line) => sum + line.centavos, 0);
  const lines =
    covers === "account"
      ? accountLines
      : accountLines.filter(({ box }) => box.createdBy === ctx.personId && box.createdByAgent === ctx.agentId);
  const total = lines.reduce((sum, line) => sum + line.centavos, 0);
  const forecast = lines.reduce((sum, line) => sum + line.ahead, 0);
  const plan = await planOf(ctx);
  const allowance = plans[plan.name].allowanceCentavos;
  const sumBy = <K extends string | null>(key: (line: (typeof lines)[number]) => K) => {
    const sums = new Map<K, number>();
    for (const line of lines) sums.set(key(line), (sums.get(key(line)) ?? 0) + line.centavos);
    return [...sums].sort(([a, x], [b, y]) => y - x || String(a).localeCompare(String(b)));
  };
  return {
    period,
    timeZone: billingTimeZone,
    start: window.start.toISOString(),
    end: window.end.toISOString(),
    asOf: asOf.toISOString(),
    currency: "BRL",
    plan: plan.name,
    covers,
    total: moneyOf(total),
    forecast: moneyOf(forecast),
    allowance: moneyOf(allowance),
    allowanceLeft: moneyOf(Math.max(0, allowance - accountTotal)),
    byKind: sumBy((line) => line.box.kind).map(([kind, centavos]) => ({ kind, ...moneyOf(centavos) })),
    byBox: lines
      .sort((a, b) => b.centavos - a.centavos || a.box.id.localeCompare(b.box.id))
      .map(({ box, centavos }) => ({ boxId: box.id, name: box.name, kind: box.kind, state: box.state, ...moneyOf(centavos) })),
    byAgent: sumBy((line) => line.box.createdByAgent).map(([agentId, centavos]) => ({ agentId, ...moneyOf(centavos) })),
    byPerson: sumBy((line) => line.box.createdBy).map(([personId, centavos]) => ({ personId, ...moneyOf(centavos) })),
    prices: priceText(ctx.prices),
  };
}

/** The current month's cost of each box, in centavos (get_box and list_boxes show it as costCentavos). */
export async function costsThisMonth(rt: BoxesRuntime, accountId: string, boxIds: string[]): Promise<Map<string, number>> {
  const now = rt.now();
  const window = billingPeriod(periodAt(now));
  const intervals = await intervalsIn(rt, accountId, window, boxIds);
  const costs = boxCosts(intervals, rt.prices, { ...window, openUntil: now }, await snapshotsIn(rt, accountId, window, boxIds));
  return new Map(boxIds.map((id) => [id, roundToCentavos(costs.get(id) ?? 0n)]));
}

function intervalsIn(rt: BoxesRuntime, accountId: string, window: BillingPeriod, boxIds?: string[]) {
  return rt.db.boxInterval.findMany({
    where: {
      accountId,
      ...(boxIds ? { boxId: { in: boxIds } } : {}),
      startedAt: { lt: window.end },
      OR: [{ endedAt: null }, { endedAt: { gt: window.start } }],
    },
    select: { boxId: true, state: true, startedAt: true, endedAt: true, vcpus: true, memMiB: true, dataGiB: true },
  });
}

/** The account's snapshots stored during the window: ready ones, and deleted ones that were ready (a failed one took no space). */
async function snapshotsIn(rt: BoxesRuntime, accountId: string, window: BillingPeriod, boxIds?: string[]): Promise<StoredSnapshot[]> {
  const rows = await rt.db.snapshot.findMany({
    where: {
      accountId,
      ...(boxIds ? { boxId: { in: boxIds } } : {}),
      createdAt: { lt: window.end },
      OR: [{ state: "ready" }, { state: "deleted", readyAt: { not: null }, deletedAt: { gt: window.start } }],
    },
    select: { boxId: true, createdAt: true, readyAt: true, deletedAt: true, sizeBytes: true, dataGiB: true },
  });
  return rows.map((row) => ({
    boxId: row.boxId,
    since: row.readyAt ?? row.createdAt,
    until: row.deletedAt,
    sizeBytes: row.sizeBytes ?? BigInt(row.dataGiB) << 30n,
  }));
}
