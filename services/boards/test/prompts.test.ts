/**
 * The two MCP prompts (triage and weekly review), served by the service and aggregated by the gateway, and what
 * an agent whose key reaches no board is told: no tool creates a board, people do it in the web console (its
 * address only when the deployment gives it, BANCADA_PUBLIC_URL).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { randomUUID } from "node:crypto";
import { startStack, type Stack } from "@bancada/e2e";
import { createBoardsService } from "../src/index.js";
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

  it("when a key reaches no board, then list_boards answers [] and both it and the prompts say boards are made in the web console, naming no URL", async () => {
    const newcomer = await person(stack, randomUUID());
    try {
      expect((await newcomer.client.callTool({ name: "list_boards", arguments: {} })).structuredContent).toMatchObject({ boards: [] });
      const listBoards = (await newcomer.client.listTools()).tools.find((tool) => tool.name === "list_boards")!;
      expect(listBoards.description).toMatch(/empty list.*created by people in the web console \(its Boards page, "New board"\)/);
      for (const name of ["triage_board", "weekly_review"]) {
        const body = text(await newcomer.client.getPrompt({ name, arguments: {} }));
        expect(body).toMatch(/If list_boards returns no board, stop and tell the user: Boards are created by people in the web console/);
        expect(body).not.toMatch(/https?:/);
      }
    } finally {
      await closeAll(newcomer);
    }
  });

  it("when a client completes a prompt's boardId, then it is offered the boards it reaches, by id prefix or name, and no other", async () => {
    const complete = (who: Person, value: string) =>
      who.client.complete({ ref: { type: "ref/prompt", name: "triage_board" }, argument: { name: "boardId", value } });
    expect((await complete(ana, "")).completion.values).toContain(board.id);
    expect((await complete(ana, board.id.slice(0, 6))).completion.values).toContain(board.id);
    expect((await complete(ana, "q4")).completion.values).toEqual([board.id]);
    expect((await complete(ana, "no board has this")).completion.values).toEqual([]);
    // carl is of the same account but no member of the board; another account's key reaches none of it
    expect((await complete(carl, "")).completion.values).not.toContain(board.id);
    const stranger = await person(stack, "zoe", { accountId: "acct-elsewhere" });
    try {
      expect((await complete(stranger, "")).completion.values).toEqual([]);
    } finally {
      await closeAll(stranger);
    }
  });

  it("when the board is not accessible or the id is malformed, then the prompt request fails with the usual message", async () => {
    await expect(carl.client.getPrompt({ name: "triage_board", arguments: { boardId: board.id } })).rejects.toThrow(notAccessible);
    await expect(ana.client.getPrompt({ name: "weekly_review", arguments: { boardId: randomUUID() } })).rejects.toThrow(notAccessible);
    await expect(ana.client.getPrompt({ name: "weekly_review", arguments: { boardId: "nope" } })).rejects.toThrow(/boardId/);
  });
});

describe("prompts where the deployment gives its public URL", () => {
  let stack: Stack;
  let newcomer: Person;
  const consoleUrl = "https://bancada.example.com/";

  beforeAll(async () => {
    stack = await startStack({
      services: {
        boards: async (deps) => {
          const service = await createBoardsService({ ...deps, expiryIntervalMs: 0, consoleUrl });
          return { name: "boards", routes: service.routes, stop: () => service.stop() };
        },
      },
    });
    newcomer = await person(stack, randomUUID());
  });
  afterAll(async () => {
    await closeAll(newcomer);
    await stack?.stop();
  });

  it("when BANCADA_PUBLIC_URL is set, then list_boards and the prompts send the person to the console's Boards page at that URL", async () => {
    const page = "https://bancada.example.com/#/boards";
    const listBoards = (await newcomer.client.listTools()).tools.find((tool) => tool.name === "list_boards")!;
    expect(listBoards.description).toContain(`in the web console at ${page} ("New board")`);
    for (const name of ["triage_board", "weekly_review"]) {
      const body = (await newcomer.client.getPrompt({ name, arguments: {} })).messages[0]!.content;
      expect(body).toMatchObject({ type: "text", text: expect.stringContaining(`in the web console at ${page}`) });
    }
  });
});
