/**
 * fork_box: 1–5 new boxes on the same node whose disks are copies of the source box's disk (not its memory:
 * each copy starts with fresh processes). One transaction checks the account's plan and this machine for all
 * the copies at once (boxes, vCPUs, memory, disk), claims the `fork` operation on the source and records the
 * copies as `creating`. Then, in the background, the disk is copied once per copy while the source is held
 * still (driver.copyDisk: copy-on-write where the filesystem allows), the source is let go, and each copy
 * starts. With an idempotency key a repeated call answers the same copies.
 */
import { DomainError, ErrorCode, type ProgressUpdate } from "@bancada/contracts";
import type { BoxesTx, BoxRow } from "../db/client.js";
import { Prisma } from "../db/generated/client.js";
import type { DiskCopy } from "../driver/box-driver.js";
import { operationOf } from "./box-view.js";
import { boxAnswers } from "./box-answer.js";
import { bringUp } from "./box-startup.js";
import { admit } from "./capacity.js";
import type { BoxesContext } from "./context.js";
import { freeName, insertBox, nameTaken, untilAllSettled, type BoxDraft } from "./create-box.js";
import { boxHandle, findBox } from "./find-box.js";
import { claimKey, recordKey } from "./idempotency.js";
import { limits } from "./limits.js";
import { planOf, type Plan } from "./plans.js";
import { requestHash } from "./request-hash.js";
import type { ForkBoxInput, ForkBoxResult } from "./schemas/disk.js";
import { changeOwnState, claimOperation, newOperation, preconditionError, releaseOperation } from "./transitions.js";

/** A box may be forked in any state that has a disk and no operation in progress. */
const forkableStates = ["running", "sleeping", "suspended", "stopped"] as const;

export async function forkBox(
  ctx: BoxesContext,
  input: ForkBoxInput,
  signal?: AbortSignal,
  progress?: (update: ProgressUpdate) => void,
): Promise<ForkBoxResult> {
  const plan = await planOf(ctx);
  const source = await findBox(ctx, input.boxId);
  const recorded = await recordFork(ctx, plan, source, input);
  if (recorded.fresh) startFork(ctx, recorded.source, recorded.copies);
  const ids = recorded.copies.map((copy) => copy.id);
  if (!input.wait) return { boxes: await boxAnswers(ctx, recorded.copies) };
  return { boxes: await boxAnswers(ctx, await untilAllSettled(ctx, ids, limits.createWaitMs, signal, progress)) };
}

async function recordFork(
  ctx: BoxesContext,
  plan: Plan,
  source: BoxRow,
  input: ForkBoxInput,
): Promise<{ source: BoxRow; copies: BoxRow[]; fresh: boolean }> {
  const { wait: _wait, idempotencyKey, boxId: _ref, ...args } = input;
  try {
    return await ctx.db.$transaction(async (tx) => {
      if (idempotencyKey) {
        const claim = await claimKey(tx, ctx.accountId, "fork_box", idempotencyKey, requestHash({ ...args, boxId: source.id }));
        if (claim.kind === "replay") {
          const ids = claim.resourceId.split(",");
          const copies = await tx.box.findMany({ where: { id: { in: ids }, accountId: ctx.accountId } });
          return { source, copies: ids.map((id) => copies.find((copy) => copy.id === id)!), fresh: false };
        }
      }
      const demand = { vcpus: source.vcpus * input.count, memMiB: source.memMiB * input.count, boxes: input.count };
      await admit(tx, ctx, plan, { ...demand, dataGiB: source.dataGiB * input.count }, { host: true });
      const operation = newOperation(ctx, "fork");
      if (!(await claimOperation(tx, ctx, source.id, operation, [...forkableStates]))) {
        throw preconditionError(await tx.box.findUniqueOrThrow({ where: { id: source.id } }), "fork_box");
      }
      const copies: BoxRow[] = [];
      for (let index = 0; index < input.count; index++) copies.push(await insertCopy(tx, ctx, source, input, index));
      if (idempotencyKey) await recordKey(tx, ctx.accountId, "fork_box", idempotencyKey, copies.map((copy) => copy.id).join(","));
      return { source: await tx.box.findUniqueOrThrow({ where: { id: source.id } }), copies, fresh: true };
    });
  } catch (error) {
    if (error instanceof Prisma.PrismaClientKnownRequestError && error.code === "P2002" && input.names) {
      const taken = await ctx.db.box.findFirst({ where: { accountId: ctx.accountId, liveName: { in: input.names } } });
      throw await nameTaken(ctx, taken?.name ?? input.names.join(", "));
    }
    throw error;
  }
}

/** A copy has the source's size, policies and secrets, its metadata with the given pairs on top. */
async function insertCopy(tx: BoxesTx, ctx: BoxesContext, source: BoxRow, input: ForkBoxInput, index: number): Promise<BoxRow> {
  const name = input.names?.[index];
  if (name && (await tx.box.findFirst({ where: { accountId: ctx.accountId, liveName: name } }))) throw await nameTaken(ctx, name);
  const metadata = { ...(source.metadata as Record<string, string>), ...input.metadata };
  if (Object.keys(metadata).length > limits.metadataPairs) {
    throw new DomainError(ErrorCode.invalidArgument, `The copies' metadata would have more than ${limits.metadataPairs} pairs.`, {
      issues: [{ path: "metadata", message: `the source's pairs and these make more than ${limits.metadataPairs}` }],
    });
  }
  return insertBox(
    tx,
    ctx,
    {
      name: name ?? (await freeName(tx, ctx.accountId)),
      // Values create_box validated when it made the source.
      vcpus: source.vcpus as BoxDraft["vcpus"],
      memMiB: source.memMiB as BoxDraft["memMiB"],
      dataGiB: source.dataGiB,
      autoSuspendSeconds: source.autoSuspendSeconds,
      maxRunMinutes: source.maxRunMinutes,
      deleteAfterSeconds: source.deleteAfterSeconds ?? undefined,
      metadata,
      secrets: source.secrets,
    },
    {
      forkedFrom: source.id,
      ...(source.snapshotId ? { snapshotId: source.snapshotId } : {}),
      template: { template: source.template, templateVersion: source.templateVersion },
    },
  );
}

/**
 * The copy, then the copies' starts. Deleting the source cancels the whole fork (its unfinished copies are
 * deleted with it); deleting one copy waits for the disk copy, then only that copy is given up.
 */
function startFork(ctx: BoxesContext, source: BoxRow, copies: BoxRow[]): void {
  const owned = operationOf(source)!;
  let copied!: (value: DiskCopy | null) => void;
  const copyPhase = new Promise<DiskCopy | null>((resolve) => (copied = resolve));
  for (const copy of copies) ctx.operations.track(copy.id, null, copyPhase);
  void ctx.operations.run(source.id, `fork ${source.id}`, async (signal) => {
    let disk: DiskCopy | null = null;
    let failure: string | null = null;
    try {
      disk = await ctx.driver.copyDisk(
        boxHandle(source),
        copies.map((copy) => ({ kind: "box" as const, id: copy.id })),
        signal,
      );
      ctx.log.info({ boxId: source.id, copies: copies.length, ...disk }, "box disk copied for fork_box");
    } catch (error) {
      failure = signal.aborted
        ? "the fork was cancelled: its source box was deleted"
        : `the disk could not be copied: ${(error as Error).message}`;
    } finally {
      copied(disk);
      await releaseOperation(ctx.db, source.id, owned);
    }
    await Promise.all(copies.map((copy) => (disk ? startCopy(ctx, copy, source, disk) : giveUpCopy(ctx, copy, failure!))));
  });
}

async function startCopy(ctx: BoxesContext, copy: BoxRow, source: BoxRow, disk: DiskCopy): Promise<void> {
  const how = disk.method === "reflink" ? "copy-on-write" : "plain sparse copy";
  // The reason records how the disk was copied and how long it took.
  const note = `fork of ${source.name} (${source.id}): disk ${how}, ${disk.durationMs} ms`;
  await bringUp(ctx, copy, { note }, undefined, (spec) => ctx.driver.createFromCopy(spec));
}

/** A copy that never got a disk is deleted, with the reason (unless a delete_box has taken it over already). */
async function giveUpCopy(ctx: BoxesContext, copy: BoxRow, reason: string): Promise<void> {
  await ctx.driver.destroy(boxHandle(copy)).catch(() => {});
  await changeOwnState(ctx, copy.id, operationOf(copy)!, { state: "deleted", reason, runtime: null });
}
