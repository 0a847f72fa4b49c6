import type { Script } from "../db/generated/client.js";
import type { ScriptListItem, ScriptView } from "./schemas.js";

export function toScriptView(row: Script): ScriptView {
  return {
    id: row.id,
    title: row.title,
    text: row.text,
    status: row.status,
    revision: row.revision,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    deletedAt: row.deletedAt?.toISOString() ?? null,
    createdBy: row.createdBy,
    updatedBy: row.updatedBy,
  };
}

export function toListItem(row: Omit<Script, "text"> & { preview: string }): ScriptListItem {
  return {
    id: row.id,
    title: row.title,
    preview: row.preview,
    status: row.status,
    revision: row.revision,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    deletedAt: row.deletedAt?.toISOString() ?? null,
    createdBy: row.createdBy,
    updatedBy: row.updatedBy,
  };
}
