import type { Request } from "express";
import { restAccess, type Access } from "@bancada/contracts";
import { authorizedPrincipal } from "@bancada/service-kit";
import type { BoardsDb } from "../db/client.js";
import { boardsContext, type BoardsContext } from "../domain/context.js";
import { invalidField } from "../domain/errors.js";

/**
 * The access of routes no tool stands behind: boards themselves, quadrant titles, members, tag writes, one
 * task or proposal by id, and the human review of proposals (an agent proposes with a tool, a person decides here).
 */
export const routeReads = restAccess({ scope: "boards:read", writes: false });
export const routeWrites = restAccess({ scope: "boards:write", writes: true });

/** The acting person is the key's personId, once the key may use `access`: the route's tool, or one of the above. */
export function restContext(db: BoardsDb, req: Request, access: Access): BoardsContext {
  return boardsContext(db, authorizedPrincipal(req, access));
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

/**
 * The body of a versioned board or tag write, where the version read may come as `expectedVersion` in
 * the body or as `If-Match: "<version>"` (a DELETE body has no defined meaning in HTTP, and some clients
 * and proxies drop it). Both at once must agree.
 */
export function versionedBody(req: Request): Record<string, unknown> {
  const fields = body(req);
  const header = req.header("If-Match");
  if (header === undefined) return fields;
  const raw = header
    .trim()
    .replace(/^W\//, "")
    .replace(/^"(.*)"$/, "$1");
  if (!/^[0-9]{1,10}$/.test(raw)) throw invalidField("If-Match", 'send the version you read, as If-Match: "<version>"');
  const version = Number(raw);
  if (fields.expectedVersion !== undefined && fields.expectedVersion !== version) {
    throw invalidField("If-Match", "disagrees with expectedVersion in the body; send one of the two");
  }
  return { ...fields, expectedVersion: version };
}
