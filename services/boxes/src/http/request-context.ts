import type { Request } from "express";
import type { Access } from "@bancada/contracts";
import { authorizedPrincipal } from "@bancada/service-kit";
import type { BoxesContext, BoxesRuntime } from "../domain/context.js";

/** The use case's context for a REST request, once `authorize` lets its caller in with `access` (the tool's declaration). */
export function requestContext(rt: BoxesRuntime, req: Request, access: Access): BoxesContext {
  const principal = authorizedPrincipal(req, access);
  return { ...rt, accountId: principal.accountId, personId: principal.personId, agentId: principal.agentId };
}
