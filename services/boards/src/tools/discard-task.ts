import { defineTool } from "@bancada/service-kit";
import type { BoardsDb } from "../db/client.js";
import { taskTransitionInput } from "../domain/inputs.js";
import { discardTask } from "../domain/task-status.js";
import { taskResult } from "../domain/views.js";
import { toolContext, write } from "./context.js";

export const discardTaskTool = (db: BoardsDb) =>
  defineTool({
    name: "discard_task",
    title: "Discard a task",
    description:
      "Marks an active task discarded (it keeps its quadrant). expectedVersion must be the version you read. Reversible with reopen_task.",
    input: taskTransitionInput,
    output: taskResult,
    annotations: write,
    scope: "boards:write",
    profile: "full",
    confirmation: { message: "Discard task `{taskId}`? reopen_task brings it back." },
    handler: (ctx, input) => discardTask(toolContext(db, ctx), input),
  });
