import { defineTool } from "@bancada/service-kit";
import type { BoardsDb } from "../db/client.js";
import { getTaskActivity } from "../domain/get-activity.js";
import { pagedBoardRef } from "../domain/inputs.js";
import { activityResult } from "../domain/views.js";
import { readOnly, toolContext } from "./context.js";

export const getTaskActivityTool = (db: BoardsDb) =>
  defineTool({
    name: "get_task_activity",
    title: "Board activity",
    description:
      "Lists the whole board's activity, newest first, 25 per page (cursor = nextCursor). To follow one task, filter the events by entity_id. " +
      "History is kept 90 days: coverageStart says since when it is available.",
    input: pagedBoardRef,
    output: activityResult,
    annotations: readOnly,
    scope: "boards:read",
    profile: "full",
    handler: (ctx, input) => getTaskActivity(toolContext(db, ctx), input),
  });
