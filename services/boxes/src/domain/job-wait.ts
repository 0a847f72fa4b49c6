/**
 * job_wait: waits up to timeoutSeconds (≤ 600) for the job to end and answers the job; still running
 * at the deadline → status running. When the caller goes away (client disconnect, cancellation) the
 * wait stops at once; the job itself keeps running.
 */
import { DomainError, ErrorCode } from "@bancada/contracts";
import type { ProgressUpdate } from "@bancada/contracts";
import type { BoxesContext } from "./context.js";
import { boxHandle, findBox } from "./find-box.js";
import { findJob, refreshJob } from "./job-status.js";
import { toJobView } from "./job-view.js";
import type { JobView, JobWaitInput } from "./schemas/exec.js";

const pollMs = 1_000;
const minLoopMs = 100;
const progressEveryMs = 5_000;

export async function jobWait(
  ctx: BoxesContext,
  input: JobWaitInput,
  signal?: AbortSignal,
  progress?: (update: ProgressUpdate) => void,
): Promise<JobView> {
  const box = await findBox(ctx, input.boxId);
  let job = await findJob(ctx, box, input.jobId);
  const started = Date.now();
  const deadline = started + input.timeoutSeconds * 1000;
  let lastProgress = started;
  ctx.inFlight.jobWait++;
  try {
    for (;;) {
      job = await refreshJob(ctx, box, job);
      if (job.status !== "running") return toJobView(job);
      if (signal?.aborted) throw cancelled();
      const now = Date.now();
      if (now >= deadline) return toJobView(job);
      if (progress && now - lastProgress >= progressEveryMs) {
        lastProgress = now;
        progress({ progress: Math.round((now - started) / 1000), total: input.timeoutSeconds, message: `job ${job.id} still running` });
      }
      const loopStart = Date.now();
      await ctx.driver.jobChanged(boxHandle(box), job.id, Math.min(pollMs, deadline - now), signal);
      const spent = Date.now() - loopStart;
      if (spent < minLoopMs && !signal?.aborted) await new Promise((resolve) => setTimeout(resolve, minLoopMs - spent));
    }
  } finally {
    ctx.inFlight.jobWait--;
  }
}

function cancelled(): DomainError {
  return new DomainError(
    ErrorCode.deadlineExceeded,
    "The wait was cancelled by the caller; the job keeps running (job_wait again to follow it).",
    { cancelled: true },
  );
}
