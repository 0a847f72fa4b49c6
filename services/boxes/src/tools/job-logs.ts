import { defineTool } from "@bancada/service-kit";
import type { BoxesRuntime } from "../domain/context.js";
import { jobLogs } from "../domain/job-logs.js";
import { jobLogsInput, jobLogsResult } from "../domain/schemas/exec.js";
import { onBox, readsOnly } from "./context.js";

export const jobLogsTool = (rt: BoxesRuntime) =>
  defineTool({
    name: "job_logs",
    title: "Job output",
    description:
      "Reads a job's output (stdout and stderr interleaved). Use offset to continue where the last read stopped (its nextOffset), " +
      "or tail for the last N lines. Returns { data, offset, nextOffset, size, hasMore, truncated, status }; one read carries at most 1 MB. " +
      "A log keeps a job's first 64 MB; truncated says the job wrote more.",
    input: jobLogsInput,
    output: jobLogsResult,
    annotations: readsOnly,
    scope: "boxes:read",
    profile: "core",
    handler: async (ctx, input) => jobLogs(await onBox(rt, ctx, input.boxId), input),
  });
