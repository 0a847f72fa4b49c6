import { defineTool } from "@bancada/service-kit";
import type { BoardsDb } from "../db/client.js";
import { listBoardsInput } from "../domain/inputs.js";
import { listBoards } from "../domain/list-boards.js";
import { listBoardsResult } from "../domain/views.js";
import { whereBoardsAreMade } from "../prompts/where-boards-are-made.js";
import { readOnly, toolContext } from "./context.js";

export const listBoardsTool = (db: BoardsDb, consoleUrl?: string) =>
  defineTool({
    name: "list_boards",
    title: "List boards",
    description:
      "Lists the boards you can reach (member boards within this key's allowedBoardIds), with each board's four quadrants " +
      "(technical id, current title, subtitle, color, customized). Tools always take the technical quadrant id, never the title. Takes no arguments. " +
      `An empty list means this key reaches no board yet: ${whereBoardsAreMade(consoleUrl)} Tell the user so instead of retrying.`,
    input: listBoardsInput,
    output: listBoardsResult,
    annotations: readOnly,
    scope: "boards:read",
    profile: "core",
    handler: (ctx) => listBoards(toolContext(db, ctx)),
  });
