/**
 * create_box: checks the rules of docs/boxes.md#limits (and the account's plan), then — in one transaction — what the account
 * and this machine can still hold (capacity.ts), the box's own host uid, and the box as `creating` with
 * the `create` operation claimed, then brings it up in the background (box-startup.ts). By default the
 * call waits up to 120 s for it to be ready. With an idempotency key, a repeated call — even one racing
 * the first — finds the same box instead of creating another.
 */
import { DomainError, ErrorCode } from "@bancada/contracts";
import type { BoxesTx, BoxRow } from "../db/client.js";
import { Prisma } from "../db/generated/client.js";
import type { Operation } from "./box-view.js";
import { toBoxView } from "./box-view.js";
import { bringUp } from "./box-startup.js";
import { admit, nextHostUid } from "./capacity.js";
import type { BoxesContext } from "./context.js";
import { claimKey, recordKey } from "./idempotency.js";
import { generatedBoxName, newBoxId } from "./ids.js";
import { limits } from "./limits.js";
import { planOf, type Plan } from "./plans.js";
import { requestHash } from "./request-hash.js";
import type { BoxView, CreateBoxInput } from "./schemas/box.js";
import { intervalOf } from "./transitions.js";

export async function createBox(ctx: BoxesContext, input: CreateBoxInput, signal?: AbortSignal): Promise<BoxView> {
  const plan = await planOf(ctx);
  checkPlan(plan, input);
  checkSources(ctx, input);
  const { row, fresh } = await recordBox(ctx, input, plan);
  if (fresh) void ctx.background.run(`create ${row.id}`, () => bringUp(ctx, row, { setup: input.setup, task: input.task }));
  if (!input.wait) return toBoxView(row);
  return toBoxView(await untilSettled(ctx, row.id, limits.createWaitMs, signal));
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

/** The template, snapshot and secrets named must exist. */
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
  if (input.snapshotId !== undefined) {
    throw new DomainError(
      ErrorCode.notFound,
      `No snapshot ${input.snapshotId} in this workspace: this version of boxes has no snapshots yet (save_snapshot comes later).`,
      { snapshotId: input.snapshotId },
    );
  }
  if (input.secrets.length > 0) {
    throw new DomainError(
      ErrorCode.notFound,
      `No workspace secret named ${input.secrets.join(", ")}: this version of boxes has no workspace secrets yet.`,
      { secrets: input.secrets },
    );
  }
}

async function recordBox(ctx: BoxesContext, input: CreateBoxInput, plan: Plan): Promise<{ row: BoxRow; fresh: boolean }> {
  const { wait: _wait, idempotencyKey, ...args } = input;
  try {
    return await ctx.db.$transaction(async (tx) => {
      if (idempotencyKey) {
        const claim = await claimKey(tx, ctx.accountId, "create_box", idempotencyKey, requestHash(args));
        if (claim.kind === "replay") return { row: await tx.box.findUniqueOrThrow({ where: { id: claim.resourceId } }), fresh: false };
      }
      // After the replay check: repeating a create that succeeded is never refused for the capacity it holds.
      await admit(tx, ctx, plan, { vcpus: input.vcpus, memMiB: input.memMiB }, { host: true });
      const row = await insertBox(tx, ctx, input);
      if (idempotencyKey) await recordKey(tx, ctx.accountId, "create_box", idempotencyKey, row.id);
      return { row, fresh: true };
    });
  } catch (error) {
    if (error instanceof Prisma.PrismaClientKnownRequestError && error.code === "P2002" && input.name)
      throw await nameTaken(ctx, input.name);
    throw error;
  }
}

async function insertBox(tx: BoxesTx, ctx: BoxesContext, input: CreateBoxInput): Promise<BoxRow> {
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
      hostUid: await nextHostUid(tx, ctx),
      name,
      liveName: name,
      state: "creating",
      operation: operation as unknown as Prisma.InputJsonValue,
      template: ctx.driver.template.name,
      templateVersion: ctx.driver.template.version,
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

async function freeName(tx: BoxesTx, accountId: string): Promise<string> {
  for (;;) {
    const name = generatedBoxName();
    if (!(await tx.box.findFirst({ where: { accountId, liveName: name } }))) return name;
  }
}

async function nameTaken(ctx: BoxesContext, name: string): Promise<DomainError> {
  const current = await ctx.db.box.findFirst({ where: { accountId: ctx.accountId, liveName: name } });
  return new DomainError(ErrorCode.conflict, `A box named ${name} already exists in this workspace; pick another name or use that box.`, {
    name,
    ...(current ? { current: toBoxView(current) } : {}),
  });
}

/** Waits until no operation is in progress (the box is ready, or failed), the deadline, or the caller leaving. */
export async function untilSettled(ctx: BoxesContext, boxId: string, timeoutMs: number, signal?: AbortSignal): Promise<BoxRow> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const row = await ctx.db.box.findUniqueOrThrow({ where: { id: boxId } });
    if (!row.operation || Date.now() >= until || signal?.aborted) return row;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
