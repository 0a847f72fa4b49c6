import { defineTool } from "@bancada/service-kit";
import type { BoxesRuntime } from "../domain/context.js";
import { jobWait } from "../domain/job-wait.js";
import { jobResult, jobWaitInput } from "../domain/schemas/exec.js";
import { onBox, readsOnly } from "./context.js";

export const jobWaitTool = (rt: BoxesRuntime) =>
  defineTool({
    name: "job_wait",
    title: "Wait for a job",
    description:
      "Waits for the job to end (up to timeoutSeconds, at most 600 s) and returns the job with status (running|succeeded|failed|killed) and exitCode. " +
      "Still running at the deadline: status running (call again). Cancelling the call stops the wait, not the job. " +
      "Long waits send progress every 5 s; set your client's request timeout above timeoutSeconds.",
    input: jobWaitInput,
    output: jobResult,
    annotations: readsOnly,
    scope: "boxes:read",
    profile: "core",
    maxDurationMs: 610_000,
    task: "optional",
    handler: async (ctx, input) => ({ job: await jobWait(await onBox(rt, ctx, input.boxId), input, ctx.signal, ctx.progress) }),
  });
