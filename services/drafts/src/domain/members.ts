/**
 * Members and roles (viewer < editor < admin < owner). Admins manage viewers, editors and admins;
 * only owners grant, change or remove the owner role. Anyone may leave. A workspace always keeps an owner.
 */
import { DomainError, ErrorCode } from "@bancada/contracts";
import { transaction, type DraftsTx } from "../db/client.js";
import { reachWorkspace, roleTooLow } from "./access.js";
import type { DraftsContext } from "./context.js";
import type { WorkspaceRole } from "./fields.js";
import { canonicalUuid } from "./json-formats.js";
import { atLeast } from "./roles.js";
import type { MemberRef, MemberView, SetMemberInput } from "./workspace-inputs.js";

export async function listMembers(ctx: DraftsContext, workspaceId: string): Promise<{ members: MemberView[] }> {
  const id = canonicalUuid(workspaceId);
  await reachWorkspace(ctx.db, ctx, id, "viewer");
  const rows = await ctx.db.member.findMany({ where: { workspaceId: id }, orderBy: [{ createdAt: "asc" }, { personId: "asc" }] });
  return { members: rows.map((row) => ({ person_id: row.personId, role: row.role, created_at: row.createdAt.toISOString() })) };
}

export function setMember(ctx: DraftsContext, input: SetMemberInput): Promise<{ member: MemberView; created: boolean }> {
  const workspaceId = canonicalUuid(input.workspace_id);
  return transaction(ctx.db, async (tx) => {
    const me = await reachWorkspace(tx, ctx, workspaceId, "admin");
    const before = await roleOf(tx, workspaceId, input.person_id);
    mayManage(me.role, before, input.role);
    if (before === "owner" && input.role !== "owner") await keepAnOwner(tx, workspaceId);
    const row = await tx.member.upsert({
      where: { workspaceId_personId: { workspaceId, personId: input.person_id } },
      create: { workspaceId, personId: input.person_id, role: input.role, createdAt: new Date() },
      update: { role: input.role },
    });
    return { member: { person_id: row.personId, role: row.role, created_at: row.createdAt.toISOString() }, created: before === undefined };
  });
}

export function removeMember(ctx: DraftsContext, input: MemberRef): Promise<void> {
  const workspaceId = canonicalUuid(input.workspace_id);
  const leaving = input.person_id === ctx.personId;
  return transaction(ctx.db, async (tx) => {
    const me = await reachWorkspace(tx, ctx, workspaceId, leaving ? "viewer" : "admin");
    const role = await roleOf(tx, workspaceId, input.person_id);
    if (!role)
      throw new DomainError(ErrorCode.notFound, `${input.person_id} is not a member of this workspace.`, { person_id: input.person_id });
    if (!leaving) mayManage(me.role, role, undefined);
    if (role === "owner") await keepAnOwner(tx, workspaceId);
    await tx.member.delete({ where: { workspaceId_personId: { workspaceId, personId: input.person_id } } });
  });
}

/** Admins may not touch owners nor hand out the owner role. */
function mayManage(mine: WorkspaceRole, theirs: WorkspaceRole | undefined, next: WorkspaceRole | undefined): void {
  if (atLeast(mine, "owner")) return;
  if (theirs === "owner" || next === "owner") throw roleTooLow(mine, "owner");
}

async function roleOf(tx: DraftsTx, workspaceId: string, personId: string): Promise<WorkspaceRole | undefined> {
  const row = await tx.member.findUnique({ where: { workspaceId_personId: { workspaceId, personId } } });
  return row?.role;
}

/** Refuses to take away the last owner; the owners' rows are locked so that two demotions cannot both pass. */
async function keepAnOwner(tx: DraftsTx, workspaceId: string): Promise<void> {
  const owners = await tx.$queryRaw<{ person_id: string }[]>`
    SELECT person_id FROM members WHERE workspace_id = ${workspaceId}::uuid AND role = 'owner' FOR UPDATE`;
  if (owners.length <= 1) {
    throw new DomainError(ErrorCode.failedPrecondition, "A workspace needs at least one owner: make someone else owner first.");
  }
}
