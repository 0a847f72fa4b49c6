import type { WorkspaceRole } from "./fields.js";

const rank: Record<WorkspaceRole, number> = { viewer: 0, editor: 1, admin: 2, owner: 3 };

/** viewer < editor < admin < owner */
export function atLeast(role: WorkspaceRole, needed: WorkspaceRole): boolean {
  return rank[role] >= rank[needed];
}
