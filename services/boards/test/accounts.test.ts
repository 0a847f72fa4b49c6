/**
 * Accounts are tenants: a person id means a person only within its account. Two accounts whose keys
 * name the same person ids ("ana", "pb") share nothing: no tool, prompt or REST route of one reaches a
 * board of the other, a member added to a board is a person of the board's account, and ids chosen by
 * one account (requestIds that become board, task and tag ids) neither collide with nor reveal the other's.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { randomUUID } from "node:crypto";
import { startStack, type Stack } from "@bancada/e2e";
import { createBoardsDb } from "../src/index.js";
import { boardsRoutes } from "../src/http/routes.js";
import { boardsFactory } from "./stack.js";
import { calledRouteTemplates, registeredRoutes, restCalls, toolCalls, type BoardIds } from "./board-calls.js";
import {
  closeAll,
  expectRestError,
  fails,
  makeBoard,
  makeTag,
  makeTask,
  notAccessible,
  ok,
  person,
  type Board,
  type Person,
  type Proposal,
  type Tag,
  type Task,
} from "./helpers.js";

interface BoardSnapshot {
  board: unknown;
  members: unknown;
  tags: unknown;
  tasks: unknown;
  proposals: unknown;
}

describe("accounts", () => {
  let stack: Stack;
  let anaB: Person; // owner of board B, in account B
  let pbB: Person; // editor of board B, in account B
  let anaA: Person; // owner of board A, in account A: the same person id as B's owner
  let pbA: Person; // editor of board A, in account A: the same person id as B's editor
  let boardA: Board;
  let boardB: Board;
  let taskB: Task;
  let tagB: Tag;
  let proposalB: Proposal;
  const proposalRequestB = randomUUID();

  beforeAll(async () => {
    stack = await startStack({ services: { boards: boardsFactory } });
    anaB = await person(stack, "ana", { accountId: "acct-b" });
    pbB = await person(stack, "pb", { accountId: "acct-b" });
    anaA = await person(stack, "ana", { accountId: "acct-a" });
    pbA = await person(stack, "pb", { accountId: "acct-a" });
    boardB = await makeBoard(anaB, "B", { pb: "editor" });
    taskB = await makeTask(anaB, boardB.id);
    tagB = await makeTag(anaB, boardB.id, "Cliente");
    proposalB = (
      await ok<{ proposal: Proposal }>(anaB.client, "submit_board_proposal", {
        requestId: proposalRequestB,
        boardId: boardB.id,
        suggestions: [{ taskId: taskB.id, version: 1, quadrant: "urgent-important", reason: "prazo" }],
      })
    ).proposal;
    boardA = await makeBoard(anaA, "A", { pb: "editor" });
  });
  afterAll(async () => {
    await closeAll(anaB, pbB, anaA, pbA);
    await stack?.stop();
  });

  const idsOfB = (attacker: Person): BoardIds => ({
    boardId: boardB.id,
    taskId: taskB.id,
    tagId: tagB.id,
    proposalId: proposalB.id,
    suggestionId: proposalB.suggestions[0]!.id,
    newMember: attacker.personId,
    member: "ana",
  });

  /** Everything account B can see of its board, to show that nothing changed. */
  async function snapshotOfB(): Promise<BoardSnapshot> {
    const path = `/v1/boards/${boardB.id}`;
    const [board, members, tags, tasks, proposals] = await Promise.all(
      [path, `${path}/members`, `${path}/tags`, `${path}/tasks`, `${path}/proposals`].map(async (route) => {
        const response = await anaB.rest("GET", route);
        expect(response.status, route).toBe(200);
        return response.body;
      }),
    );
    return { board, members, tags, tasks, proposals };
  }

  const boardIds = async (who: Person) => (await ok<{ boards: Board[] }>(who.client, "list_boards", {})).boards.map((b) => b.id);

  it("when the same person ids list boards in two accounts, then each sees only its own account's board, over MCP and REST", async () => {
    expect(await boardIds(anaA)).toEqual([boardA.id]);
    expect(await boardIds(pbA)).toEqual([boardA.id]);
    expect(await boardIds(anaB)).toEqual([boardB.id]);
    expect(await boardIds(pbB)).toEqual([boardB.id]);
    const rest = await pbA.rest<{ boards: Board[] }>("GET", "/v1/boards");
    expect(rest.body.boards.map((b) => b.id)).toEqual([boardA.id]);
  });

  it("when a member is added to a board of account A, then it is A's person: B's person of the same id does not get the board", async () => {
    const added = await anaA.rest("PUT", `/v1/boards/${boardA.id}/members/bia`, { role: "viewer" });
    expect(added.status).toBe(200);
    const biaA = await person(stack, "bia", { accountId: "acct-a" });
    const biaB = await person(stack, "bia", { accountId: "acct-b" });
    expect(await boardIds(biaA)).toEqual([boardA.id]);
    expect(await boardIds(biaB)).toEqual([]);
    exactlyNotAccessible(await fails(biaB.client, "list_tasks", { boardId: boardA.id }, "not_found"));
    await closeAll(biaA, biaB);
  });

  const exactlyNotAccessible = (error: unknown) => expect(error).toEqual({ code: "not_found", message: notAccessible });

  it("when account A's people call every tool on account B's board, then each answers the same not_found", async () => {
    for (const attacker of [anaA, pbA]) {
      for (const [tool, args] of toolCalls(idsOfB(attacker))) {
        exactlyNotAccessible(await fails(attacker.client, tool, args, "not_found"));
      }
    }
  });

  it("when account A's people call every REST route of account B's board, then 404 with the same message, and B's board is unchanged", async () => {
    const db = createBoardsDb(stack.database.url, 1);
    try {
      const boardRoutes = registeredRoutes(boardsRoutes(db)).filter((route) => route.includes(":boardId"));
      expect([...new Set(boardRoutes)].sort()).toEqual(calledRouteTemplates(idsOfB(pbA)));
    } finally {
      await db.$disconnect();
    }
    const before = await snapshotOfB();
    for (const attacker of [anaA, pbA]) {
      for (const [method, path, body] of restCalls(idsOfB(attacker))) {
        const response = await attacker.rest(method, path, body);
        expect(`${method} ${path} → ${response.status}`).toBe(`${method} ${path} → 404`);
        exactlyNotAccessible(expectRestError(response, 404, "not_found"));
      }
    }
    expect(await snapshotOfB()).toEqual(before);
    expect(await boardIds(anaB)).toEqual([boardB.id]);
  });

  it("when account A asks for either prompt with account B's board, then the prompt fails like an unknown board and names nothing of it", async () => {
    for (const name of ["triage_board", "weekly_review"]) {
      const failure = await pbA.client.getPrompt({ name, arguments: { boardId: boardB.id } }).then(
        () => undefined,
        (error: unknown) => String(error),
      );
      expect(failure, name).toContain(notAccessible);
      expect(failure).not.toContain(JSON.stringify(boardB.name));
    }
  });

  it("when account A reuses account B's ids as requestIds, then its writes succeed in its own account and B's rows are untouched", async () => {
    const otherBoardB = await makeBoard(anaB, "B2");
    const before = await snapshotOfB();
    // create_task: the task id is the requestId; B's task id and B's board ids are free ids in account A.
    for (const requestId of [taskB.id, otherBoardB.id]) {
      const args = { requestId, boardId: boardA.id, title: "Em A" };
      const { task } = await ok<{ task: Task }>(pbA.client, "create_task", args);
      expect(task).toMatchObject({ id: requestId, board_id: boardA.id, title: "Em A" });
      expect((await ok<{ task: Task }>(pbA.client, "create_task", args)).task).toEqual(task);
    }
    const tag = await anaA.rest<{ tag: Tag }>("POST", `/v1/boards/${boardA.id}/tags`, {
      requestId: tagB.id,
      name: "Cliente",
      color: "teal",
    });
    expect(tag.status, JSON.stringify(tag.body)).toBe(201);
    expect(tag.body.tag.id).toBe(tagB.id);
    const proposal = await ok<{ proposal: Proposal }>(pbA.client, "submit_board_proposal", {
      requestId: proposalRequestB,
      boardId: boardA.id,
      summary: "Em A",
    });
    expect(proposal.proposal.board_id).toBe(boardA.id);
    const twin = await anaA.rest<{ board: Board }>("POST", "/v1/boards", { requestId: boardB.id, name: "Gêmeo" });
    expect(twin.status, JSON.stringify(twin.body)).toBe(201);
    expect(twin.body.board).toMatchObject({ id: boardB.id, name: "Gêmeo" });
    expect((await anaA.rest<{ board: Board }>("GET", `/v1/boards/${boardB.id}`)).body.board.name).toBe("Gêmeo");
    expect(await snapshotOfB()).toEqual(before);
  });

  it("when two accounts hold a board with the same id, then each account's calls reach only its own", async () => {
    const twinId = boardB.id; // account A made a board with this id in the test above
    expect((await anaB.rest<{ board: Board }>("GET", `/v1/boards/${twinId}`)).body.board.name).toBe("B");
    const tasksOfA = await ok<{ tasks: Task[] }>(anaA.client, "list_tasks", { boardId: twinId });
    expect(tasksOfA.tasks).toEqual([]);
    const tasksOfB = await ok<{ tasks: Task[] }>(anaB.client, "list_tasks", { boardId: twinId });
    expect(tasksOfB.tasks.map((task) => task.id)).toEqual([taskB.id]);
  });
});
