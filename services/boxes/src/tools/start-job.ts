import { defineTool } from "@bancada/service-kit";
import type { BoxesRuntime } from "../domain/context.js";
import { startJob } from "../domain/start-job.js";
import { jobResult, startJobInput } from "../domain/schemas/exec.js";
import { onBox, changesOrDeletes } from "./context.js";

export const startJobTool = (rt: BoxesRuntime) =>
  defineTool({
    name: "start_job",
    title: "Start a job",
    description:
      "Starts a long command in the background (no deadline) and returns the job at once. Follow it with job_logs and job_wait. " +
      "The job outlives this call and a restart of the service. While it runs the box does not sleep from idleness. " +
      "Pass an idempotencyKey so that a retry returns the same job instead of starting a second one.",
    input: startJobInput,
    output: jobResult,
    annotations: changesOrDeletes(false, true),
    scope: "boxes:exec",
    profile: "core",
    maxDurationMs: 60_000,
    handler: async (ctx, input) => ({ job: await startJob(await onBox(rt, ctx, input.boxId), input) }),
  });
