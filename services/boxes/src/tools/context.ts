import type { Principal } from "@bancada/contracts";
import type { ToolContext } from "@bancada/service-kit";
import { ownerOfBox } from "../domain/box-owner.js";
import type { BoxesContext, BoxesRuntime } from "../domain/context.js";

export function boxesContext(rt: BoxesRuntime, ctx: Pick<ToolContext, "principal">): BoxesContext {
  return { ...rt, accountId: ctx.principal.accountId, personId: ctx.principal.personId, agentId: ctx.principal.agentId };
}

/**
 * A box-bound tool's `owner`: the node of the caller's box the input names (domain/box-owner.ts). `handOver`: the row
 * read is handed to the handler as `ctx.owner.found` (exec).
 */
export const boxOwner =
  (rt: BoxesRuntime, handOver = false) =>
  (principal: Principal, input: { boxId: string }) =>
    ownerOfBox(rt, principal.accountId, input.boxId, handOver);

/** Seed labels: "só lê" (reads only), "cria ou muda" (creates or changes), "muda ou apaga" (changes or deletes). */
export const readsOnly = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false } as const;
export const createsOrChanges = (idempotentHint: boolean) =>
  ({ readOnlyHint: false, destructiveHint: false, idempotentHint, openWorldHint: false }) as const;
export const changesOrDeletes = (idempotentHint: boolean, openWorldHint = false) =>
  ({ readOnlyHint: false, destructiveHint: true, idempotentHint, openWorldHint }) as const;
