/** The two MCP prompts (triage and weekly review), served by the service and aggregated by the gateway. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { randomUUID } from "node:crypto";
import { startStack, type Stack } from "@bancada/e2e";
import { boardsFactory } from "./stack.js";
import { closeAll, makeBoard, notAccessible, person, type Board, type Person } from "./helpers.js";

describe("prompts", () => {
  let stack: Stack;
  let ana: Person;
  let readonly: Person;
  let carl: Person;
  let board: Board;

  beforeAll(async () => {
    stack = await startStack({ services: { boards: boardsFactory } });
    ana = await person(stack, "ana");
    readonly = await person(stack, "ana", { allowWrites: false });
    carl = await person(stack, "carl");
    board = await makeBoard(ana, 'Produto "Q4"');
  });
  afterAll(async () => {
    await closeAll(ana, readonly, carl);
    await stack?.stop();
  });

  const text = (result: { messages: { content: { type: string; text?: string } }[] }) => {
    expect(result.messages).toHaveLength(1);
    expect(result.messages[0]!.content.type).toBe("text");
    return result.messages[0]!.content.text!;
  };

  it("when a client lists prompts, then triage and weekly review are there, each with an optional boardId", async () => {
    const { prompts } = await ana.client.listPrompts();
    const ours = prompts.filter((p) => ["triage_board", "weekly_review"].includes(p.name));
    expect(ours.map((p) => p.name).sort()).toEqual(["triage_board", "weekly_review"]);
    for (const prompt of ours) {
      expect(prompt.arguments).toEqual([expect.objectContaining({ name: "boardId", required: false })]);
      expect(prompt.description?.length).toBeGreaterThan(10);
    }
  });

  it("when triage is asked for without boardId, then the agent is told to list the boards and ask which one", async () => {
    const result = await ana.client.getPrompt({ name: "triage_board", arguments: {} });
    expect(result.messages[0]!.role).toBe("user");
    expect(text(result)).toMatch(/list_boards/);
    expect(text(result)).toMatch(/ask which one/);
  });

  it("when triage is asked for a board, then the text names the board, the tools to use and submit_board_proposal", async () => {
    const body = text(await ana.client.getPrompt({ name: "triage_board", arguments: { boardId: board.id } }));
    expect(body).toContain(board.id);
    expect(body).toContain(JSON.stringify(board.name));
    for (const tool of ["list_tasks", "list_board_tags", "submit_board_proposal"]) expect(body).toContain(tool);
  });

  it("when the key cannot write, then the prompt says to present suggestions instead of submitting them", async () => {
    for (const name of ["triage_board", "weekly_review"]) {
      const body = text(await readonly.client.getPrompt({ name, arguments: { boardId: board.id } }));
      expect(body).toMatch(/cannot submit proposals/);
      expect(body).not.toMatch(/Send your suggestions with one submit_board_proposal/);
    }
  });

  it("when weekly review is asked for a board, then it guides through activity, completed and active tasks", async () => {
    const body = text(await ana.client.getPrompt({ name: "weekly_review", arguments: { boardId: board.id } }));
    for (const tool of ["get_task_activity", "list_tasks", "coverageStart"]) expect(body).toContain(tool);
  });

  it("when the board is not accessible or the id is malformed, then the prompt request fails with the usual message", async () => {
    await expect(carl.client.getPrompt({ name: "triage_board", arguments: { boardId: board.id } })).rejects.toThrow(notAccessible);
    await expect(ana.client.getPrompt({ name: "weekly_review", arguments: { boardId: randomUUID() } })).rejects.toThrow(notAccessible);
    await expect(ana.client.getPrompt({ name: "weekly_review", arguments: { boardId: "nope" } })).rejects.toThrow(/boardId/);
  });
});
