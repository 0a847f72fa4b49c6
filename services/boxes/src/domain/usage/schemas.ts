/** get_usage: the month's spend of the workspace, in reais and centavos. */
import { z } from "zod";
import { money } from "./money.js";

/** A month from 2000-01 on (a year below 100 was read as 19xx: `0000-01` reported January 1900). */
const periodPattern = /^2\d{3}-(0[1-9]|1[0-2])$/;

export const getUsageInput = z.strictObject({
  period: z
    .string()
    .regex(periodPattern, "must be a month as YYYY-MM from 2000-01 on (e.g. 2026-03): the year 2000–2999, a hyphen, the month 01–12")
    .optional()
    .describe("Month YYYY-MM (default: the current month in the America/Sao_Paulo time zone)."),
});
export type GetUsageInput = z.infer<typeof getUsageInput>;

const line = <T extends z.ZodRawShape>(shape: T) => z.object({ ...shape, ...money.shape });

export const usageResult = z.object({
  period: z.string(),
  timeZone: z.string(),
  start: z.string().describe("When the month began (local midnight, as an ISO instant)."),
  end: z.string().describe("When it ends (exclusive)."),
  asOf: z.string().describe("The instant the spend was counted to (now for the current month)."),
  currency: z.literal("BRL"),
  plan: z.string(),
  covers: z
    .enum(["account", "caller"])
    .describe(
      "account: every box of the workspace (a key with boxes:read); caller: only the boxes this key's agent created (any other key). allowance and allowanceLeft are the workspace's either way.",
    ),
  total: money.describe("Spent so far this month: the sum of the byBox lines."),
  forecast: money.describe("The month's total if every box stays as it is now until the month ends (past months: the total)."),
  allowance: money.describe("What the plan includes each month."),
  allowanceLeft: money.describe("The allowance minus the total, never below zero."),
  byKind: z.array(line({ kind: z.string().nullable().describe("metadata.kind of the boxes; null: boxes without one.") })),
  byBox: z.array(line({ boxId: z.string(), name: z.string(), kind: z.string().nullable(), state: z.string() })),
  byAgent: z.array(line({ agentId: z.string() })),
  byPerson: z.array(line({ personId: z.string() })),
  prices: z
    .object({ vcpuSecond: z.string(), mibSecond: z.string(), diskGiBMonth: z.string(), snapshotGiBMonth: z.string() })
    .describe("The price table in reais: per vCPU-second and MiB-second while running, per GiB-month of disk until deleted, of snapshots."),
});
export type UsageResult = z.infer<typeof usageResult>;
