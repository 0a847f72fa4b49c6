/**
 * A job's status comes from the driver (its exit file, its waiter process) and is written to Postgres
 * once, when the job ends: `UPDATE … WHERE status = 'running'` makes concurrent finalizers harmless.
 */
import { DomainError, ErrorCode } from "@bancada/contracts";
import type { BoxRow, JobRow } from "../db/client.js";
import type { JobProbe } from "../driver/box-driver.js";
import type { BoxesContext, BoxesRuntime } from "./context.js";
import { boxHandle } from "./find-box.js";

const killSignals = new Set(["SIGKILL", "SIGTERM", "SIGINT", "SIGHUP"]);

export async function findJob(ctx: BoxesContext, box: BoxRow, jobId: string): Promise<JobRow> {
  const job = await ctx.db.job.findFirst({ where: { id: jobId, boxId: box.id, accountId: ctx.accountId } });
  if (!job) throw new DomainError(ErrorCode.notFound, `No job ${jobId} in box ${box.name}.`, { jobId, boxId: box.id });
  return job;
}

/** Asks the driver about a running job and records its end if it ended. */
export async function refreshJob(rt: BoxesRuntime, box: Pick<BoxRow, "id" | "runtime">, job: JobRow): Promise<JobRow> {
  if (job.status !== "running") return job;
  const probe = await rt.driver.probeJob(boxHandle(box), job.id, job.runtime);
  if (probe.state === "running") return job;
  return finishJob(rt, job.id, probe);
}

export async function finishJob(rt: BoxesRuntime, jobId: string, probe: Exclude<JobProbe, { state: "running" }>): Promise<JobRow> {
  const ended =
    probe.state === "lost"
      ? { status: "killed" as const, exitCode: null, signal: null, statusReason: probe.reason }
      : {
          status: probe.oomKilled
            ? ("killed" as const)
            : probe.signal
              ? killSignals.has(probe.signal)
                ? ("killed" as const)
                : ("failed" as const)
              : probe.exitCode === 0
                ? ("succeeded" as const)
                : ("failed" as const),
          exitCode: probe.exitCode,
          signal: probe.signal,
          oomKilled: probe.oomKilled === true,
          statusReason: probe.oomKilled ? oomReason(null) : probe.signal ? `ended by ${probe.signal}` : null,
        };
  await rt.db.job.updateMany({ where: { id: jobId, status: "running" }, data: { ...ended, endedAt: new Date() } });
  return rt.db.job.findUniqueOrThrow({ where: { id: jobId } });
}

/** What a command ended by the out-of-memory killer is told. */
export function oomReason(memMiB: number | null): string {
  const limit = memMiB === null ? "its memory limit (memMiB)" : `its memory limit of ${memMiB} MiB (memMiB)`;
  return `killed by the out-of-memory killer: the box reached ${limit}; use less memory, or a box with more`;
}
