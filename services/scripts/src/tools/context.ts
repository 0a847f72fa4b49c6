import type { ToolContext } from "@bancada/service-kit";
import type { Scripts, ScriptsContext } from "../domain/context.js";

export function scriptsContext({ db, changed }: Scripts, ctx: Pick<ToolContext, "principal">): ScriptsContext {
  return { db, accountId: ctx.principal.accountId, personId: ctx.principal.personId, changed };
}

export const closedWorld = { openWorldHint: false } as const;
