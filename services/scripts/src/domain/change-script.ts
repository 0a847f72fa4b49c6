/**
 * Every change of an existing script goes through here: one conditional UPDATE that also checks the
 * account, the state and the revision, so two writers can never both win. When it matches nothing,
 * the script is read once more to say why: not found, wrong state, or `conflict` with the saved script.
 */
import { DomainError, ErrorCode } from "@bancada/contracts";
import type { Prisma } from "../db/generated/client.js";
import type { ScriptsContext } from "./context.js";
import { appendChange, type ChangeKind } from "./feed.js";
import { scriptNotFound } from "./get-script.js";
import type { ScriptView } from "./schemas.js";
import { toScriptView } from "./script-view.js";

export interface ScriptChange {
  id: string;
  revision: number;
  kind: Exclude<ChangeKind, "created">;
  /** The state the script must be in: active (not in the trash) or trashed. */
  from: "active" | "trashed";
  data: Omit<Prisma.ScriptUpdateManyMutationInput, "revision" | "updatedAt" | "updatedBy">;
}

export async function changeScript(ctx: ScriptsContext, change: ScriptChange): Promise<ScriptView> {
  const view = await ctx.db.$transaction(async (tx) => {
    const now = new Date();
    const { count } = await tx.script.updateMany({
      where: {
        id: change.id,
        accountId: ctx.accountId,
        revision: change.revision,
        deletedAt: change.from === "active" ? null : { not: null },
      },
      data: { ...change.data, revision: { increment: 1 }, updatedAt: now, updatedBy: ctx.personId },
    });
    if (count === 0) throw await explainMiss(tx, ctx, change);
    const row = await tx.script.findFirstOrThrow({ where: { id: change.id, accountId: ctx.accountId } });
    await appendChange(tx, { accountId: ctx.accountId, scriptId: row.id, revision: row.revision, kind: change.kind, at: now });
    return toScriptView(row);
  });
  // after the commit: a client told of the change reads the new revision
  ctx.changed?.(ctx.accountId, view.id);
  return view;
}

async function explainMiss(tx: Prisma.TransactionClient, ctx: ScriptsContext, change: ScriptChange): Promise<DomainError> {
  const current = await tx.script.findFirst({ where: { id: change.id, accountId: ctx.accountId } });
  if (!current) return scriptNotFound(change.id);
  const trashed = current.deletedAt !== null;
  if (change.from === "active" && trashed) {
    return new DomainError(ErrorCode.failedPrecondition, "The script is in the trash: restore it (restore_script) before changing it.", {
      id: change.id,
      deletedAt: current.deletedAt?.toISOString(),
    });
  }
  if (change.from === "trashed" && !trashed) {
    return new DomainError(ErrorCode.failedPrecondition, "The script is not in the trash, so there is nothing to restore.", {
      id: change.id,
    });
  }
  const view = toScriptView(current);
  return new DomainError(
    ErrorCode.conflict,
    "The script changed elsewhere: re-read it and keep the user's changes before replacing it. (O roteiro mudou em outro lugar. Revise antes de substituir.)",
    {
      current: {
        id: view.id,
        revision: view.revision,
        title: view.title,
        text: view.text,
        status: view.status,
        updatedAt: view.updatedAt,
        deletedAt: view.deletedAt,
      },
    },
  );
}
