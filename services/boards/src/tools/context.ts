import type { ToolContext } from "@bancada/service-kit";
import type { BoardsDb } from "../db/client.js";
import { boardsContext, type BoardsContext } from "../domain/context.js";

export function toolContext(db: BoardsDb, ctx: Pick<ToolContext, "principal">): BoardsContext {
  return boardsContext(db, ctx.principal);
}

export const readOnly = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false } as const;
/** Writes repeat safely with the same requestId, hence idempotentHint. */
export const write = { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false } as const;
