/**
 * Workspaces of an account. Whoever creates one becomes its owner. Creation is idempotent through its
 * request_id: the new workspace's id is derived from (account, person, request_id), so a retry finds
 * the workspace the first call made instead of making a second one.
 */
import { createHash, randomUUID } from "node:crypto";
import { DomainError, ErrorCode } from "@bancada/contracts";
import { transaction } from "../db/client.js";
import { reachWorkspace } from "./access.js";
import type { DraftsContext } from "./context.js";
import { canonicalUuid } from "./json-formats.js";
import type { CreateWorkspaceInput, RenameWorkspaceInput, WorkspaceView } from "./workspace-inputs.js";

export function createWorkspace(ctx: DraftsContext, input: CreateWorkspaceInput): Promise<{ workspace: WorkspaceView; created: boolean }> {
  const id = input.request_id ? derivedId(ctx, input.request_id) : randomUUID();
  return transaction(ctx.db, async (tx) => {
    const inserted = await tx.$executeRaw`
      INSERT INTO workspaces (id, account_id, name, created_by, created_at)
      VALUES (${id}::uuid, ${ctx.accountId}, ${input.name}, ${ctx.personId}, now())
      ON CONFLICT (id) DO NOTHING`;
    if (inserted === 0) {
      const existing = await tx.workspace.findUnique({ where: { id } });
      if (!existing || existing.name !== input.name) {
        throw new DomainError(
          ErrorCode.idempotencyConflict,
          "This request_id already created a workspace with another name; use a new request_id.",
          {
            request_id: input.request_id,
          },
        );
      }
      return { workspace: await viewOf(ctx, id), created: false };
    }
    await tx.member.create({ data: { workspaceId: id, personId: ctx.personId, role: "owner", createdAt: new Date() } });
    const workspace = await tx.workspace.findUniqueOrThrow({ where: { id } });
    return { workspace: { id, name: workspace.name, role: "owner", created_at: workspace.createdAt.toISOString() }, created: true };
  });
}

export async function listWorkspaces(ctx: DraftsContext): Promise<{ workspaces: WorkspaceView[] }> {
  const rows = await ctx.db.$queryRaw<{ id: string; name: string; role: WorkspaceView["role"]; created_at: Date }[]>`
    SELECT w.id::text, w.name, m.role::text AS role, w.created_at
      FROM workspaces w JOIN members m ON m.workspace_id = w.id AND m.person_id = ${ctx.personId}
     WHERE w.account_id = ${ctx.accountId}
     ORDER BY w.created_at, w.id`;
  return { workspaces: rows.map((row) => ({ id: row.id, name: row.name, role: row.role, created_at: row.created_at.toISOString() })) };
}

export async function getWorkspace(ctx: DraftsContext, workspaceId: string): Promise<{ workspace: WorkspaceView }> {
  return { workspace: await viewOf(ctx, canonicalUuid(workspaceId)) };
}

export function renameWorkspace(ctx: DraftsContext, input: RenameWorkspaceInput): Promise<{ workspace: WorkspaceView }> {
  const workspaceId = canonicalUuid(input.workspace_id);
  return transaction(ctx.db, async (tx) => {
    const access = await reachWorkspace(tx, ctx, workspaceId, "admin");
    await tx.workspace.update({ where: { id: workspaceId }, data: { name: input.name } });
    return { workspace: { id: workspaceId, name: input.name, role: access.role, created_at: access.createdAt.toISOString() } };
  });
}

async function viewOf(ctx: DraftsContext, workspaceId: string): Promise<WorkspaceView> {
  const access = await reachWorkspace(ctx.db, ctx, workspaceId, "viewer");
  return { id: access.id, name: access.name, role: access.role, created_at: access.createdAt.toISOString() };
}

/** A UUID (version 8 layout: custom) made from who asks and their request_id. */
function derivedId(ctx: DraftsContext, requestId: string): string {
  const hex = createHash("sha256")
    .update(JSON.stringify(["workspace", ctx.accountId, ctx.personId, canonicalUuid(requestId)]))
    .digest("hex");
  const variant = ((parseInt(hex[16]!, 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-8${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}
