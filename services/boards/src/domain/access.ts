/**
 * Reaching a board. Row-level security already hides every board the caller may not reach; these
 * checks turn "no row" into the one not-found message (docs/boards.md#access), and a visible board into the right
 * error when the caller's role or the board's state does not allow the write.
 */
import type { BoardsTx } from "../db/client.js";
import { boardArchived, boardNotFound, invalidField, roleTooLow } from "./errors.js";
import type { BoardRole } from "./views.js";

export interface BoardAccess {
  id: string;
  name: string;
  role: BoardRole;
  archivedAt: Date | null;
  createdAt: Date;
}

/** What a call needs: `read` (any member), `write` (owner or editor, active board), `own` (owner, active board). */
export type Need = "read" | "write" | "own";

export async function reachBoard(tx: BoardsTx, boardId: string, need: Need, options: { archivedToo?: boolean } = {}): Promise<BoardAccess> {
  const [board] = await tx.$queryRaw<{ id: string; name: string; role: BoardRole; archived_at: Date | null; created_at: Date }[]>`
    SELECT b.id::text, b.name, m.role::text AS role, b.archived_at, b.created_at
      FROM boards b
      JOIN board_members m ON m.account_id = b.account_id AND m.board_id = b.id AND m.person_id = current_setting('app.person_id', true)
     WHERE b.account_id = current_setting('app.account_id', true) AND b.id = ${boardId}::uuid`;
  if (!board) throw boardNotFound();
  const access: BoardAccess = {
    id: board.id,
    name: board.name,
    role: board.role,
    archivedAt: board.archived_at,
    createdAt: board.created_at,
  };
  if (need === "read") return access;
  if (need === "write" && board.role === "viewer") throw roleTooLow(board.role, "owner or editor");
  if (need === "own" && board.role !== "owner") throw roleTooLow(board.role, "owner");
  if (board.archived_at !== null && !options.archivedToo) throw boardArchived();
  return access;
}

/**
 * Serialises the writes of one board that hand out task numbers and positions (create, move, reopen),
 * until the transaction ends. Other boards are not affected. The id goes through ::uuid so that any
 * spelling of it (upper or lower case) takes the same lock; the account is part of the key because
 * board ids are unique only within an account.
 */
export async function lockBoardOrder(tx: BoardsTx, boardId: string): Promise<void> {
  await tx.$executeRaw`SELECT pg_advisory_xact_lock(7381, hashtext(current_setting('app.account_id', true) || '/' || ${boardId}::uuid::text))`;
}

/** A person named in a request (assignee) must be a member of the board: a person of the board's account. */
export async function requireMember(tx: BoardsTx, boardId: string, personId: string, field: string): Promise<void> {
  const [member] = await tx.$queryRaw<{ n: number }[]>`
    SELECT 1 AS n FROM board_members
     WHERE account_id = current_setting('app.account_id', true) AND board_id = ${boardId}::uuid AND person_id = ${personId}`;
  if (!member) throw invalidField(field, "not a member of this board");
}
