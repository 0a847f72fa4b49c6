import { defineTool } from "@bancada/service-kit";
import type { BoardsDb } from "../db/client.js";
import { listTasksInput } from "../domain/inputs.js";
import { listTasks } from "../domain/list-tasks.js";
import { listTasksResult } from "../domain/views.js";
import { readOnly, toolContext } from "./context.js";

export const listTasksTool = (db: BoardsDb) =>
  defineTool({
    name: "list_tasks",
    title: "List tasks",
    description:
      "Lists a board's tasks in board order (quadrant, then position), 25 per page, each with its tags and version. " +
      "Filters: quadrant, status (active, completed, discarded; default all), tagIds (tasks with any of them). Archived tasks are not listed. " +
      "Repeat with cursor = nextCursor until nextCursor is null.",
    input: listTasksInput,
    output: listTasksResult,
    annotations: readOnly,
    scope: "boards:read",
    profile: "core",
    handler: (ctx, input) => listTasks(toolContext(db, ctx), input),
  });
