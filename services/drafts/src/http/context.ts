import type { Request } from "express";
import { invalidArgument, restAccess, type Access } from "@bancada/contracts";
import { authorizedPrincipal } from "@bancada/service-kit";
import type { DraftsContext, DraftsDeps } from "../domain/context.js";

/** The access of routes no tool stands behind: workspaces, their members, asset downloads. */
export const routeReads = restAccess({ scope: "drafts:read", writes: false });
export const routeWrites = restAccess({ scope: "drafts:write", writes: true });

/** The acting key's context, once it may use `access`: the route's tool, or one of the declarations above. */
export function restContext(deps: DraftsDeps, req: Request, access: Access): DraftsContext {
  const principal = authorizedPrincipal(req, access);
  return { ...deps, accountId: principal.accountId, personId: principal.personId };
}

/** The JSON body as an object (absent → {}), so strict schemas can name unknown fields. */
export function body(req: Request): Record<string, unknown> {
  const value: unknown = req.body;
  return value && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

/** `If-Match: "<revision>"` when sent, else undefined (the body may carry expected_revision). */
export function ifMatch(req: Request): number | undefined {
  const raw = req.header("If-Match")?.replace(/^W\//, "").replaceAll('"', "").trim();
  if (raw === undefined) return undefined;
  const revision = Number(raw);
  if (!raw || !Number.isInteger(revision) || revision < 1) {
    throw invalidArgument([{ path: "If-Match", message: "send the revision you read as 'If-Match: \"<revision>\"'" }]);
  }
  return revision;
}

/** Idempotency-Key header, else the body's request_id. */
export function requestIdOf(req: Request, fromBody: unknown): unknown {
  return req.header("Idempotency-Key") ?? fromBody;
}
