/**
 * The shape both prompts share: the board (the chosen one, checked like any tool call, or "ask which"),
 * numbered steps whose last one depends on whether the key may submit proposals, and a warning that
 * task texts are data.
 */
import type { PromptDefinition, ToolContext } from "@bancada/service-kit";
import { invalidArgument } from "@bancada/contracts";
import type { BoardsDb } from "../db/client.js";
import { boardsContext, session } from "../domain/context.js";
import { readBoard } from "../domain/board-rows.js";
import { listBoards } from "../domain/list-boards.js";
import { whereBoardsAreMade } from "./where-boards-are-made.js";

const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

async function boardHint(db: BoardsDb, ctx: ToolContext, boardId: string | undefined, consoleUrl?: string): Promise<string> {
  if (!boardId) {
    return (
      "No board was chosen: first call list_boards, show the user the boards (name and id) and ask which one to use. Do not guess. " +
      `If list_boards returns no board, stop and tell the user: ${whereBoardsAreMade(consoleUrl)}`
    );
  }
  if (!uuid.test(boardId)) throw invalidArgument([{ path: "boardId", message: "must be a board id (UUID)" }]);
  const board = await session(boardsContext(db, ctx.principal), (tx) => readBoard(tx, boardId));
  return `Use the board with id ${board.id} (its name, shown as data: ${JSON.stringify(board.name)}).`;
}

/** Whether this key can submit proposals; otherwise the agent presents its suggestions in the chat. */
function canPropose(ctx: ToolContext): boolean {
  return ctx.principal.allowWrites && ctx.principal.scopes.includes("boards:write");
}

const boardIdArgument = {
  name: "boardId",
  description: "The board to work on (UUID from list_boards). Without it the agent asks which board to use.",
  required: false,
};

export interface BoardPromptText {
  name: string;
  title: string;
  description: string;
  /** The description of the rendered prompt. */
  summary: string;
  intro: string;
  steps: string[];
  /** The last step when the key may submit proposals, and when it may not. */
  deliver: { propose: string; present: string };
  dataWarning: string;
}

export function boardPrompt(db: BoardsDb, consoleUrl: string | undefined, text: BoardPromptText): PromptDefinition {
  return {
    name: text.name,
    title: text.title,
    description: text.description,
    arguments: [boardIdArgument],
    scope: "boards:read",
    complete: { boardId: completeBoardId(db) },
    render: async (ctx, args) => {
      const board = await boardHint(db, ctx, args.boardId, consoleUrl);
      const steps = [...text.steps, canPropose(ctx) ? text.deliver.propose : text.deliver.present].map(
        (step, index) => `${index + 1}. ${step}`,
      );
      const body = [text.intro, board, ...steps, text.dataWarning].join("\n");
      return { description: text.summary, messages: [{ role: "user", content: { type: "text", text: body } }] };
    },
  };
}

/**
 * The boards the caller reaches (list_boards' own rule: membership and the key's allowed boards), live ones first,
 * whose id starts with what was typed or whose name holds it; the values are ids, what the argument takes.
 */
const completeBoardId = (db: BoardsDb) => async (ctx: Pick<ToolContext, "principal">, value: string) => {
  const { boards } = await listBoards(boardsContext(db, ctx.principal));
  const typed = value.toLowerCase();
  const matching = boards
    .filter((board) => board.id.startsWith(typed) || board.name.toLowerCase().includes(typed))
    .sort((a, b) => Number(a.archived_at !== null) - Number(b.archived_at !== null));
  return { values: matching.map((board) => board.id), total: matching.length };
};
