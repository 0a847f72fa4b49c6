import { defineTool } from "@bancada/service-kit";
import type { BoardsDb } from "../db/client.js";
import { taskTransitionInput } from "../domain/inputs.js";
import { completeTask } from "../domain/task-status.js";
import { taskResult } from "../domain/views.js";
import { toolContext, write } from "./context.js";

export const completeTaskTool = (db: BoardsDb) =>
  defineTool({
    name: "complete_task",
    title: "Complete a task",
    description:
      "Marks an active task completed (it keeps its quadrant). expectedVersion must be the version you read. Reversible with reopen_task.",
    input: taskTransitionInput,
    output: taskResult,
    annotations: write,
    scope: "boards:write",
    profile: "core",
    handler: (ctx, input) => completeTask(toolContext(db, ctx), input),
  });
