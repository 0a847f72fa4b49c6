/**
 * Reading the audit trail: newest first, one account (or, for the admin CLI, every account), optionally one
 * tool, agent or outcome and a time window, in pages. The REST route and `bancada audit` share it, so they can never disagree.
 */
import { z } from "zod";
import { DomainError, ErrorCode } from "@bancada/contracts";
import type { GatewayDb } from "./db/client.js";

export const auditPageMax = 500;
const auditPageDefault = 50;

/** What a reader may see of one call: never the arguments, the result or anything secret. */
const auditCall = z.object({
  id: z.string(),
  at: z.string(),
  tool: z.string(),
  outcome: z.string(),
  durationMs: z.number().int(),
  keyId: z.string(),
  agentId: z.string(),
  personId: z.string(),
  accountId: z.string(),
});
export type AuditCall = z.infer<typeof auditCall>;

/** One page of calls, as `GET /v1/audit` declares its answer. */
export const auditPageSchema = z.object({
  calls: z.array(auditCall),
  nextCursor: z.string().nullable().describe("Pass as `cursor` for the next (older) page; null when this page is the last."),
});
export type AuditPage = z.infer<typeof auditPageSchema>;

export interface AuditFilter {
  /** Required by the REST route (the caller's account); the admin CLI may read every account. */
  accountId?: string;
  tool?: string;
  agentId?: string;
  outcome?: string;
  since?: Date;
  /** Calls before this instant only (the end of a time range). */
  until?: Date;
  limit: number;
  /** The `nextCursor` of the previous page. */
  cursor?: string;
}

const durationUnits = { s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 } as const;

/** The earliest `since` asked about: no call is older, and PostgreSQL has no year 0 (`0000-01-01` failed as internal). */
const earliestSince = new Date("1970-01-01T00:00:00Z");

/** `30s`, `30m`, `1h`, `7d` (that long ago) or an ISO 8601 date-time, from 1970 on. */
export function parseSince(value: string, now = Date.now()): Date {
  const relative = /^(\d{1,6})([smhd])$/.exec(value.trim());
  let since: Date | undefined;
  if (relative) since = new Date(now - Number(relative[1]) * durationUnits[relative[2] as keyof typeof durationUnits]);
  else if (z.iso.datetime({ offset: true }).safeParse(value).success || z.iso.date().safeParse(value).success) since = new Date(value);
  if (!since)
    throw new DomainError(ErrorCode.invalidArgument, "since takes a duration (30s, 30m, 1h, 7d) or an ISO 8601 date-time.", {
      issues: [{ path: "since", message: "a duration like 1h or an ISO 8601 date-time" }],
    });
  if (Number.isNaN(since.getTime()) || since < earliestSince)
    throw new DomainError(ErrorCode.invalidArgument, "since must be on or after 1970-01-01T00:00:00Z.", {
      issues: [{ path: "since", message: "on or after 1970-01-01T00:00:00Z" }],
    });
  return since;
}

/** The query string of `GET /v1/audit`. */
export const auditQuerySchema = z.strictObject({
  tool: z.string().min(1).max(200).optional(),
  agent: z.string().min(1).max(200).optional(),
  outcome: z.string().min(1).max(64).optional(),
  since: z.string().min(1).max(64).optional(),
  until: z.iso.datetime({ offset: true }).optional(),
  limit: z.coerce.number().int().min(1).max(auditPageMax).default(auditPageDefault),
  cursor: z
    .string()
    .regex(/^[1-9]\d{0,18}$/, "a nextCursor from a previous page")
    .optional(),
});

export async function readAudit(db: GatewayDb, filter: AuditFilter): Promise<AuditPage> {
  const rows = await db.toolCall.findMany({
    where: {
      ...(filter.accountId !== undefined ? { accountId: filter.accountId } : {}),
      ...(filter.tool !== undefined ? { tool: filter.tool } : {}),
      ...(filter.agentId !== undefined ? { agentId: filter.agentId } : {}),
      ...(filter.outcome !== undefined ? { outcome: filter.outcome } : {}),
      ...(filter.since || filter.until
        ? { at: { ...(filter.since ? { gte: filter.since } : {}), ...(filter.until ? { lt: filter.until } : {}) } }
        : {}),
      ...(filter.cursor ? { id: { lt: BigInt(filter.cursor) } } : {}),
    },
    orderBy: { id: "desc" },
    take: filter.limit + 1,
  });
  const page = rows.slice(0, filter.limit);
  return {
    calls: page.map((row) => ({
      id: row.id.toString(),
      at: row.at.toISOString(),
      tool: row.tool,
      outcome: row.outcome,
      durationMs: row.durationMs,
      keyId: row.keyId,
      agentId: row.agentId,
      personId: row.personId,
      accountId: row.accountId,
    })),
    nextCursor: rows.length > filter.limit ? page.at(-1)!.id.toString() : null,
  };
}
