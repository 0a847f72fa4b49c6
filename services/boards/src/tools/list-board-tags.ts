import { defineTool } from "@bancada/service-kit";
import type { BoardsDb } from "../db/client.js";
import { boardRef } from "../domain/inputs.js";
import { listBoardTags } from "../domain/list-tags.js";
import { listTagsResult } from "../domain/views.js";
import { readOnly, toolContext } from "./context.js";

export const listBoardTagsTool = (db: BoardsDb) =>
  defineTool({
    name: "list_board_tags",
    title: "List a board's tags",
    description:
      "Lists the board's tags { id, name, color } in alphabetical order: the ids create_task and update_task accept in tagIds. " +
      "Creating, renaming or deleting tags is done in the app.",
    input: boardRef,
    output: listTagsResult,
    annotations: readOnly,
    scope: "boards:read",
    profile: "core",
    handler: (ctx, input) => listBoardTags(toolContext(db, ctx), input.boardId),
  });
