/**
 * job_logs: a job's stdout and stderr, interleaved in one log, read by byte offset (continue from
 * nextOffset) or as the last N lines. One answer carries at most 1 MiB of the log, and never more
 * than the bus carries: a chunk whose JSON would not fit is shortened (from its end for an offset read,
 * from its start for a tail), and offset / nextOffset always name the bytes actually returned.
 */
import { DomainError, ErrorCode } from "@bancada/contracts";
import type { BoxesContext } from "./context.js";
import { boxHandle, findBox } from "./find-box.js";
import { findJob, refreshJob } from "./job-status.js";
import { limits } from "./limits.js";
import type { JobLogsInput, JobLogsResult } from "./schemas/exec.js";
import { jsonSize, wholeCharacters } from "./text-output.js";

export function jobLogs(ctx: BoxesContext, input: JobLogsInput): Promise<JobLogsResult> {
  return ctx.accountCalls.run(ctx.accountId, "this job_logs", () => readJobLogs(ctx, input));
}

async function readJobLogs(ctx: BoxesContext, input: JobLogsInput): Promise<JobLogsResult> {
  const box = await findBox(ctx, input.boxId);
  const found = await findJob(ctx, box, input.jobId);
  if (box.state === "deleted" || box.state === "deleting") {
    throw new DomainError(ErrorCode.failedPrecondition, "The box is deleted; its job logs went with its files.", {
      boxId: box.id,
      jobId: found.id,
    });
  }
  const job = await refreshJob(ctx, box, found);
  const maxBytes = Math.min(limits.logChunkBytes, ctx.replyBudgetBytes);
  const range = input.tail !== undefined ? { tailLines: input.tail, maxBytes } : { offset: input.offset ?? 0, maxBytes };
  const chunk = await ctx.driver.readJobLog(boxHandle(box), job.id, range);
  const kept = fitBytes(chunk.data, ctx.replyBudgetBytes, input.tail !== undefined);
  const offset = input.tail !== undefined ? chunk.nextOffset - kept.length : chunk.offset;
  return {
    jobId: job.id,
    status: job.status,
    data: kept.toString("utf8"),
    offset,
    nextOffset: offset + kept.length,
    size: chunk.size,
    hasMore: offset + kept.length < chunk.size,
    truncated: chunk.truncated,
  };
}

/** The longest part of `data` (its start, or its end) whose text fits `budget` bytes of JSON, cut on whole characters. */
function fitBytes(data: Buffer, budget: number, keepEnd: boolean): Buffer {
  const fits = (length: number) => jsonSize(part(length).toString("utf8")) <= budget;
  const part = (length: number) =>
    keepEnd ? wholeCharactersFromStart(data.subarray(data.length - length)) : wholeCharacters(data.subarray(0, length));
  if (fits(data.length)) return data;
  let low = 0;
  let high = data.length;
  while (low < high) {
    const middle = Math.ceil((low + high) / 2);
    if (fits(middle)) low = middle;
    else high = middle - 1;
  }
  return part(low);
}

/** Drops UTF-8 continuation bytes at the start of a buffer cut in the middle of a character. */
function wholeCharactersFromStart(data: Buffer): Buffer {
  let start = 0;
  while (start < data.length && start < 3 && (data[start]! & 0xc0) === 0x80) start++;
  return data.subarray(start);
}
