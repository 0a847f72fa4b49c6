/**
 * The box state machine (docs/boxes.md#model-and-states). An operation — create, suspend, resume, start, delete — is
 * claimed with one conditional UPDATE that succeeds only when no other operation runs and the box is
 * in a state the operation starts from; a second call during a transition therefore answers
 * failed_precondition instead of racing the first. The claim is visible on get_box (`operation`).
 * Every change of state closes the box's open interval and opens the next one in the same
 * transaction: box_intervals is the history of the box and, later, its billing record.
 */
import { DomainError, ErrorCode } from "@bancada/contracts";
import type { BoxesTx, BoxRow } from "../db/client.js";
import { Prisma } from "../db/generated/client.js";
import { operationOf, toBoxView, type Operation, type OperationKind } from "./box-view.js";
import type { BoxesContext, BoxesRuntime } from "./context.js";
import type { BoxState } from "./schemas/box.js";

/**
 * Claims `kind` on the box. With `guard` (a capacity check, see capacity.ts), the guard and the claim run
 * in one transaction, so that what the guard counted cannot change before the claim is visible to the next.
 */
export async function beginOperation(
  ctx: BoxesContext,
  box: BoxRow,
  kind: OperationKind,
  from: BoxState[],
  guard?: (tx: BoxesTx) => Promise<void>,
): Promise<BoxRow> {
  const operation = newOperation(ctx, kind);
  const claim = (db: BoxesTx) => claimOperation(db, ctx, box.id, operation, from);
  const claimed = guard
    ? await ctx.db.$transaction(async (tx) => {
        await guard(tx);
        return claim(tx);
      })
    : await claim(ctx.db);
  const current = await ctx.db.box.findUniqueOrThrow({ where: { id: box.id } });
  if (!claimed) throw preconditionError(current, kind);
  return current;
}

export const newOperation = (ctx: BoxesContext, kind: OperationKind): Operation => ({
  kind,
  startedAt: new Date().toISOString(),
  instance: ctx.instance,
});

/** The conditional UPDATE that claims `operation` on a box of the caller's account with none in progress. */
export async function claimOperation(
  db: BoxesTx,
  ctx: BoxesContext,
  boxId: string,
  operation: Operation,
  from: BoxState[],
): Promise<boolean> {
  const claimed = await db.$executeRaw`
    UPDATE boxes SET operation = ${JSON.stringify(operation)}::jsonb, version = version + 1, updated_at = now()
     WHERE id = ${boxId} AND account_id = ${ctx.accountId} AND operation IS NULL AND state::text = ANY(${from}::text[])`;
  return claimed === 1;
}

export interface StateChange {
  state: BoxState;
  reason: string | null;
  /** A new driver handle; undefined keeps the stored one. */
  runtime?: unknown;
  /** Clear the operation in progress (the default). */
  endOperation?: boolean;
}

export async function changeState(rt: BoxesRuntime, boxId: string, change: StateChange): Promise<BoxRow> {
  return rt.db.$transaction(async (tx) => {
    await tx.$executeRaw`SELECT 1 FROM boxes WHERE id = ${boxId} FOR UPDATE`;
    return applyChange(tx, await tx.box.findUniqueOrThrow({ where: { id: boxId } }), change, rt.now());
  });
}

/**
 * changeState for work that may have been overtaken: only while the box's operation is still `owned` (a
 * delete_box may have taken the box over meanwhile: then nothing changes and the answer is null).
 */
export async function changeOwnState(rt: BoxesRuntime, boxId: string, owned: Operation, change: StateChange): Promise<BoxRow | null> {
  return rt.db.$transaction(async (tx) => {
    await tx.$executeRaw`SELECT 1 FROM boxes WHERE id = ${boxId} FOR UPDATE`;
    const row = await tx.box.findUniqueOrThrow({ where: { id: boxId } });
    return sameOperation(operationOf(row), owned) ? applyChange(tx, row, change, rt.now()) : null;
  });
}

/**
 * Ends `owned` without changing the box's state (fork and snapshot leave their source as it was). `db` may be a
 * transaction, so that the end of the operation becomes visible together with its outcome.
 */
export async function releaseOperation(db: BoxesTx, boxId: string, owned: Operation): Promise<void> {
  await db.$executeRaw`
    UPDATE boxes SET operation = NULL, version = version + 1, updated_at = now()
     WHERE id = ${boxId} AND operation->>'kind' = ${owned.kind} AND operation->>'startedAt' = ${owned.startedAt}
       AND operation->>'instance' = ${owned.instance}`;
}

const sameOperation = (a: Operation | null, b: Operation) =>
  a !== null && a.kind === b.kind && a.startedAt === b.startedAt && a.instance === b.instance;

async function applyChange(tx: BoxesTx, row: BoxRow, change: StateChange, now: Date): Promise<BoxRow> {
  const moved = row.state !== change.state;
  if (moved) await moveInterval(tx, row, change, now);
  return tx.box.update({
    where: { id: row.id },
    data: {
      state: change.state,
      stateReason: change.reason,
      ...(change.endOperation === false ? {} : { operation: Prisma.DbNull }),
      ...(change.runtime === undefined
        ? {}
        : { runtime: change.runtime === null ? Prisma.DbNull : (change.runtime as Prisma.InputJsonValue) }),
      ...(moved ? { stateChangedAt: now } : {}),
      ...(moved && change.state === "running" ? { runningSince: now } : {}),
      ...(change.state === "deleted" ? { liveName: null, deletedAt: now } : {}),
      updatedAt: now,
      version: { increment: 1 },
    },
  });
}

/** Closes the open interval; a deleted box has no open interval any more. */
async function moveInterval(tx: BoxesTx, row: BoxRow, change: StateChange, now: Date): Promise<void> {
  await tx.boxInterval.updateMany({ where: { boxId: row.id, endedAt: null }, data: { endedAt: now } });
  if (change.state === "deleted") return;
  await tx.boxInterval.create({ data: intervalOf(row, change.state, change.reason, now) });
}

export function intervalOf(
  row: Pick<BoxRow, "id" | "accountId" | "vcpus" | "memMiB" | "dataGiB" | "kind" | "createdBy" | "createdByAgent">,
  state: BoxState,
  reason: string | null,
  at: Date,
) {
  return {
    boxId: row.id,
    accountId: row.accountId,
    state,
    reason,
    startedAt: at,
    vcpus: row.vcpus,
    memMiB: row.memMiB,
    dataGiB: row.dataGiB,
    kind: row.kind,
    personId: row.createdBy,
    agentId: row.createdByAgent,
  };
}

/** Why the box cannot do `action` now, in words an agent can act on. */
export function preconditionError(box: BoxRow, action: string): DomainError {
  const operation = operationOf(box);
  const details = {
    boxId: box.id,
    state: box.state,
    operation: operation ? { kind: operation.kind, startedAt: operation.startedAt } : null,
    box: toBoxView(box),
  };
  if (operation) {
    return new DomainError(
      ErrorCode.failedPrecondition,
      `The box is busy: '${operation.kind}' started at ${operation.startedAt} is still in progress; get_box shows when it ends, then retry ${action}.`,
      details,
    );
  }
  return new DomainError(ErrorCode.failedPrecondition, `${stateSentence(box)} (${action} is not possible now).`, details);
}

function stateSentence(box: Pick<BoxRow, "state" | "stateReason">): string {
  switch (box.state) {
    case "suspended":
      // Paused with suspend_box, or by the run limit (reaper.ts): the reason says which.
      if (box.stateReason?.includes("resume_box")) return `The box is suspended: ${box.stateReason}`;
      return `The box is suspended${box.stateReason ? ` (${box.stateReason})` : ""}; only resume_box wakes it`;
    case "stopped":
      return `The box is stopped${box.stateReason ? ` (${box.stateReason})` : ""}; resume_box starts it again from its disk`;
    case "creating":
      return "The box is still being created";
    case "deleting":
    case "deleted":
      return "The box is deleted";
    case "sleeping":
      return "The box is asleep";
    default:
      return "The box is running";
  }
}
