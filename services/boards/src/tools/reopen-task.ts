import { defineTool } from "@bancada/service-kit";
import type { BoardsDb } from "../db/client.js";
import { reopenTaskInput } from "../domain/inputs.js";
import { reopenTask } from "../domain/task-status.js";
import { taskResult } from "../domain/views.js";
import { toolContext, write } from "./context.js";

export const reopenTaskTool = (db: BoardsDb) =>
  defineTool({
    name: "reopen_task",
    title: "Reopen a task",
    description:
      "Reopens a completed or discarded task as active, at the end of the given quadrant (default: the quadrant it was in). " +
      "expectedVersion must be the version you read.",
    input: reopenTaskInput,
    output: taskResult,
    annotations: write,
    scope: "boards:write",
    profile: "full",
    handler: (ctx, input) => reopenTask(toolContext(db, ctx), input),
  });
