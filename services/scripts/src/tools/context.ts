import type { ToolContext } from "@bancada/service-kit";
import type { ScriptsDb } from "../db/client.js";
import type { ScriptsContext } from "../domain/context.js";

export function scriptsContext(db: ScriptsDb, ctx: Pick<ToolContext, "principal">): ScriptsContext {
  return { db, accountId: ctx.principal.accountId, personId: ctx.principal.personId };
}

export const closedWorld = { openWorldHint: false } as const;
