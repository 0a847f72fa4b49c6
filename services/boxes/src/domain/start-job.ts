/**
 * start_job: a command in the background, outliving the call (and a restart of the service). The job
 * is started inside the transaction that records it, so either it runs and has a record, or neither;
 * an idempotency key claimed in that transaction makes a repeated call return the first job.
 */
import type { BoxRow, JobRow } from "../db/client.js";
import { awakeBox } from "./awake.js";
import type { BoxesContext, BoxesRuntime } from "./context.js";
import { driverFailure } from "./driver-errors.js";
import { boxHandle } from "./find-box.js";
import { claimKey, recordKey } from "./idempotency.js";
import { newJobId } from "./ids.js";
import type { JobCommand } from "./job-view.js";
import { toJobView } from "./job-view.js";
import { requestHash } from "./request-hash.js";
import { secretEnv } from "./secrets/secrets.js";
import { inBoxPath } from "./schemas/common.js";
import type { JobView, StartJobInput } from "./schemas/exec.js";

export interface JobSpec {
  name: string | null;
  command: JobCommand;
  cwd: string;
  env: Record<string, string>;
}

export function startJob(ctx: BoxesContext, input: StartJobInput): Promise<JobView> {
  return ctx.accountCalls.run(ctx.accountId, "this start_job", () => startJobIn(ctx, input));
}

async function startJobIn(ctx: BoxesContext, input: StartJobInput): Promise<JobView> {
  const box = await awakeBox(ctx, input.boxId, "start_job");
  const spec = jobSpec(input);
  const { idempotencyKey, ...args } = input;
  const key = idempotencyKey ? { key: idempotencyKey, hash: requestHash({ ...args, boxId: box.id }) } : undefined;
  try {
    return toJobView(await launchJob(ctx, box, spec, { personId: ctx.personId, agentId: ctx.agentId, accountId: ctx.accountId }, key));
  } catch (error) {
    return driverFailure(ctx, box, error);
  }
}

export function jobSpec(input: {
  name?: string | undefined;
  cmd?: string | undefined;
  argv?: string[] | undefined;
  cwd?: string | undefined;
  env?: Record<string, string> | undefined;
}): JobSpec {
  return {
    name: input.name ?? null,
    command: input.cmd !== undefined ? { cmd: input.cmd } : { argv: input.argv ?? [] },
    cwd: inBoxPath(input.cwd ?? "/data/home"),
    env: input.env ?? {},
  };
}

interface Actor {
  accountId: string;
  personId: string;
  agentId: string;
}

export async function launchJob(
  rt: BoxesRuntime,
  box: BoxRow,
  spec: JobSpec,
  actor: Actor,
  key?: { key: string; hash: string },
): Promise<JobRow> {
  const started: { jobId?: string; runtime?: unknown } = {};
  try {
    return await rt.db.$transaction(async (tx) => {
      if (key) {
        const claim = await claimKey(tx, actor.accountId, "start_job", key.key, key.hash);
        if (claim.kind === "replay") return tx.job.findUniqueOrThrow({ where: { id: claim.resourceId } });
      }
      const id = newJobId();
      // The box's secrets under the call's own env; only the call's names are recorded (envNames).
      const env = { ...(await secretEnv(rt, box)), ...spec.env };
      const runtime = await rt.driver.startJob(boxHandle(box), { jobId: id, command: spec.command, cwd: spec.cwd, env });
      Object.assign(started, { jobId: id, runtime });
      const row = await tx.job.create({
        data: {
          id,
          boxId: box.id,
          accountId: actor.accountId,
          name: spec.name,
          command: spec.command,
          cwd: spec.cwd,
          envNames: Object.keys(spec.env),
          status: "running",
          runtime: runtime as object,
          createdAt: new Date(),
          createdBy: actor.personId,
          createdByAgent: actor.agentId,
        },
      });
      if (key) await recordKey(tx, actor.accountId, "start_job", key.key, id);
      return row;
    });
  } catch (error) {
    // Started but not recorded (the transaction failed): a job nobody can see must not keep running.
    if (started.jobId) await rt.driver.killJob(boxHandle(box), started.jobId, started.runtime).catch(() => {});
    throw error;
  }
}
