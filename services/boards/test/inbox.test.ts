/**
 * The reviewer's inbox and the review shortcuts (docs/boards.md#the-reviewers-inbox-rest-only): open proposals of
 * every board the caller reviews, newest first and paged, with counts per board; the submitting agent; Apply all and
 * Reject all in one transaction; an obsolete suggestion proposed again at the task's current version; an applied
 * suggestion's origin quadrant. Another account, a viewer and a board outside the key's allowlist never reach them.
 */
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connectClient, startStack, type Stack } from "@bancada/e2e";
import { boardsFactory } from "./stack.js";
import {
  boardScopes,
  closeAll,
  expectRestError,
  issuePaths,
  makeBoard,
  makeTask,
  ok,
  person,
  restClient,
  type Board,
  type Person,
  type Proposal,
  type Suggestion,
  type Task,
} from "./helpers.js";

type Listed = Proposal & { agent_id: string; created_by: string; suggestions: (Suggestion & { from_quadrant: string | null })[] };
type Inbox = { proposals: Listed[]; tasks: { id: string; title: string; quadrant: string; version: number }[]; nextCursor: string | null };
type Counts = { total: number; boards: { board_id: string; pending: number }[] };

describe("the reviewer's inbox", () => {
  let stack: Stack;
  let ana: Person;
  let agent: Person; // ana's agent key, labelled "claude"
  let bia: Person; // editor of the first board, viewer of the second
  let other: Person; // another account
  let first: Board;
  let second: Board;
  let tasks: Task[];

  beforeAll(async () => {
    stack = await startStack({ services: { boards: boardsFactory } });
    ana = await person(stack, "ana");
    const agentKey = await stack.createKey({
      accountId: "acct-a",
      personId: "ana",
      agentId: "claude",
      scopes: boardScopes,
      allowWrites: true,
    });
    agent = { ...ana, key: agentKey, client: await connectClient(stack.mcpUrl, agentKey), rest: restClient(stack.baseUrl, agentKey) };
    bia = await person(stack, "bia");
    other = await person(stack, "ana", { accountId: "acct-b" });
    first = await makeBoard(ana, "Primeiro", { bia: "editor" });
    second = await makeBoard(ana, "Segundo", { bia: "viewer" });
    tasks = [];
    for (let i = 0; i < 4; i++) tasks.push(await makeTask(ana, first.id, { title: `T${i}` }));
  });
  afterAll(async () => {
    await closeAll(ana, agent, bia, other);
    await stack?.stop();
  });

  const propose = (board: Board, suggestions: { task: Task; quadrant: string; version?: number }[], summary?: string) =>
    ok<{ proposal: Listed }>(agent.client, "submit_board_proposal", {
      requestId: randomUUID(),
      boardId: board.id,
      ...(summary ? { summary } : {}),
      suggestions: suggestions.map(({ task, quadrant, version }) => ({
        taskId: task.id,
        version: version ?? task.version,
        quadrant,
        reason: "porque sim",
      })),
    });
  const inbox = async (who: Person, query = "") => {
    const answer = await who.rest<Inbox>("GET", `/v1/inbox${query}`);
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    return answer.body;
  };
  const taskNow = async (id: string) => (await ana.rest<{ task: Task }>("GET", `/v1/boards/${first.id}/tasks/${id}`)).body.task;
  const base = (proposal: Proposal) => `/v1/boards/${proposal.board_id}/proposals/${proposal.id}`;

  it("when agents propose on two boards, then the inbox lists the open proposals newest first, naming the agent, with the tasks they name, and the counts per board", async () => {
    const older = (await propose(first, [{ task: tasks[0]!, quadrant: "urgent-important" }])).proposal;
    const secondTask = await makeTask(ana, second.id, { title: "S0" });
    const newer = (await propose(second, [{ task: secondTask, quadrant: "backlog" }], "Resumo")).proposal;
    const listed = await inbox(ana);
    expect(listed.proposals.map((p) => p.id)).toEqual([newer.id, older.id]);
    expect(listed.proposals[1]).toMatchObject({ agent_id: "claude", created_by: "ana", board_id: first.id });
    expect(listed.tasks.find((task) => task.id === tasks[0]!.id)).toMatchObject({ title: "T0", quadrant: "backlog", version: 1 });
    const counts = (await ana.rest<Counts>("GET", "/v1/inbox/counts")).body;
    expect(counts.total).toBe(2);
    expect(counts.boards).toEqual(
      expect.arrayContaining([
        { board_id: first.id, pending: 1 },
        { board_id: second.id, pending: 1 },
      ]),
    );
    // closing it takes it out of the inbox
    await ana.rest("POST", `${base(newer)}/dismiss`);
    expect((await inbox(ana)).proposals.map((p) => p.id)).toEqual([older.id]);
  });

  it("when the caller is a viewer, in another account, or outside the key's allowlist, then the board's proposals never reach the inbox", async () => {
    const secondTask = await makeTask(ana, second.id, { title: "S1" });
    await propose(second, [{ task: secondTask, quadrant: "urgent-important" }]);
    // bia only views the second board: she sees the first board's proposal, not the second's
    expect(new Set((await inbox(bia)).proposals.map((p) => p.board_id))).toEqual(new Set([first.id]));
    expect((await bia.rest<Counts>("GET", "/v1/inbox/counts")).body.boards.map((b) => b.board_id)).toEqual([first.id]);
    expect(await inbox(other)).toEqual({ proposals: [], tasks: [], nextCursor: null });
    expect((await other.rest<Counts>("GET", "/v1/inbox/counts")).body).toEqual({ total: 0, boards: [] });
    const limited = await person(stack, "ana", { allowedBoardIds: [second.id] });
    try {
      expect(new Set((await inbox(limited)).proposals.map((p) => p.board_id))).toEqual(new Set([second.id]));
    } finally {
      await closeAll(limited);
    }
  });

  it("when more than 50 proposals are open, then the inbox pages by cursor without repeats, and a foreign cursor is invalid_argument", async () => {
    const many = await makeTask(ana, first.id, { title: "Muitas" });
    for (let i = 0; i < 51; i++) await propose(first, [{ task: many, quadrant: "urgent-important" }]);
    const page1 = await inbox(ana);
    expect(page1.proposals).toHaveLength(50);
    const page2 = await inbox(ana, `?cursor=${encodeURIComponent(page1.nextCursor!)}`);
    const ids = [...page1.proposals, ...page2.proposals].map((p) => p.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(page2.nextCursor).toBeNull();
    const foreign = Buffer.from(JSON.stringify({ l: "proposals:x", t: new Date().toISOString(), i: randomUUID() })).toString("base64url");
    expect(issuePaths(expectRestError(await ana.rest("GET", `/v1/inbox?cursor=${foreign}`), 400, "invalid_argument"))).toEqual(["cursor"]);
    expect(issuePaths(expectRestError(await ana.rest("GET", "/v1/inbox?board=1"), 400, "invalid_argument"))).toEqual([""]);
    // leave the inbox as it was for the next tests
    for (const proposal of [...page1.proposals, ...page2.proposals].filter((p) => p.suggestions[0]?.task_id === many.id)) {
      await ana.rest("POST", `${base(proposal)}/dismiss`);
    }
  });

  it("when Apply all is posted, then every pending suggestion is decided in one go: current ones applied (with their origin quadrant), stale ones obsolete", async () => {
    const [a, b] = [tasks[1]!, tasks[2]!];
    const { proposal } = await propose(first, [
      { task: a, quadrant: "urgent-important" },
      { task: b, quadrant: "not-urgent-important" },
    ]);
    await ok(ana.client, "update_task", {
      requestId: randomUUID(),
      boardId: first.id,
      taskId: b.id,
      expectedVersion: b.version,
      title: "T2!",
    });
    const answer = await ana.rest<{ proposal: Listed; outcomes: Record<string, string> }>("POST", `${base(proposal)}/apply-all`);
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    const [sa, sb] = answer.body.proposal.suggestions;
    expect(answer.body.outcomes).toEqual({ [sa!.id]: "applied", [sb!.id]: "obsolete" });
    expect(sa).toMatchObject({ state: "applied", from_quadrant: "backlog" });
    expect(sb).toMatchObject({ state: "obsolete", from_quadrant: null });
    expect(answer.body.proposal.closed_at).not.toBeNull();
    expect(await taskNow(a.id)).toMatchObject({ quadrant: "urgent-important", version: 2 });
    expect(await taskNow(b.id)).toMatchObject({ quadrant: "backlog", version: 2 });
    // nothing is left to decide
    expectRestError(await ana.rest("POST", `${base(proposal)}/apply-all`), 409, "failed_precondition");
  });

  it("when Reject all is posted, then every pending suggestion is rejected and no task moves; a viewer may not", async () => {
    const task = tasks[3]!;
    const { proposal } = await propose(first, [{ task, quadrant: "urgent-important" }], "Resumo");
    // bia views the second board only: she may not decide there, and the proposal is not on that board anyway
    expectRestError(await bia.rest("POST", `/v1/boards/${second.id}/proposals/${proposal.id}/reject-all`), 403, "permission_denied");
    expectRestError(await ana.rest("POST", `/v1/boards/${second.id}/proposals/${proposal.id}/reject-all`), 404, "not_found");
    const answer = await ana.rest<{ proposal: Listed }>("POST", `${base(proposal)}/reject-all`);
    expect(answer.body.proposal.suggestions.map((s) => s.state)).toEqual(["rejected"]);
    // the summary is still open: the proposal stays in the inbox until it is closed
    expect(answer.body.proposal.closed_at).toBeNull();
    expect(await taskNow(task.id)).toMatchObject({ quadrant: "backlog", version: 1 });
  });

  it("when an obsolete suggestion is proposed again, then a new proposal by the reviewer carries it at the task's current version, and applying it moves the task", async () => {
    const task = await makeTask(ana, first.id, { title: "Velha" });
    const { proposal } = await propose(first, [{ task, quadrant: "not-urgent-important" }]);
    await ok(ana.client, "update_task", {
      requestId: randomUUID(),
      boardId: first.id,
      taskId: task.id,
      expectedVersion: 1,
      title: "Velha!",
    });
    const suggestionId = proposal.suggestions[0]!.id;
    await ana.rest("POST", `${base(proposal)}/suggestions/${suggestionId}/apply`);
    const requestId = randomUUID();
    const again = await ana.rest<{ proposal: Listed }>("POST", `${base(proposal)}/suggestions/${suggestionId}/repropose`, { requestId });
    expect(again.status, JSON.stringify(again.body)).toBe(201);
    expect(again.body.proposal).toMatchObject({ board_id: first.id, created_by: "ana", summary: null, closed_at: null });
    expect(again.body.proposal.suggestions).toMatchObject([
      { task_id: task.id, version: 2, quadrant: "not-urgent-important", reason: "porque sim", state: "pending" },
    ]);
    // the same requestId is the same proposal
    const repeat = await ana.rest<{ proposal: Listed }>("POST", `${base(proposal)}/suggestions/${suggestionId}/repropose`, { requestId });
    expect(repeat.body.proposal.id).toBe(again.body.proposal.id);
    // once only: another requestId is refused, naming the proposal; the original names it too
    const second = await ana.rest("POST", `${base(proposal)}/suggestions/${suggestionId}/repropose`, { requestId: randomUUID() });
    expect(expectRestError(second, 409, "failed_precondition").details).toEqual({ proposalId: again.body.proposal.id });
    const original = await ana.rest<{ proposal: Listed & { suggestions: { reproposed_as: string | null }[] } }>("GET", base(proposal));
    expect(original.body.proposal.suggestions[0]!.reproposed_as).toBe(again.body.proposal.id);
    const fresh = again.body.proposal;
    await ana.rest("POST", `${base(fresh)}/suggestions/${fresh.suggestions[0]!.id}/apply`);
    expect(await taskNow(task.id)).toMatchObject({ quadrant: "not-urgent-important", version: 3 });
  });

  it("when the suggestion is not obsolete, the body is wrong, or the caller cannot write the board, then the one-line error says so", async () => {
    const task = await makeTask(ana, first.id, { title: "Pendente" });
    const { proposal } = await propose(first, [{ task, quadrant: "urgent-important" }]);
    const path = `${base(proposal)}/suggestions/${proposal.suggestions[0]!.id}/repropose`;
    expect(expectRestError(await ana.rest("POST", path, { requestId: randomUUID() }), 409, "failed_precondition").message).toMatch(
      /obsolete/,
    );
    expect(issuePaths(expectRestError(await ana.rest("POST", path, {}), 400, "invalid_argument"))).toEqual(["requestId"]);
    expect(issuePaths(expectRestError(await ana.rest("POST", path, { requestId: "x" }), 400, "invalid_argument"))).toEqual(["requestId"]);
    // another account never finds the board; a viewer may not write it
    expectRestError(await other.rest("POST", path, { requestId: randomUUID() }), 404, "not_found");
    expectRestError(await other.rest("POST", `${base(proposal)}/apply-all`), 404, "not_found");
    const secondTask = await makeTask(ana, second.id, { title: "S2" });
    const onSecond = (await propose(second, [{ task: secondTask, quadrant: "urgent-important" }])).proposal;
    expectRestError(await bia.rest("POST", `${base(onSecond)}/apply-all`), 403, "permission_denied");
    // the suggestion's address must match its board and proposal
    expectRestError(
      await ana.rest("POST", `/v1/boards/${second.id}/proposals/${proposal.id}/suggestions/${proposal.suggestions[0]!.id}/repropose`, {
        requestId: randomUUID(),
      }),
      404,
      "not_found",
    );
  });
});
