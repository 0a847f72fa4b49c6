/**
 * Reaching a workspace: it must belong to the caller's account and the caller's person must be a
 * member. Anything else answers the same not_found, whether the workspace exists or not.
 */
import { DomainError, ErrorCode } from "@bancada/contracts";
import type { Queryable } from "../db/client.js";
import type { DraftsContext } from "./context.js";
import type { WorkspaceRole } from "./fields.js";
import { atLeast } from "./roles.js";

export interface WorkspaceAccess {
  id: string;
  name: string;
  role: WorkspaceRole;
  createdAt: Date;
}

export async function reachWorkspace(
  q: Queryable,
  ctx: DraftsContext,
  workspaceId: string,
  needed: WorkspaceRole,
): Promise<WorkspaceAccess> {
  const [row] = await q.$queryRaw<{ id: string; name: string; role: WorkspaceRole; created_at: Date }[]>`
    SELECT w.id::text, w.name, m.role::text AS role, w.created_at
      FROM workspaces w
      JOIN members m ON m.workspace_id = w.id AND m.person_id = ${ctx.personId}
     WHERE w.id = ${workspaceId}::uuid AND w.account_id = ${ctx.accountId}`;
  if (!row) throw workspaceNotFound(workspaceId);
  if (!atLeast(row.role, needed)) throw roleTooLow(row.role, needed);
  return { id: row.id, name: row.name, role: row.role, createdAt: row.created_at };
}

function workspaceNotFound(workspaceId: string): DomainError {
  return new DomainError(ErrorCode.notFound, `No workspace ${workspaceId} that you are a member of.`, { workspace_id: workspaceId });
}

export function roleTooLow(role: WorkspaceRole, needed: WorkspaceRole): DomainError {
  return new DomainError(ErrorCode.permissionDenied, `Your role in this workspace is ${role}; this needs ${needed} or above.`, {
    role,
    requiredRole: needed,
  });
}

export function draftNotFound(workspaceId: string, draftId: string): DomainError {
  return new DomainError(ErrorCode.notFound, `No draft ${draftId} in workspace ${workspaceId}.`, {
    workspace_id: workspaceId,
    draft_id: draftId,
  });
}
