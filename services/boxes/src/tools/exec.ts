import { defineTool } from "@bancada/service-kit";
import { onBoxNode } from "../domain/box-node.js";
import type { BoxesRuntime } from "../domain/context.js";
import { execCommand } from "../domain/exec.js";
import { execInput, execResult } from "../domain/schemas/exec.js";
import { boxesContext, changesOrDeletes } from "./context.js";

export const execTool = (rt: BoxesRuntime) =>
  defineTool({
    name: "exec",
    title: "Run a command",
    description:
      "Runs a command in the box (a shell line: a script such as python3 main.py, an apt-get or pip install, a test run) and returns " +
      "{ stdout, stderr, exitCode, durationMs, … }. Pass cmd (text for bash -lc) or argv (no shell). " +
      "Up to timeoutSeconds (1–600, default 60): at the deadline the whole process tree is killed (timedOut: true). " +
      "Each stream is kept up to 1 MB (stdoutTruncated/stderrTruncated say when cut). Processes the command leaves in the background are " +
      "killed when it returns: for long or background work use start_job. Wakes a box asleep from idleness; a box paused with suspend_box answers failed_precondition. " +
      "Long calls send progress every 5 s; set your client's request timeout above timeoutSeconds.",
    input: execInput,
    output: execResult,
    annotations: changesOrDeletes(false, true),
    scope: "boxes:exec",
    profile: "core",
    maxDurationMs: 620_000,
    task: "optional",
    handler: async (ctx, input) => {
      // the node lookup reads the whole row, and exec acts on it: one read of the box per exec
      const { ctx: on, box } = await onBoxNode(boxesContext(rt, ctx), input.boxId);
      return execCommand(on, input, ctx.signal, ctx.progress, box ?? undefined);
    },
  });
