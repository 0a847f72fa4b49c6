/**
 * The app's REST API: boards (create, rename, archive, customise quadrants, delete), members, tags and
 * the task fields only the app may set (assignee, due-date removal). Same error envelope as the tools.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { randomUUID } from "node:crypto";
import { startStack, type Stack } from "@bancada/e2e";
import { boardsFactory } from "./stack.js";
import {
  closeAll,
  expectRestError,
  issuePaths,
  makeBoard,
  makeTag,
  makeTask,
  ok,
  person,
  restClient,
  type Board,
  type Person,
  type Tag,
  type Task,
} from "./helpers.js";

interface Member {
  person_id: string;
  role: string;
}

describe("REST API", () => {
  let stack: Stack;
  let ana: Person;
  let bia: Person;

  beforeAll(async () => {
    stack = await startStack({ services: { boards: boardsFactory } });
    ana = await person(stack, "ana");
    bia = await person(stack, "bia");
  });
  afterAll(async () => {
    await closeAll(ana, bia);
    await stack?.stop();
  });

  describe("boards", () => {
    it("when a person creates a board, then it is owner, the board's id is the requestId and the quadrants carry default titles", async () => {
      const requestId = randomUUID();
      const { status, body } = await ana.rest<{ board: Board }>("POST", "/v1/boards", { requestId, name: "Pessoal", description: "Casa" });
      expect(status).toBe(201);
      expect(body.board).toMatchObject({
        id: requestId,
        name: "Pessoal",
        description: "Casa",
        archived_at: null,
        role: "owner",
        version: 1,
      });
      expect(body.board.quadrants.map((q) => [q.id, q.customized])).toEqual([
        ["urgent-important", false],
        ["not-urgent-important", false],
        ["urgent-not-important", false],
        ["not-urgent-not-important", false],
      ]);
      const again = await ana.rest<{ board: Board }>("POST", "/v1/boards", { requestId, name: "Pessoal", description: "Casa" });
      expect(again.body).toEqual(body);
      expectRestError(await ana.rest("POST", "/v1/boards", { requestId, name: "Outro" }), 409, "idempotency_conflict");
      expectRestError(
        await bia.rest("POST", "/v1/boards", { requestId, name: "Pessoal", description: "Casa" }),
        409,
        "idempotency_conflict",
      );
    });

    it("when a board is created without its requestId, then the 400 names the missing field", async () => {
      const { status, body } = await ana.rest<{ error: { code: string; message: string } }>("POST", "/v1/boards", { name: "Sem id" });
      expect(status).toBe(400);
      expect(body.error.code).toBe("invalid_argument");
      expect(body.error.message).toBe("Invalid arguments: requestId: missing (expected string)");
    });

    it("when the owner renames with the version read, then the version goes up; a stale version is 409 VERSION_CONFLICT", async () => {
      const board = await makeBoard(ana, "Antes");
      const renamed = await ana.rest<{ board: Board }>("PATCH", `/v1/boards/${board.id}`, {
        expectedVersion: 1,
        name: "Depois",
        description: "nova",
      });
      expect(renamed.body.board).toMatchObject({ name: "Depois", description: "nova", version: 2 });
      const stale = expectRestError(await ana.rest("PATCH", `/v1/boards/${board.id}`, { expectedVersion: 1, name: "x" }), 409, "conflict");
      expect(stale.message).toMatch(/^VERSION_CONFLICT:/);
      expect(stale.details).toMatchObject({ current: { name: "Depois", version: 2 } });
      const cleared = await ana.rest<{ board: Board }>("PATCH", `/v1/boards/${board.id}`, { expectedVersion: 2, description: null });
      expect(cleared.body.board).toMatchObject({ name: "Depois", description: null, version: 3 });
    });

    it("when a quadrant is customised, then list_boards shows the new title as customized; reset brings the default back", async () => {
      const board = await makeBoard(ana, "Quadrantes");
      const custom = await ana.rest<{ board: Board }>("PUT", `/v1/boards/${board.id}/quadrants/urgent-important`, {
        expectedVersion: 1,
        title: "Agora",
        subtitle: "Urgente e importante",
        color: "teal",
      });
      expect(custom.status).toBe(200);
      const { boards } = await ok<{ boards: Board[] }>(ana.client, "list_boards", {});
      expect(boards.find((b) => b.id === board.id)!.quadrants[0]).toEqual({
        id: "urgent-important",
        title: "Agora",
        subtitle: "Urgente e importante",
        color: "teal",
        customized: true,
      });
      const reset = await ana.rest<{ board: Board }>("DELETE", `/v1/boards/${board.id}/quadrants/urgent-important`, { expectedVersion: 2 });
      expect(reset.body.board.quadrants[0]).toMatchObject({ title: "Fazer agora", customized: false });
      expectRestError(
        await ana.rest("PUT", `/v1/boards/${board.id}/quadrants/backlog`, { expectedVersion: 3, title: "x", subtitle: "", color: "teal" }),
        400,
        "invalid_argument",
      );
    });

    it("when the owner archives and restores, then archived_at follows; archiving twice is failed_precondition", async () => {
      const board = await makeBoard(ana, "Arquivo");
      const archived = await ana.rest<{ board: Board }>("POST", `/v1/boards/${board.id}/archive`, { expectedVersion: 1 });
      expect(archived.body.board.archived_at).not.toBeNull();
      expectRestError(await ana.rest("POST", `/v1/boards/${board.id}/archive`, { expectedVersion: 2 }), 409, "failed_precondition");
      expectRestError(await ana.rest("PATCH", `/v1/boards/${board.id}`, { expectedVersion: 2, name: "x" }), 409, "failed_precondition");
      const restored = await ana.rest<{ board: Board }>("POST", `/v1/boards/${board.id}/restore`, { expectedVersion: 2 });
      expect(restored.body.board).toMatchObject({ archived_at: null, version: 3 });
    });

    it("when the owner deletes a board, then it and its tasks and pending proposals are gone (404)", async () => {
      const board = await makeBoard(ana, "Apagar");
      const task = await makeTask(ana, board.id);
      await ok(ana.client, "submit_board_proposal", {
        requestId: randomUUID(),
        boardId: board.id,
        suggestions: [{ taskId: task.id, version: 1, quadrant: "backlog", reason: "r" }],
      });
      expect((await ana.rest("DELETE", `/v1/boards/${board.id}`, { expectedVersion: 1 })).status).toBe(204);
      expectRestError(await ana.rest("GET", `/v1/boards/${board.id}`), 404, "not_found");
      expectRestError(await ana.rest("GET", `/v1/boards/${board.id}/proposals`), 404, "not_found");
    });

    it("when the owner deletes with a stale version, then 409 VERSION_CONFLICT with the current board and it stays; no version is 400; If-Match counts", async () => {
      const board = await makeBoard(ana, "Apagar com versão");
      await ana.rest("PATCH", `/v1/boards/${board.id}`, { expectedVersion: 1, name: "Renomeado" });
      const stale = expectRestError(await ana.rest("DELETE", `/v1/boards/${board.id}`, { expectedVersion: 1 }), 409, "conflict");
      expect(stale.message).toMatch(/^VERSION_CONFLICT:/);
      expect(stale.details).toMatchObject({
        expectedVersion: 1,
        currentVersion: 2,
        current: { id: board.id, name: "Renomeado", version: 2 },
      });
      expect(issuePaths(expectRestError(await ana.rest("DELETE", `/v1/boards/${board.id}`), 400, "invalid_argument"))).toEqual([
        "expectedVersion",
      ]);
      expectRestError(await ana.rest("DELETE", `/v1/boards/${board.id}`, undefined, { "If-Match": '"1"' }), 409, "conflict");
      expect((await ana.rest<{ board: Board }>("GET", `/v1/boards/${board.id}`)).body.board.name).toBe("Renomeado");
      expect((await ana.rest("DELETE", `/v1/boards/${board.id}`, undefined, { "If-Match": '"2"' })).status).toBe(204);
      expectRestError(await ana.rest("GET", `/v1/boards/${board.id}`), 404, "not_found");
    });

    it("when a rename and a delete of one board race on the same version, then exactly one happens and the other is 409 or 404", async () => {
      const board = await makeBoard(ana, "Corrida");
      const [renamed, deleted] = await Promise.all([
        ana.rest("PATCH", `/v1/boards/${board.id}`, { expectedVersion: 1, name: "Renomeado" }),
        ana.rest("DELETE", `/v1/boards/${board.id}`, { expectedVersion: 1 }),
      ]);
      expect([renamed.status, deleted.status].filter((status) => status < 300)).toHaveLength(1);
      if (deleted.status === 204) expectRestError(renamed, 404, "not_found");
      else expectRestError(deleted, 409, "conflict");
    });

    it("when a key limited to other boards creates a board, then 403; listing the new id in allowedBoardIds allows it", async () => {
      const id = randomUUID();
      const limited = restClient(
        stack.baseUrl,
        await stack.createKey({ personId: "ana", scopes: ["boards:read", "boards:write"], allowedBoardIds: [randomUUID()] }),
      );
      expectRestError(await limited("POST", "/v1/boards", { requestId: id, name: "x" }), 403, "permission_denied");
      const allowed = restClient(
        stack.baseUrl,
        await stack.createKey({ personId: "ana", scopes: ["boards:read", "boards:write"], allowedBoardIds: [id] }),
      );
      expect((await allowed("POST", "/v1/boards", { requestId: id, name: "x" })).status).toBe(201);
    });

    it("when there is no key, a bad key, or a body that is not JSON, then 401 and 400 in the error envelope", async () => {
      expectRestError(await restClient(stack.baseUrl, "bnc_nope")("GET", "/v1/boards"), 401, "unauthenticated");
      const raw = await fetch(`${stack.baseUrl}/v1/boards`, {
        method: "POST",
        headers: { Authorization: `Bearer ${ana.key}`, "Content-Type": "application/json" },
        body: "{",
      });
      expect(raw.status).toBe(400);
      expect(((await raw.json()) as { error: { code: string } }).error.code).toBe("invalid_argument");
    });
  });

  describe("members", () => {
    it("when the owner adds, promotes and removes members, then the list follows and the new member reaches the board", async () => {
      const board = await makeBoard(ana, "Equipe");
      expect(
        (await ana.rest<{ member: Member }>("PUT", `/v1/boards/${board.id}/members/bia`, { role: "viewer" })).body.member,
      ).toMatchObject({ person_id: "bia", role: "viewer" });
      expect((await ok<{ boards: Board[] }>(bia.client, "list_boards", {})).boards.map((b) => b.id)).toContain(board.id);
      await ana.rest("PUT", `/v1/boards/${board.id}/members/bia`, { role: "editor" });
      const { body } = await bia.rest<{ members: Member[] }>("GET", `/v1/boards/${board.id}/members`);
      expect(body.members.map(({ person_id, role }) => ({ person_id, role }))).toEqual([
        { person_id: "ana", role: "owner" },
        { person_id: "bia", role: "editor" },
      ]);
      await makeTask(bia, board.id);
      expectRestError(await bia.rest("PUT", `/v1/boards/${board.id}/members/carl`, { role: "viewer" }), 403, "permission_denied");
      expect((await ana.rest("DELETE", `/v1/boards/${board.id}/members/bia`)).status).toBe(204);
      expectRestError(await bia.rest("GET", `/v1/boards/${board.id}`), 404, "not_found");
    });

    it("when the last owner would be removed or demoted, then failed_precondition; with a second owner it works; a member may leave", async () => {
      const board = await makeBoard(ana, "Donos", { bia: "viewer" });
      expectRestError(await ana.rest("PUT", `/v1/boards/${board.id}/members/ana`, { role: "editor" }), 409, "failed_precondition");
      expectRestError(await ana.rest("DELETE", `/v1/boards/${board.id}/members/ana`), 409, "failed_precondition");
      expect((await bia.rest("DELETE", `/v1/boards/${board.id}/members/bia`)).status).toBe(204);
      await ana.rest("PUT", `/v1/boards/${board.id}/members/bia`, { role: "owner" });
      expect((await ana.rest("DELETE", `/v1/boards/${board.id}/members/ana`)).status).toBe(204);
      expect((await bia.rest<{ board: Board }>("GET", `/v1/boards/${board.id}`)).body.board.role).toBe("owner");
    });
  });

  describe("tags and task extras", () => {
    let board: Board;
    beforeAll(async () => {
      board = await makeBoard(ana, "Extras", { bia: "editor" });
    });

    it("when tags are created, renamed and deleted, then list_board_tags follows in alphabetical order and tasks lose a deleted tag", async () => {
      const zeta = await makeTag(ana, board.id, "zeta", "blue");
      const alfa = await makeTag(bia, board.id, "Alfa", "red");
      expect((await ok<{ tags: Tag[] }>(ana.client, "list_board_tags", { boardId: board.id })).tags).toEqual([alfa, zeta]);
      expect((await ana.rest<{ tags: Tag[] }>("GET", `/v1/boards/${board.id}/tags`)).body.tags).toEqual([
        { ...alfa, version: 1 },
        { ...zeta, version: 1 },
      ]);
      expectRestError(
        await ana.rest("POST", `/v1/boards/${board.id}/tags`, { requestId: randomUUID(), name: "ALFA", color: "red" }),
        409,
        "conflict",
      );
      const renamed = await ana.rest<{ tag: Tag }>("PATCH", `/v1/boards/${board.id}/tags/${zeta.id}`, {
        expectedVersion: 1,
        name: "Beta",
        color: "green",
      });
      expect(renamed.body.tag).toEqual({ id: zeta.id, name: "Beta", color: "green", version: 2 });
      const task = await makeTask(ana, board.id, { tagIds: [alfa.id, zeta.id] });
      expect((await ana.rest("DELETE", `/v1/boards/${board.id}/tags/${alfa.id}`, { expectedVersion: 1 })).status).toBe(204);
      expect((await ana.rest<{ task: Task }>("GET", `/v1/boards/${board.id}/tasks/${task.id}`)).body.task.tags).toEqual([
        { id: zeta.id, name: "Beta", color: "green" },
      ]);
    });

    it("when the app sets an assignee and removes the due date, then the task shows it; an assignee who is no member is invalid_argument", async () => {
      const task = await makeTask(ana, board.id, { dueDate: "2026-10-03" });
      const assigned = await ana.rest<{ task: Task }>("PATCH", `/v1/boards/${board.id}/tasks/${task.id}`, {
        requestId: randomUUID(),
        expectedVersion: 1,
        assigneeId: "bia",
        dueDate: null,
      });
      expect(assigned.body.task).toMatchObject({ assignee_id: "bia", due_date: null, version: 2, title: task.title });
      const unassigned = await ana.rest<{ task: Task }>("PATCH", `/v1/boards/${board.id}/tasks/${task.id}`, {
        requestId: randomUUID(),
        expectedVersion: 2,
        assigneeId: null,
      });
      expect(unassigned.body.task.assignee_id).toBeNull();
      expectRestError(
        await ana.rest("PATCH", `/v1/boards/${board.id}/tasks/${task.id}`, {
          requestId: randomUUID(),
          expectedVersion: 3,
          assigneeId: "zoe",
        }),
        400,
        "invalid_argument",
      );
      const created = await ana.rest<{ task: Task }>("POST", `/v1/boards/${board.id}/tasks`, {
        requestId: randomUUID(),
        title: "Com responsável",
        assigneeId: "bia",
      });
      expect(created.status).toBe(201);
      expect(created.body.task.assignee_id).toBe("bia");
    });

    it("when the app lists archived tasks, then only archived ones come, with archived_at", async () => {
      const task = await makeTask(ana, board.id);
      await ana.rest("POST", `/v1/boards/${board.id}/tasks/${task.id}/archive`, { requestId: randomUUID(), expectedVersion: 1 });
      const { body } = await ana.rest<{ tasks: Task[] }>("GET", `/v1/boards/${board.id}/tasks?archived=true`);
      expect(body.tasks.map((t) => t.id)).toEqual([task.id]);
      expect(body.tasks[0]!.archived_at).not.toBeNull();
      expectRestError(
        await ana.rest("POST", `/v1/boards/${board.id}/tasks/${task.id}/restore`, { requestId: randomUUID(), expectedVersion: 1 }),
        409,
        "conflict",
      );
    });

    it("when REST and MCP read the same task, then MCP shows the tool's fields and REST adds archived_at", async () => {
      const task = await makeTask(ana, board.id);
      const rest = (await ana.rest<{ task: Task }>("GET", `/v1/boards/${board.id}/tasks/${task.id}`)).body.task;
      expect(rest).toEqual({ ...task, archived_at: null });
      expect(Object.keys(task)).not.toContain("archived_at");
    });
  });
});
