import { defineTool } from "@bancada/service-kit";
import type { BoardsDb } from "../db/client.js";
import { createTask } from "../domain/create-task.js";
import { createTaskInput } from "../domain/inputs.js";
import { taskResult } from "../domain/views.js";
import { toolContext, write } from "./context.js";

export const createTaskTool = (db: BoardsDb) =>
  defineTool({
    name: "create_task",
    title: "Create a task",
    description:
      "Creates a task at the end of a quadrant (default backlog), optionally with a description, due date and board tags (list_board_tags). " +
      "The task's id is the requestId: generate a new UUID per task; repeating the call with the same requestId and arguments returns the same task. " +
      "Needs owner or editor role. Returns { task }.",
    input: createTaskInput,
    output: taskResult,
    annotations: write,
    scope: "boards:write",
    profile: "core",
    handler: (ctx, input) => createTask(toolContext(db, ctx), input),
  });
