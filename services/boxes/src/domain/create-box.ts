/**
 * create_box: checks the rules of docs/boxes.md#limits (and the account's plan), then — in one transaction — what the account
 * and this machine can still hold (capacity.ts), the box's own host uid, and the box as `creating` with
 * the `create` operation claimed, then brings it up in the background (box-startup.ts). By default the
 * call waits up to 120 s for it to be ready. With an idempotency key, a repeated call — even one racing
 * the first — finds the same box instead of creating another.
 */
import { DomainError, ErrorCode, type ProgressUpdate } from "@bancada/contracts";
import type { BoxSpec } from "../driver/box-driver.js";
import { findReadySnapshot, holdReadySnapshot, snapshotHandle, type SnapshotRow } from "./snapshot-view.js";
import { createFromSnapshot } from "./snapshot-copy.js";
import type { BoxesTx, BoxRow } from "../db/client.js";
import { Prisma } from "../db/generated/client.js";
import type { Operation } from "./box-view.js";
import { toBoxView } from "./box-view.js";
import { boxAnswer } from "./box-answer.js";
import { bringUp } from "./box-startup.js";
import { admit, nextHostUid } from "./capacity.js";
import type { BoxesContext } from "./context.js";
import { claimKey, recordKey } from "./idempotency.js";
import { generatedBoxName, newBoxId } from "./ids.js";
import { limits } from "./limits.js";
import { planOf, type Plan } from "./plans.js";
import { requestHash } from "./request-hash.js";
import { checkSecretsExist } from "./secrets/secrets.js";
import type { BoxView, CreateBoxInput } from "./schemas/box.js";
import { intervalOf } from "./transitions.js";

export async function createBox(
  ctx: BoxesContext,
  input: CreateBoxInput,
  signal?: AbortSignal,
  progress?: (update: ProgressUpdate) => void,
): Promise<BoxView> {
  const plan = await planOf(ctx);
  checkPlan(plan, input);
  checkSources(ctx, input);
  await checkSecretsExist(ctx, input.secrets);
  const snapshot = input.snapshotId === undefined ? null : await findReadySnapshot(ctx, input.snapshotId);
  // A box from a snapshot holds at least the snapshot's disk.
  const sized = snapshot ? { ...input, dataGiB: Math.max(input.dataGiB, snapshot.dataGiB) } : input;
  const { row, fresh } = await recordBox(ctx, sized, plan, snapshot);
  if (fresh) {
    const steps = { setup: input.setup, task: input.task };
    const fromSnapshot = snapshot && ((spec: BoxSpec) => createFromSnapshot(ctx, spec, snapshotHandle(snapshot)));
    void ctx.operations.run(row.id, `create ${row.id}`, (cancel) => bringUp(ctx, row, steps, cancel, fromSnapshot ?? undefined));
  }
  if (!input.wait) return boxAnswer(ctx, row);
  return boxAnswer(ctx, await untilSettled(ctx, row.id, limits.createWaitMs, signal, progress));
}

/** Limits that depend on the account's plan: failed_precondition, naming the field, so the caller can pick another value. */
function checkPlan(plan: Plan, input: CreateBoxInput): void {
  const refuse = (field: string, message: string) => {
    throw new DomainError(ErrorCode.failedPrecondition, `${message} (plan ${plan.name}).`, {
      plan: plan.name,
      issues: [{ path: field, message }],
    });
  };
  if (input.vcpus > plan.maxVcpus) refuse("vcpus", `this workspace's plan allows at most ${plan.maxVcpus} vCPUs`);
  if (input.autoSuspendSeconds === 0 && !plan.paid) refuse("autoSuspendSeconds", "autoSuspendSeconds 0 (never sleep) needs a paid plan");
  if (input.maxRunMinutes === -1 && !plan.paid) refuse("maxRunMinutes", "maxRunMinutes -1 (unlimited) needs a paid plan");
}

/** The template named must exist (the snapshot: findReadySnapshot; secrets: checkSecretsExist). */
function checkSources(ctx: BoxesContext, input: CreateBoxInput): void {
  const { template } = ctx.driver;
  if (input.template !== undefined && input.template !== template.name) {
    throw new DomainError(ErrorCode.notFound, `No template '${input.template}' in this workspace; available: '${template.name}'.`, {
      template: input.template,
    });
  }
  if (input.templateVersion !== undefined && input.templateVersion !== template.version) {
    throw new DomainError(
      ErrorCode.notFound,
      `Template ${template.name} has no version '${input.templateVersion}'; current: '${template.version}'.`,
      {
        templateVersion: input.templateVersion,
      },
    );
  }
}

async function recordBox(
  ctx: BoxesContext,
  input: CreateBoxInput,
  plan: Plan,
  snapshot: SnapshotRow | null,
): Promise<{ row: BoxRow; fresh: boolean }> {
  const { wait: _wait, idempotencyKey, ...args } = input;
  // A box the driver started ahead (its warm pool) becomes this one: its host uid is recorded as the box's.
  const resources = { vcpus: input.vcpus, memMiB: input.memMiB, dataGiB: input.dataGiB };
  const warmUid = snapshot ? null : ((await ctx.driver.reserveWarmBox?.(resources)) ?? null);
  const release = async () => {
    if (warmUid !== null) await ctx.driver.releaseWarmBox?.(warmUid);
  };
  try {
    const recorded = await ctx.db.$transaction(async (tx) => {
      if (idempotencyKey) {
        const claim = await claimKey(tx, ctx.accountId, "create_box", idempotencyKey, requestHash(args));
        if (claim.kind === "replay") return { row: await tx.box.findUniqueOrThrow({ where: { id: claim.resourceId } }), fresh: false };
      }
      // After the replay check: repeating a create that succeeded is never refused for the capacity it holds.
      await admit(tx, ctx, plan, { vcpus: input.vcpus, memMiB: input.memMiB, dataGiB: input.dataGiB }, { host: true });
      if (snapshot) await holdReadySnapshot(tx, snapshot.id);
      const origin = snapshot ? { snapshotId: snapshot.id, template: snapshot } : warmUid !== null ? { hostUid: warmUid } : {};
      const row = await insertBox(tx, ctx, input, origin);
      if (idempotencyKey) await recordKey(tx, ctx.accountId, "create_box", idempotencyKey, row.id);
      return { row, fresh: true };
    });
    if (!recorded.fresh) await release();
    return recorded;
  } catch (error) {
    await release();
    if (error instanceof Prisma.PrismaClientKnownRequestError && error.code === "P2002" && input.name)
      throw await nameTaken(ctx, input.name);
    throw error;
  }
}

/** What a new box is made of: create_box's arguments, or those fork_box derives from the source box. */
export type BoxDraft = Pick<
  CreateBoxInput,
  "name" | "vcpus" | "memMiB" | "dataGiB" | "autoSuspendSeconds" | "maxRunMinutes" | "deleteAfterSeconds" | "metadata" | "secrets"
> &
  Partial<Pick<CreateBoxInput, "setup" | "task">>;

/** Where a new box's disk comes from, when not empty: a snapshot, or the box it is a fork of. */
export interface BoxOrigin {
  snapshotId?: string;
  forkedFrom?: string;
  /** The template of the disk it copies. */
  template?: { template: string; templateVersion: string };
  /** The host uid of a box the driver started ahead for it (reserveWarmBox); otherwise the next one is taken. */
  hostUid?: number;
}

/** Records a new box as `creating` with the `create` operation claimed, and its first interval. */
export async function insertBox(tx: BoxesTx, ctx: BoxesContext, input: BoxDraft, origin: BoxOrigin = {}): Promise<BoxRow> {
  if (input.name && (await tx.box.findFirst({ where: { accountId: ctx.accountId, liveName: input.name } })))
    throw await nameTaken(ctx, input.name);
  const now = ctx.now();
  const operation: Operation = { kind: "create", startedAt: now.toISOString(), instance: ctx.instance };
  const resources = { vcpus: input.vcpus, memMiB: input.memMiB, dataGiB: input.dataGiB };
  const name = input.name ?? (await freeName(tx, ctx.accountId));
  const row = await tx.box.create({
    data: {
      id: newBoxId(),
      accountId: ctx.accountId,
      hostUid: origin.hostUid ?? (await nextHostUid(tx, ctx)),
      name,
      liveName: name,
      state: "creating",
      operation: operation as unknown as Prisma.InputJsonValue,
      template: origin.template?.template ?? ctx.driver.template.name,
      templateVersion: origin.template?.templateVersion ?? ctx.driver.template.version,
      snapshotId: origin.snapshotId ?? null,
      forkedFrom: origin.forkedFrom ?? null,
      ...resources,
      autoSuspendSeconds: input.autoSuspendSeconds,
      maxRunMinutes: input.maxRunMinutes,
      deleteAfterSeconds: input.deleteAfterSeconds ?? null,
      metadata: input.metadata,
      kind: input.metadata.kind ?? null,
      secrets: input.secrets,
      ...(input.setup ? { setup: input.setup as Prisma.InputJsonValue } : {}),
      ...(input.task ? { task: input.task as Prisma.InputJsonValue } : {}),
      driver: ctx.driver.kind,
      node: ctx.driver.node,
      enforcement: ctx.driver.enforcement(resources) as unknown as Prisma.InputJsonValue,
      createdAt: now,
      createdBy: ctx.personId,
      createdByAgent: ctx.agentId,
      updatedAt: now,
      stateChangedAt: now,
      lastActivityAt: now,
      version: 1,
    },
  });
  await tx.boxInterval.create({ data: intervalOf(row, "creating", null, now) });
  return row;
}

export async function freeName(tx: BoxesTx, accountId: string): Promise<string> {
  for (;;) {
    const name = generatedBoxName();
    if (!(await tx.box.findFirst({ where: { accountId, liveName: name } }))) return name;
  }
}

export async function nameTaken(ctx: BoxesContext, name: string): Promise<DomainError> {
  const current = await ctx.db.box.findFirst({ where: { accountId: ctx.accountId, liveName: name } });
  return new DomainError(ErrorCode.conflict, `A box named ${name} already exists in this workspace; pick another name or use that box.`, {
    name,
    ...(current ? { current: toBoxView(current) } : {}),
  });
}

/**
 * Waits until no operation is in progress (the box is ready, or failed), the deadline, or the caller leaving;
 * reports progress every few seconds meanwhile.
 */
export async function untilSettled(
  ctx: BoxesContext,
  boxId: string,
  timeoutMs: number,
  signal?: AbortSignal,
  progress?: (update: ProgressUpdate) => void,
): Promise<BoxRow> {
  const [row] = await untilAllSettled(ctx, [boxId], timeoutMs, signal, progress);
  return row!;
}

/** untilSettled for several boxes (fork_box's copies): progress says how many are ready. */
export async function untilAllSettled(
  ctx: BoxesContext,
  boxIds: string[],
  timeoutMs: number,
  signal?: AbortSignal,
  progress?: (update: ProgressUpdate) => void,
): Promise<BoxRow[]> {
  const started = Date.now();
  const until = started + timeoutMs;
  let reported = started;
  for (;;) {
    const rows = await Promise.all(boxIds.map((id) => ctx.db.box.findUniqueOrThrow({ where: { id } })));
    const busy = rows.filter((row) => row.operation);
    if (busy.length === 0 || Date.now() >= until || signal?.aborted) return rows;
    if (progress && Date.now() - reported >= limits.progressEveryMs) {
      reported = Date.now();
      const message =
        rows.length === 1
          ? `box ${rows[0]!.state}${rows[0]!.stateReason ? ` (${rows[0]!.stateReason})` : ""}`
          : `${rows.length - busy.length} of ${rows.length} boxes ready`;
      progress({ progress: Math.round((reported - started) / 1000), total: Math.round(timeoutMs / 1000), message });
    }
    // Work this process runs is waited for (no polling delay on the hot path); another process's is polled.
    let timer: NodeJS.Timeout | undefined;
    const local = busy.map((row) => ctx.operations.ended(row.id)).filter((ended) => ended !== null);
    await Promise.race([...local, new Promise((resolve) => (timer = setTimeout(resolve, 100)))]);
    clearTimeout(timer);
  }
}
