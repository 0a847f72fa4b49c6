/** REST shapes of workspaces and members. */
import { z } from "zod";
import { personId, text, uuid, workspaceId, workspaceRole } from "./fields.js";
import { limits } from "./limits.js";

export const workspaceName = text(limits.workspaceNameMax, "The workspace's name, 1 to 100 characters.").refine(
  (value) => value.trim().length > 0 && !value.includes("\u0000"),
  "must not be empty",
);

export const createWorkspaceInput = z.strictObject({
  name: workspaceName,
  request_id: uuid("Idempotency key (or the Idempotency-Key header): a retry returns the workspace the first call made.").optional(),
});
export type CreateWorkspaceInput = z.infer<typeof createWorkspaceInput>;

export const renameWorkspaceInput = z.strictObject({ workspace_id: workspaceId, name: workspaceName });
export type RenameWorkspaceInput = z.infer<typeof renameWorkspaceInput>;

export const workspaceRef = z.strictObject({ workspace_id: workspaceId });

export const setMemberInput = z.strictObject({ workspace_id: workspaceId, person_id: personId, role: workspaceRole });
export type SetMemberInput = z.infer<typeof setMemberInput>;

export const memberRef = z.strictObject({ workspace_id: workspaceId, person_id: personId });
export type MemberRef = z.infer<typeof memberRef>;

export interface WorkspaceView {
  id: string;
  name: string;
  role: z.infer<typeof workspaceRole>;
  created_at: string;
}

export interface MemberView {
  person_id: string;
  role: z.infer<typeof workspaceRole>;
  created_at: string;
}
