import type { Script } from "../db/generated/client.js";
import type { ScriptListItem, ScriptView } from "./schemas.js";

/** What a script and a list item both show of a row (all but the text or its preview). */
function scriptFields(row: Omit<Script, "text">) {
  return {
    id: row.id,
    title: row.title,
    status: row.status,
    revision: row.revision,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    deletedAt: row.deletedAt?.toISOString() ?? null,
    createdBy: row.createdBy,
    updatedBy: row.updatedBy,
  };
}

export function toScriptView(row: Script): ScriptView {
  const { id, title, ...rest } = scriptFields(row);
  return { id, title, text: row.text, ...rest };
}

export function toListItem(row: Omit<Script, "text"> & { preview: string }): ScriptListItem {
  const { id, title, ...rest } = scriptFields(row);
  return { id, title, preview: row.preview, ...rest };
}
