import { DomainError, ErrorCode } from "@bancada/contracts";
import { findScript } from "../db/find-script.js";
import type { ScriptsContext } from "./context.js";
import type { ScriptView } from "./schemas.js";
import { toScriptView } from "./script-view.js";

/** Reads one script of the caller's account, trashed ones included. Another account's id is simply not found. */
export async function getScript(ctx: ScriptsContext, id: string): Promise<ScriptView> {
  const row = await findScript(ctx.db, ctx.accountId, id);
  if (!row) throw scriptNotFound(id);
  return toScriptView(row);
}

export function scriptNotFound(id: string): DomainError {
  return new DomainError(ErrorCode.notFound, `No script with id ${id} in this account.`, { id });
}
