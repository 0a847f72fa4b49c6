import type { ScriptsContext } from "./context.js";
import { changeScript } from "./change-script.js";
import type { RevisionedRef, ScriptView, UpdateScriptInput } from "./schemas.js";

/** Replaces title, text and status of an active script (full replacement, revision-checked). */
export function updateScript(ctx: ScriptsContext, input: UpdateScriptInput): Promise<ScriptView> {
  return changeScript(ctx, {
    id: input.id,
    revision: input.revision,
    kind: "updated",
    from: "active",
    data: { title: input.title, text: input.text, status: input.status },
  });
}

/** Moves an active script to the trash; reversible with restoreScript. */
export function trashScript(ctx: ScriptsContext, input: RevisionedRef): Promise<ScriptView> {
  return changeScript(ctx, { id: input.id, revision: input.revision, kind: "trashed", from: "active", data: { deletedAt: new Date() } });
}

/** Brings a trashed script back. */
export function restoreScript(ctx: ScriptsContext, input: RevisionedRef): Promise<ScriptView> {
  return changeScript(ctx, { id: input.id, revision: input.revision, kind: "restored", from: "trashed", data: { deletedAt: null } });
}
