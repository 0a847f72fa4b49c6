/**
 * Every change of an existing draft goes through here, inside the write's transaction: the draft row
 * is locked, the caller's expected_revision checked (stale → conflict with the current draft), the
 * state checked (only a `draft` can be edited or submitted), then the change runs and the revision and
 * updated_at move on. updated_at only ever grows per draft, which is what keeps keyset paging free of
 * repeats: a changed draft moves to the front of the list, never back behind a cursor.
 */
import { DomainError, ErrorCode } from "@bancada/contracts";
import { Prisma } from "../db/generated/client.js";
import type { DraftsTx } from "../db/client.js";
import { draftNotFound } from "./access.js";
import type { DraftsContext } from "./context.js";
import { readDraft } from "./draft-view.js";
import type { DraftState } from "./fields.js";
import type { DraftView } from "./schemas.js";

export interface DraftRef {
  workspaceId: string;
  draftId: string;
  expectedRevision: number;
}

export interface LockedDraft {
  id: string;
  revision: number;
  state: DraftState;
  assetCount: number;
}

/** `change` runs with the row locked and returns extra assignments for the final UPDATE (may be empty). */
export async function changeDraft(
  tx: DraftsTx,
  ctx: DraftsContext,
  ref: DraftRef,
  change: (locked: LockedDraft) => Promise<Prisma.Sql[]>,
): Promise<DraftView> {
  const locked = await checkChangeable(tx, ref, true);
  const assignments = await change(locked);
  await tx.$executeRaw`
    UPDATE drafts
       SET ${Prisma.join([...assignments, ...bumpAssignments(ctx.personId)], ", ")}
     WHERE id = ${ref.draftId}::uuid`;
  return (await readDraft(tx, ref.workspaceId, ref.draftId))!;
}

/** The revision moves on and updated_at grows strictly, also when two writers' clocks disagree. */
export function bumpAssignments(personId: string | null): Prisma.Sql[] {
  return [
    Prisma.sql`revision = revision + 1`,
    Prisma.sql`updated_at = GREATEST(date_trunc('milliseconds', clock_timestamp()), updated_at + interval '1 millisecond')`,
    ...(personId === null ? [] : [Prisma.sql`updated_by = ${personId}`]),
  ];
}

/**
 * The draft as it stands, checked for a change at `ref.expectedRevision`. With `lock` the row stays
 * locked until the transaction ends; without, it is a cheap early check before expensive work (an upload).
 */
export async function checkChangeable(tx: Pick<DraftsTx, "$queryRaw" | "draft">, ref: DraftRef, lock: boolean): Promise<LockedDraft> {
  const [row] = await tx.$queryRaw<{ id: string; revision: number; state: DraftState; asset_count: number }[]>`
    SELECT id::text, revision, state::text AS state, asset_count
      FROM drafts WHERE id = ${ref.draftId}::uuid AND workspace_id = ${ref.workspaceId}::uuid
       ${lock ? Prisma.sql`FOR UPDATE` : Prisma.empty}`;
  if (!row) throw draftNotFound(ref.workspaceId, ref.draftId);
  if (row.revision !== ref.expectedRevision) {
    const current = await readDraft(tx, ref.workspaceId, ref.draftId);
    throw new DomainError(
      ErrorCode.conflict,
      `The draft changed since you read it (expected revision ${ref.expectedRevision}, current ${row.revision}). Re-read it in error.details.current and keep the other person's changes.`,
      { expected_revision: ref.expectedRevision, current },
    );
  }
  if (row.state !== "draft") throw notEditable(row.state);
  return { id: row.id, revision: row.revision, state: row.state, assetCount: row.asset_count };
}

function notEditable(state: DraftState): DomainError {
  const why =
    state === "submitting" ? "it is being submitted; wait for the outcome (sosoapi_get_content_draft)" : "it was already submitted";
  return new DomainError(ErrorCode.failedPrecondition, `The draft cannot change: ${why}.`, { state });
}
