/** `bancada audit`: the audit trail of tool calls, read straight from the gateway's table (an operator's view: every account). */
import { parseArgs } from "node:util";
import { auditPageMax, createGatewayDb, migrateGateway, parseSince, readAudit } from "@bancada/gateway";
import { openDatabases } from "./database.js";
import { UsageError, type Env } from "./env.js";

export const auditUsage = `Usage:
  bancada audit [--account <id>] [--tool <name>] [--since <1h|30m|7d|ISO date-time>] [--limit <n, default 50>] [--json]`;

export async function runAudit(env: Env, argv: string[], print: (line: string) => void): Promise<void> {
  const { values } = parseArgs({
    args: argv,
    options: {
      account: { type: "string" },
      tool: { type: "string" },
      since: { type: "string" },
      limit: { type: "string", default: "50" },
      json: { type: "boolean", default: false },
      help: { type: "boolean", default: false },
    },
  });
  if (values.help) return print(auditUsage);
  const limit = Number(values.limit);
  if (!Number.isInteger(limit) || limit < 1 || limit > auditPageMax)
    throw new UsageError(`--limit takes a whole number from 1 to ${auditPageMax}.`);
  const since = values.since ? sinceOf(values.since) : undefined;
  const databases = await openDatabases(env);
  try {
    const databaseUrl = await databases.urlFor("gateway");
    await migrateGateway(databaseUrl);
    const db = createGatewayDb(databaseUrl, 1);
    try {
      const { calls } = await readAudit(db, {
        limit,
        ...(values.account ? { accountId: values.account } : {}),
        ...(values.tool ? { tool: values.tool } : {}),
        ...(since ? { since } : {}),
      });
      if (values.json) return print(JSON.stringify(calls));
      if (calls.length === 0) return print("No tool calls match.");
      for (const c of calls) {
        print(
          `${c.at}  ${c.tool.padEnd(22)} ${c.outcome.padEnd(18)} ${String(c.durationMs).padStart(6)} ms  account=${c.accountId} agent=${c.agentId} key=${c.keyId}`,
        );
      }
    } finally {
      await db.$disconnect();
    }
  } finally {
    await databases.stop();
  }
}

function sinceOf(value: string): Date {
  try {
    return parseSince(value);
  } catch {
    throw new UsageError(`--since takes a duration (30s, 30m, 1h, 7d) or an ISO 8601 date-time, not '${value}'.`);
  }
}
