/**
 * Board members (the app). Members see the list; owners add people, change roles and remove members;
 * anyone may leave. A board always keeps at least one owner. A member is a person of the board's
 * account: adding "pb" names the pb of the owner's account, never a pb of another account.
 */
import { DomainError, ErrorCode } from "@bancada/contracts";
import type { BoardsTx } from "../db/client.js";
import { reachBoard } from "./access.js";
import { recordEvent } from "./activity.js";
import { session, type BoardsContext } from "./context.js";
import type { MemberRef, SetMemberInput } from "./inputs.js";
import { timestamp } from "./time.js";
import type { BoardRole, MemberRecord } from "./views.js";

export function listMembers(ctx: BoardsContext, boardId: string): Promise<{ members: MemberRecord[] }> {
  return session(ctx, async (tx) => {
    await reachBoard(tx, boardId, "read");
    return { members: await readMembers(tx, boardId) };
  });
}

export function setMember(ctx: BoardsContext, input: SetMemberInput): Promise<{ member: MemberRecord }> {
  return session(ctx, async (tx) => {
    await reachBoard(tx, input.boardId, "own");
    const before = await memberRole(tx, input.boardId, input.personId);
    if (before === input.role) return { member: (await readMembers(tx, input.boardId, input.personId))[0]! };
    if (before === "owner") await keepAnOwner(tx, input.boardId);
    await tx.$executeRaw`
      INSERT INTO board_members (account_id, board_id, person_id, role, created_at)
      VALUES (${ctx.accountId}, ${input.boardId}::uuid, ${input.personId}, ${input.role}::board_role, now())
      ON CONFLICT (account_id, board_id, person_id) DO UPDATE SET role = excluded.role`;
    await recordEvent(tx, ctx, {
      boardId: input.boardId,
      eventType: before ? "member_role_changed" : "member_added",
      entityType: "member",
      entityId: input.personId,
      metadata: before ? { from_role: before, to_role: input.role } : { role: input.role },
    });
    return { member: (await readMembers(tx, input.boardId, input.personId))[0]! };
  });
}

/** Owners remove anyone; any member may remove themself (leave). */
export function removeMember(ctx: BoardsContext, input: MemberRef): Promise<void> {
  return session(ctx, async (tx) => {
    const self = input.personId === ctx.personId;
    await reachBoard(tx, input.boardId, self ? "read" : "own", { archivedToo: self });
    const role = await memberRole(tx, input.boardId, input.personId);
    if (!role) throw new DomainError(ErrorCode.notFound, "This person is not a member of the board.", { personId: input.personId });
    if (role === "owner") await keepAnOwner(tx, input.boardId);
    // Recorded first: once removed, the person may no longer write to this board.
    await recordEvent(tx, ctx, {
      boardId: input.boardId,
      eventType: self ? "member_left" : "member_removed",
      entityType: "member",
      entityId: input.personId,
    });
    await tx.$executeRaw`
      DELETE FROM board_members WHERE account_id = ${ctx.accountId} AND board_id = ${input.boardId}::uuid AND person_id = ${input.personId}`;
  });
}

async function readMembers(tx: BoardsTx, boardId: string, onlyPerson?: string): Promise<MemberRecord[]> {
  const rows = await tx.$queryRaw<{ person_id: string; role: BoardRole; created_at: Date }[]>`
    SELECT m.person_id, m.role::text AS role, m.created_at FROM board_members m
     WHERE m.board_id = ${boardId}::uuid AND (${onlyPerson ?? null}::text IS NULL OR m.person_id = ${onlyPerson ?? null})
     ORDER BY m.role, m.person_id`;
  return rows.map((row) => ({ person_id: row.person_id, role: row.role, created_at: timestamp(row.created_at) }));
}

async function memberRole(tx: BoardsTx, boardId: string, personId: string): Promise<BoardRole | undefined> {
  const [row] = await tx.$queryRaw<{ role: BoardRole }[]>`
    SELECT role::text AS role FROM board_members WHERE board_id = ${boardId}::uuid AND person_id = ${personId}`;
  return row?.role;
}

/** Refuses to take away the last owner. The owners' rows are locked so two demotions cannot both pass. */
async function keepAnOwner(tx: BoardsTx, boardId: string): Promise<void> {
  const owners = await tx.$queryRaw<{ person_id: string }[]>`
    SELECT person_id FROM board_members WHERE board_id = ${boardId}::uuid AND role = 'owner' FOR UPDATE`;
  if (owners.length <= 1)
    throw new DomainError(ErrorCode.failedPrecondition, "A board needs at least one owner: make someone else owner first.");
}
