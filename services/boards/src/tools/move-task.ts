import { defineTool } from "@bancada/service-kit";
import type { BoardsDb } from "../db/client.js";
import { moveTaskInput } from "../domain/inputs.js";
import { moveTask } from "../domain/move-task.js";
import { taskResult } from "../domain/views.js";
import { toolContext, write } from "./context.js";

export const moveTaskTool = (db: BoardsDb) =>
  defineTool({
    name: "move_task",
    title: "Move a task",
    description:
      "Moves an active task to a quadrant (technical id): just before beforeId (a task of that quadrant) or, without beforeId, to the end. " +
      "expectedVersion must be the version you read, else VERSION_CONFLICT.",
    input: moveTaskInput,
    output: taskResult,
    annotations: write,
    scope: "boards:write",
    profile: "core",
    handler: (ctx, input) => moveTask(toolContext(db, ctx), input),
  });
