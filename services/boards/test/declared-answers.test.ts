/**
 * What the REST routes answer matches what they declare (`response`, read into the OpenAPI document and from there
 * into the console's generated types): every declared field present with its type, and no field left undeclared.
 */
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { connectClient, startStack, type Stack } from "@bancada/e2e";
import { restAnswers } from "../src/domain/views.js";
import { boardsFactory } from "./stack.js";
import {
  boardScopes,
  closeAll,
  makeBoard,
  makeTag,
  makeTask,
  ok,
  person,
  restClient,
  type Board,
  type Person,
  type Task,
} from "./helpers.js";

/** The fields of `value` its schema does not declare, as paths ("board.extra", "tasks[0].tags[0].extra"). */
function undeclared(schema: z.ZodType, value: unknown, path = ""): string[] {
  if (schema instanceof z.ZodOptional || schema instanceof z.ZodNullable) {
    return value === undefined || value === null ? [] : undeclared(schema.unwrap() as z.ZodType, value, path);
  }
  if (schema instanceof z.ZodArray && Array.isArray(value)) {
    return value.flatMap((item, i) => undeclared(schema.element as z.ZodType, item, `${path}[${i}]`));
  }
  if (schema instanceof z.ZodObject && value && typeof value === "object") {
    const shape = schema.shape as Record<string, z.ZodType>;
    return Object.entries(value).flatMap(([key, field]) =>
      key in shape ? undeclared(shape[key]!, field, path ? `${path}.${key}` : key) : [`${path ? `${path}.` : ""}${key}`],
    );
  }
  return [];
}

function expectDeclared(schema: z.ZodType, answer: { status: number; body: unknown }): void {
  expect(answer.status, JSON.stringify(answer.body)).toBeLessThan(300);
  const parsed = schema.safeParse(answer.body);
  expect(parsed.success ? [] : parsed.error.issues, JSON.stringify(answer.body)).toEqual([]);
  expect(undeclared(schema, answer.body)).toEqual([]);
}

describe("the boards routes' declared answers", { timeout: 120_000 }, () => {
  let stack: Stack;
  let ana: Person;
  let agent: Person;
  let board: Board;
  let task: Task;
  let proposalId: string;
  let suggestionId: string;

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
    board = await makeBoard(ana, "Declarado", { bia: "editor" });
    const tag = await makeTag(ana, board.id, "casa");
    task = await makeTask(ana, board.id, { title: "Com etiqueta", tagIds: [tag.id], dueDate: "2030-01-02" });
    const { proposal } = await ok<{ proposal: { id: string; suggestions: { id: string }[] } }>(agent.client, "submit_board_proposal", {
      requestId: randomUUID(),
      boardId: board.id,
      summary: "Reordenar",
      suggestions: [{ taskId: task.id, version: task.version, quadrant: "not-urgent-important", reason: "pode esperar" }],
    });
    proposalId = proposal.id;
    suggestionId = proposal.suggestions[0]!.id;
  });
  afterAll(async () => {
    await closeAll(ana, agent);
    await stack?.stop();
  });

  it("when the console's reads are called, then each answer is exactly its declared shape", async () => {
    const base = `/v1/boards/${board.id}`;
    expectDeclared(restAnswers.boards, await ana.rest("GET", "/v1/boards"));
    expectDeclared(restAnswers.board, await ana.rest("GET", base));
    expectDeclared(restAnswers.tasks, await ana.rest("GET", `${base}/tasks`));
    expectDeclared(restAnswers.task, await ana.rest("GET", `${base}/tasks/${task.id}`));
    expectDeclared(restAnswers.tags, await ana.rest("GET", `${base}/tags`));
    expectDeclared(restAnswers.members, await ana.rest("GET", `${base}/members`));
    expectDeclared(restAnswers.activity, await ana.rest("GET", `${base}/activity`));
    expectDeclared(restAnswers.proposals, await ana.rest("GET", `${base}/proposals`));
    expectDeclared(restAnswers.proposal, await ana.rest("GET", `${base}/proposals/${proposalId}`));
    expectDeclared(restAnswers.inbox, await ana.rest("GET", "/v1/inbox"));
    expectDeclared(restAnswers.inboxCounts, await ana.rest("GET", "/v1/inbox/counts"));
  });

  it("when the console's writes are called, then each answer is exactly its declared shape", async () => {
    const base = `/v1/boards/${board.id}`;
    expectDeclared(restAnswers.member, await ana.rest("PUT", `${base}/members/caio`, { role: "viewer" }));
    expectDeclared(restAnswers.tag, await ana.rest("POST", `${base}/tags`, { requestId: randomUUID(), name: "rua", color: "red" }));
    const review = await ana.rest("POST", `${base}/proposals/${proposalId}/suggestions/${suggestionId}/apply`);
    expectDeclared(restAnswers.review, review);
    const { board: current } = (await ana.rest<{ board: Board & { version: number } }>("GET", base)).body;
    expectDeclared(
      restAnswers.board,
      await ana.rest("PUT", `${base}/quadrants/urgent-important`, {
        title: "Já",
        subtitle: "Agora",
        color: "red",
        expectedVersion: current.version,
      }),
    );
    const moved = (await ana.rest<{ task: Task }>("GET", `${base}/tasks/${task.id}`)).body.task;
    expectDeclared(
      restAnswers.task,
      await ana.rest("POST", `${base}/tasks/${task.id}/complete`, { requestId: randomUUID(), expectedVersion: moved.version }),
    );
  });

  it("when a field is added that the declaration lacks, then this check names it", () => {
    const declared = restAnswers.members;
    const answer = { members: [{ person_id: "ana", role: "owner", created_at: "2030-01-01T00:00:00.000Z", secret: "x" }] };
    expect(declared.safeParse(answer).success).toBe(true);
    expect(undeclared(declared, answer)).toEqual(["members[0].secret"]);
  });
});
