/**
 * Tags in the app: a name is unique per board ignoring case, decided by PostgreSQL, so racing creations
 * and renames end like sequential ones (one wins, the others get 409 conflict, never a 500); and a rename,
 * recolour or delete is made against the tag version read (body expectedVersion or If-Match).
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
  type Board,
  type ErrorBody,
  type Person,
  type RestResponse,
  type Tag,
  type Task,
} from "./helpers.js";

type VersionedTag = Tag & { version: number };

describe("tags", () => {
  let stack: Stack;
  let ana: Person; // owner
  let bia: Person; // editor
  let board: Board;

  beforeAll(async () => {
    stack = await startStack({ services: { boards: boardsFactory } });
    ana = await person(stack, "ana");
    bia = await person(stack, "bia");
    board = await makeBoard(ana, "Etiquetas", { bia: "editor" });
  });
  afterAll(async () => {
    await closeAll(ana, bia);
    await stack?.stop();
  });

  const tagsPath = () => `/v1/boards/${board.id}/tags`;
  const create = (who: Person, name: string, color = "teal") =>
    who.rest<{ tag: VersionedTag }>("POST", tagsPath(), { requestId: randomUUID(), name, color });
  const listed = async () => (await ana.rest<{ tags: VersionedTag[] }>("GET", tagsPath())).body.tags;
  const named = async (name: string) => (await listed()).filter((tag) => tag.name.toLowerCase() === name.toLowerCase());

  /** Exactly one 201 and the rest 409 conflict, all with the one message a sequential duplicate gets. */
  function expectOneWinner(responses: RestResponse[]): { winner: VersionedTag; errors: ErrorBody[] } {
    const statuses = responses.map((response) => response.status);
    expect(
      statuses.filter((status) => status === 201 || status === 200),
      JSON.stringify(statuses),
    ).toHaveLength(1);
    const losers = responses.filter((response) => response.status >= 300);
    const errors = losers.map((response) => expectRestError(response, 409, "conflict"));
    const winner = (responses.find((response) => response.status < 300)!.body as { tag: VersionedTag }).tag;
    return { winner, errors };
  }

  describe("unique names, ignoring case", () => {
    it("when 10 creations of case variants of one name race, then exactly one succeeds and the other nine get conflict naming the winner", async () => {
      const variants = ["Urgent", "urgent", "URGENT", "uRGENT", "UrGeNt", "uRgEnT", "URgent", "urGENT", "UrgenT", "uRGENt"];
      const responses = await Promise.all(variants.map((name, i) => create(i % 2 ? bia : ana, name)));
      const { winner, errors } = expectOneWinner(responses);
      expect(errors).toHaveLength(9);
      expect(await named("urgent")).toEqual([winner]);
      const sequential = expectRestError(await create(ana, "URGENT"), 409, "conflict");
      for (const error of errors) expect(error).toEqual(sequential);
      expect(sequential.message).toContain(`"${winner.name}"`);
      expect(sequential.details).toEqual({ field: "name", existing: winner });
    });

    it("when 10 creations of the very same name race, then one succeeds and nine get conflict, not an internal error", async () => {
      const responses = await Promise.all(Array.from({ length: 10 }, (_, i) => create(i % 2 ? bia : ana, "Cliente")));
      const { winner, errors } = expectOneWinner(responses);
      expect(errors).toHaveLength(9);
      expect(await named("Cliente")).toEqual([winner]);
    });

    it("when two tags are renamed at once to case variants of one name, then one rename wins and the other tag keeps its name and version", async () => {
      const [a, b] = [(await create(ana, "Alfa")).body.tag, (await create(ana, "Beta")).body.tag];
      const responses = await Promise.all([
        ana.rest("PATCH", `${tagsPath()}/${a.id}`, { expectedVersion: 1, name: "Financeiro" }),
        bia.rest("PATCH", `${tagsPath()}/${b.id}`, { expectedVersion: 1, name: "FINANCEIRO" }),
      ]);
      const { winner } = expectOneWinner(responses);
      const loser = winner.id === a.id ? b : a;
      expect(winner.version).toBe(2);
      expect((await listed()).find((tag) => tag.id === loser.id)).toEqual(loser);
    });

    it("when a tag is renamed onto another tag's name in another case, then conflict; to its own name in another case, it works", async () => {
      const one = (await create(ana, "Compras")).body.tag;
      const two = (await create(ana, "Vendas")).body.tag;
      const error = expectRestError(
        await ana.rest("PATCH", `${tagsPath()}/${two.id}`, { expectedVersion: 1, name: "COMPRAS" }),
        409,
        "conflict",
      );
      expect(error.details).toEqual({ field: "name", existing: one });
      const recased = await ana.rest<{ tag: VersionedTag }>("PATCH", `${tagsPath()}/${one.id}`, { expectedVersion: 1, name: "COMPRAS" });
      expect(recased.body.tag).toEqual({ ...one, name: "COMPRAS", version: 2 });
    });

    it("when names differ only in the case of accented letters, then they clash too", async () => {
      expect((await create(ana, "Ação")).status).toBe(201);
      expectRestError(await create(bia, "AÇÃO"), 409, "conflict");
    });

    it("when another board has a tag of that name, then this board may have one too", async () => {
      const other = await makeBoard(ana, "Outro quadro");
      await makeTag(ana, other.id, "Pessoal");
      expect((await create(ana, "pessoal")).status).toBe(201);
    });

    it("when a creation is refused for its name, then its requestId is not used up", async () => {
      const requestId = randomUUID();
      await create(ana, "Ocupado");
      expectRestError(await ana.rest("POST", tagsPath(), { requestId, name: "ocupado", color: "teal" }), 409, "conflict");
      expect((await ana.rest("POST", tagsPath(), { requestId, name: "Livre", color: "teal" })).status).toBe(201);
    });
  });

  describe("versions", () => {
    let tag: VersionedTag;
    beforeAll(async () => {
      tag = (await create(ana, "Versionada", "blue")).body.tag;
    });

    it("when the app lists tags, then each carries its version; list_board_tags keeps the tool's { id, name, color }", async () => {
      expect((await listed()).find((t) => t.id === tag.id)).toEqual({ id: tag.id, name: "Versionada", color: "blue", version: 1 });
      const { tags } = await ok<{ tags: Record<string, unknown>[] }>(ana.client, "list_board_tags", { boardId: board.id });
      for (const listedTag of tags) expect(Object.keys(listedTag).sort()).toEqual(["color", "id", "name"]);
    });

    it("when a rename or recolour sends a stale version, then 409 VERSION_CONFLICT with the current tag, and nothing changes", async () => {
      const renamed = await ana.rest<{ tag: VersionedTag }>("PATCH", `${tagsPath()}/${tag.id}`, { expectedVersion: 1, color: "red" });
      expect(renamed.body.tag).toEqual({ ...tag, color: "red", version: 2 });
      const stale = expectRestError(
        await bia.rest("PATCH", `${tagsPath()}/${tag.id}`, { expectedVersion: 1, name: "Perdida" }),
        409,
        "conflict",
      );
      expect(stale.message).toMatch(/^VERSION_CONFLICT:/);
      expect(stale.details).toEqual({ expectedVersion: 1, currentVersion: 2, current: renamed.body.tag });
      expect((await listed()).find((t) => t.id === tag.id)).toEqual(renamed.body.tag);
      tag = renamed.body.tag;
    });

    it("when a PATCH changes nothing (no field, or the same values), then the tag keeps its version; a stale version still conflicts", async () => {
      for (const body of [{}, { name: tag.name, color: tag.color }]) {
        const same = await ana.rest<{ tag: VersionedTag }>("PATCH", `${tagsPath()}/${tag.id}`, { expectedVersion: tag.version, ...body });
        expect(same.status).toBe(200);
        expect(same.body.tag).toEqual(tag);
      }
      expectRestError(await ana.rest("PATCH", `${tagsPath()}/${tag.id}`, { expectedVersion: tag.version - 1 }), 409, "conflict");
    });

    it("when a delete sends a stale version, then 409 and the tag stays on its tasks; with the current version it goes", async () => {
      const task = await makeTask(ana, board.id, { tagIds: [tag.id] });
      const stale = expectRestError(await ana.rest("DELETE", `${tagsPath()}/${tag.id}`, { expectedVersion: 1 }), 409, "conflict");
      expect(stale.details).toMatchObject({ currentVersion: 2, current: tag });
      expect((await ana.rest<{ task: Task }>("GET", `/v1/boards/${board.id}/tasks/${task.id}`)).body.task.tags.map((t) => t.id)).toEqual([
        tag.id,
      ]);
      expect((await ana.rest("DELETE", `${tagsPath()}/${tag.id}`, { expectedVersion: 2 })).status).toBe(204);
      expect((await ana.rest<{ task: Task }>("GET", `/v1/boards/${board.id}/tasks/${task.id}`)).body.task.tags).toEqual([]);
      expectRestError(await ana.rest("DELETE", `${tagsPath()}/${tag.id}`, { expectedVersion: 2 }), 404, "not_found");
    });

    it("when a rename and a delete race on one version, then exactly one of them happens", async () => {
      const racing = (await create(ana, "Disputada")).body.tag;
      const [renamed, deleted] = await Promise.all([
        bia.rest("PATCH", `${tagsPath()}/${racing.id}`, { expectedVersion: 1, name: "Renomeada" }),
        ana.rest("DELETE", `${tagsPath()}/${racing.id}`, { expectedVersion: 1 }),
      ]);
      expect([renamed.status, deleted.status].filter((status) => status < 300)).toHaveLength(1);
      const left = (await listed()).filter((t) => t.id === racing.id);
      if (deleted.status === 204) {
        expect(left).toEqual([]);
        expectRestError(renamed, 404, "not_found");
      } else {
        expect(left).toEqual([{ ...racing, name: "Renomeada", version: 2 }]);
        expectRestError(deleted, 409, "conflict");
      }
    });

    it('when the version comes as If-Match ("2", W/"2" or 2), then it counts like expectedVersion', async () => {
      const viaHeader = (await create(ana, "Cabeçalho")).body.tag;
      const patched = await ana.rest<{ tag: VersionedTag }>(
        "PATCH",
        `${tagsPath()}/${viaHeader.id}`,
        { color: "green" },
        { "If-Match": '"1"' },
      );
      expect(patched.body.tag.version).toBe(2);
      expect((await ana.rest("PATCH", `${tagsPath()}/${viaHeader.id}`, { color: "red" }, { "If-Match": 'W/"2"' })).status).toBe(200);
      expectRestError(await ana.rest("DELETE", `${tagsPath()}/${viaHeader.id}`, undefined, { "If-Match": '"2"' }), 409, "conflict");
      expect((await ana.rest("DELETE", `${tagsPath()}/${viaHeader.id}`, undefined, { "If-Match": "3" })).status).toBe(204);
    });

    it("when no version is sent, If-Match is malformed or disagrees with the body, then 400 naming the field, and nothing changes", async () => {
      const kept = (await create(ana, "Intocada")).body.tag;
      const path = `${tagsPath()}/${kept.id}`;
      expect(issuePaths(expectRestError(await ana.rest("PATCH", path, { name: "x" }), 400, "invalid_argument"))).toEqual([
        "expectedVersion",
      ]);
      expect(issuePaths(expectRestError(await ana.rest("DELETE", path), 400, "invalid_argument"))).toEqual(["expectedVersion"]);
      for (const ifMatch of ["*", "abc", '"1", "2"', "-1"]) {
        expect(
          issuePaths(expectRestError(await ana.rest("DELETE", path, undefined, { "If-Match": ifMatch }), 400, "invalid_argument")),
        ).toEqual(["If-Match"]);
      }
      expect(
        issuePaths(expectRestError(await ana.rest("DELETE", path, { expectedVersion: 2 }, { "If-Match": '"1"' }), 400, "invalid_argument")),
      ).toEqual(["If-Match"]);
      expect(
        issuePaths(expectRestError(await ana.rest("DELETE", path, undefined, { "If-Match": '"0"' }), 400, "invalid_argument")),
      ).toEqual(["expectedVersion"]);
      expect((await listed()).find((t) => t.id === kept.id)).toEqual(kept);
    });
  });
});
