import type { ToolContext } from "@bancada/service-kit";
import { onBoxNode } from "../domain/box-node.js";
import type { BoxesContext, BoxesRuntime } from "../domain/context.js";

export function boxesContext(rt: BoxesRuntime, ctx: Pick<ToolContext, "principal">): BoxesContext {
  return { ...rt, accountId: ctx.principal.accountId, personId: ctx.principal.personId, agentId: ctx.principal.agentId };
}

/** A box-bound call's context: on the node of the caller's box the input names (domain/box-node.ts, the one path). */
export const onBox = async (
  rt: BoxesRuntime,
  ctx: Pick<ToolContext, "principal">,
  boxId: string,
  answering = false,
): Promise<BoxesContext> => (await onBoxNode(boxesContext(rt, ctx), boxId, answering)).ctx;

/** Seed labels: "só lê" (reads only), "cria ou muda" (creates or changes), "muda ou apaga" (changes or deletes). */
export const readsOnly = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false } as const;
export const createsOrChanges = (idempotentHint: boolean) =>
  ({ readOnlyHint: false, destructiveHint: false, idempotentHint, openWorldHint: false }) as const;
export const changesOrDeletes = (idempotentHint: boolean, openWorldHint = false) =>
  ({ readOnlyHint: false, destructiveHint: true, idempotentHint, openWorldHint }) as const;
