/**
 * The app's board management. Any authenticated person may create a board and becomes its owner (the
 * key must be unrestricted, or list the new id in allowedBoardIds: a key cannot reach boards outside
 * its list). Owners rename, archive, restore, delete and customise quadrant titles, always against the
 * board version they read (VERSION_CONFLICT otherwise).
 */
import { DomainError, ErrorCode } from "@bancada/contracts";
import type { BoardsTx } from "../db/client.js";
import { sqlState, uniqueViolation } from "../db/errors.js";
import { reachBoard } from "./access.js";
import { recordEvent } from "./activity.js";
import { readBoard } from "./board-rows.js";
import { session, type BoardsContext } from "./context.js";
import { boardNotFound, idempotencyConflict } from "./errors.js";
import { idempotent } from "./idempotency.js";
import type { BoardVersionInput, CreateBoardInput, CustomizeQuadrantInput, ResetQuadrantInput, UpdateBoardInput } from "./inputs.js";
import type { BoardRecord } from "./views.js";

export type BoardResult = { board: BoardRecord };

export function createBoard(ctx: BoardsContext, input: CreateBoardInput): Promise<BoardResult> {
  const id = input.requestId.toLowerCase();
  if (ctx.allowedBoardIds !== null && !ctx.allowedBoardIds.some((allowed) => allowed.toLowerCase() === id)) {
    throw new DomainError(
      ErrorCode.permissionDenied,
      "This key is limited to its allowedBoardIds and could not reach a new board; create boards with an unrestricted key.",
    );
  }
  const { requestId, ...args } = input;
  return session(ctx, (tx) =>
    idempotent(tx, ctx, { requestId, boardId: id, operation: "create_board", args }, async () => {
      // No RETURNING and no ON CONFLICT: both need the new row to be visible, and RLS hides the board
      // until its owner row exists. A taken id surfaces as a unique violation instead.
      await tx.$executeRaw`
        INSERT INTO boards (account_id, id, name, description, version, created_by, created_at, updated_at)
        VALUES (${ctx.accountId}, ${id}::uuid, ${input.name}, ${input.description || null}, 1, ${ctx.personId}, now(), now())`.catch(
        (error: unknown) => {
          throw sqlState(error) === uniqueViolation ? idempotencyConflict(requestId, "arguments (a board with this id exists)") : error;
        },
      );
      await tx.$executeRaw`
        INSERT INTO board_members (account_id, board_id, person_id, role, created_at) VALUES (${ctx.accountId}, ${id}::uuid, ${ctx.personId}, 'owner', now())`;
      await recordEvent(tx, ctx, {
        boardId: id,
        eventType: "board_created",
        entityType: "board",
        entityId: id,
        metadata: { name: input.name },
      });
      return { board: await readBoard(tx, id) };
    }),
  );
}

export function getBoard(ctx: BoardsContext, boardId: string): Promise<BoardResult> {
  return session(ctx, async (tx) => ({ board: await readBoard(tx, boardId) }));
}

export function updateBoard(ctx: BoardsContext, input: UpdateBoardInput): Promise<BoardResult> {
  return changeBoard(ctx, input, "board_updated", false, async (tx) => {
    await tx.board.updateMany({
      where: { accountId: ctx.accountId, id: input.boardId },
      data: {
        ...(input.name === undefined ? {} : { name: input.name }),
        ...(input.description === undefined ? {} : { description: input.description || null }),
      },
    });
    return { fields: Object.keys(input).filter((key) => key === "name" || key === "description") };
  });
}

export function archiveBoard(ctx: BoardsContext, input: BoardVersionInput, archive: boolean): Promise<BoardResult> {
  return changeBoard(ctx, input, archive ? "board_archived" : "board_restored", true, async (tx, archivedAt) => {
    if ((archivedAt !== null) === archive) {
      throw new DomainError(ErrorCode.failedPrecondition, archive ? "The board is already archived." : "The board is not archived.");
    }
    await tx.$executeRaw`UPDATE boards SET archived_at = ${archive ? new Date() : null} WHERE id = ${input.boardId}::uuid`;
    return {};
  });
}

export function customizeQuadrant(ctx: BoardsContext, input: CustomizeQuadrantInput): Promise<BoardResult> {
  return changeBoard(ctx, input, "quadrant_customized", false, async (tx) => {
    await tx.$executeRaw`
      INSERT INTO board_quadrants (account_id, board_id, quadrant, title, subtitle, color)
      VALUES (${ctx.accountId}, ${input.boardId}::uuid, ${input.quadrant}::quadrant, ${input.title}, ${input.subtitle}, ${input.color})
      ON CONFLICT (account_id, board_id, quadrant) DO UPDATE SET title = excluded.title, subtitle = excluded.subtitle, color = excluded.color`;
    return { quadrant: input.quadrant, title: input.title };
  });
}

export function resetQuadrant(ctx: BoardsContext, input: ResetQuadrantInput): Promise<BoardResult> {
  return changeBoard(ctx, input, "quadrant_reset", false, async (tx) => {
    await tx.$executeRaw`DELETE FROM board_quadrants WHERE board_id = ${input.boardId}::uuid AND quadrant = ${input.quadrant}::quadrant`;
    return { quadrant: input.quadrant };
  });
}

/**
 * Deleting a board removes everything in it (tasks, tags, activity, proposals, pending ones included),
 * so it too is made against the version the owner read: a board renamed or re-customised since is not
 * deleted unseen.
 */
export function deleteBoard(ctx: BoardsContext, input: BoardVersionInput): Promise<void> {
  return session(ctx, async (tx) => {
    await reachBoard(tx, input.boardId, "own", { archivedToo: true });
    await lockBoardAt(tx, input.boardId, input.expectedVersion);
    await tx.$executeRaw`DELETE FROM boards WHERE id = ${input.boardId}::uuid`;
  });
}

async function changeBoard(
  ctx: BoardsContext,
  input: BoardVersionInput,
  eventType: string,
  archivedToo: boolean,
  apply: (tx: BoardsTx, archivedAt: Date | null) => Promise<Record<string, unknown>>,
): Promise<BoardResult> {
  return session(ctx, async (tx) => {
    const access = await reachBoard(tx, input.boardId, "own", { archivedToo });
    await lockBoardAt(tx, input.boardId, input.expectedVersion);
    const metadata = await apply(tx, access.archivedAt);
    await tx.$executeRaw`UPDATE boards SET version = version + 1, updated_at = now() WHERE id = ${input.boardId}::uuid`;
    await recordEvent(tx, ctx, { boardId: input.boardId, eventType, entityType: "board", entityId: input.boardId, metadata });
    return { board: await readBoard(tx, input.boardId) };
  });
}

/** Locks the board row until the transaction ends, if it is still at the version the caller read. */
async function lockBoardAt(tx: BoardsTx, boardId: string, expectedVersion: number): Promise<void> {
  const [row] = await tx.$queryRaw<{ version: number }[]>`SELECT version FROM boards WHERE id = ${boardId}::uuid FOR UPDATE`;
  if (!row) throw boardNotFound(); // deleted while this request waited for the lock
  if (row.version === expectedVersion) return;
  const current = await readBoard(tx, boardId);
  throw new DomainError(
    ErrorCode.conflict,
    `VERSION_CONFLICT: the board is at version ${row.version}, not ${expectedVersion}; re-read it before changing it.`,
    { expectedVersion, currentVersion: row.version, current },
  );
}
