import type { Request } from "express";
import { principalOf, requireScope } from "@bancada/service-kit";
import type { BoardsDb } from "../db/client.js";
import { boardsContext, type BoardsContext } from "../domain/context.js";

/** The acting person is the key's personId; reads need boards:read, writes boards:write and allowWrites. */
export function restContext(db: BoardsDb, req: Request, write: boolean): BoardsContext {
  const principal = principalOf(req);
  requireScope(principal, write ? "boards:write" : "boards:read", write);
  return boardsContext(db, principal);
}

/** The JSON body as an object (an absent body is {}), so strict schemas can name unknown fields. */
export function body(req: Request): Record<string, unknown> {
  const value: unknown = req.body;
  return value && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

/** Query strings for list routes: `tagIds=a,b`, `archived=true`. */
export function listQuery(query: Request["query"]): Record<string, unknown> {
  const out: Record<string, unknown> = { ...query };
  if (typeof out.tagIds === "string") out.tagIds = out.tagIds === "" ? [] : out.tagIds.split(",");
  if (out.archived === "true" || out.archived === "false") out.archived = out.archived === "true";
  return out;
}
