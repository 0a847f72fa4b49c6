import { defineTool } from "@bancada/service-kit";
import type { BoardsDb } from "../db/client.js";
import { updateTaskInput } from "../domain/inputs.js";
import { updateTask } from "../domain/update-task.js";
import { taskResult } from "../domain/views.js";
import { toolContext, write } from "./context.js";

export const updateTaskTool = (db: BoardsDb) =>
  defineTool({
    name: "update_task",
    title: "Edit a task",
    description:
      'Edits title (required), description, due date and tags. An omitted optional field keeps its value; description "" removes it; ' +
      "the due date cannot be removed here (the app can); without tagIds the tags stay, tagIds: [] removes all. " +
      "expectedVersion must be the version you read, else VERSION_CONFLICT. Archived tasks cannot be edited.",
    input: updateTaskInput,
    output: taskResult,
    annotations: { ...write, destructiveHint: true },
    scope: "boards:write",
    profile: "core",
    handler: (ctx, input) => updateTask(toolContext(db, ctx), input),
  });
