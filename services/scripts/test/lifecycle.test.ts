/**
 * A script's life through the MCP tools: create, read, revision-checked update, trash, restore, and
 * the list (order, paging, filters, search, previews).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { randomUUID } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { callTool, connectClient, startStack, type ErrorData, type Stack } from "@bancada/e2e";
import { scriptsFactory } from "./stack.js";
import { fails, marker, ok, type ListResult, type Script } from "./helpers.js";

describe("script lifecycle", () => {
  let stack: Stack;
  let client: Client;
  const person = "person-lifecycle";

  beforeAll(async () => {
    stack = await startStack({ services: { scripts: scriptsFactory } });
    client = await connectClient(stack.mcpUrl, await stack.createKey({ personId: person }));
  });
  afterAll(async () => {
    await client?.close();
    await stack?.stop();
  });

  const create = async (args: Record<string, unknown>) => (await ok(client, "create_script", { text: "", ...args })).script;
  const get = async (id: string) => (await ok(client, "get_script", { id })).script;
  const list = (args: Record<string, unknown>) => ok<ListResult>(client, "list_scripts", args);

  describe("create, read and update", () => {
    let script: Script;

    it("when a script is created without status, then it is a draft at revision 1 created by the key's person", async () => {
      script = await create({ title: "Episódio 1", text: "Olá, pessoal" });
      expect(script).toMatchObject({
        title: "Episódio 1",
        text: "Olá, pessoal",
        status: "draft",
        revision: 1,
        deletedAt: null,
        createdBy: person,
        updatedBy: person,
      });
      expect(script.id).toMatch(/^[0-9a-f-]{36}$/);
      expect(script.createdAt).toBe(script.updatedAt);
      expect(await get(script.id)).toEqual(script);
    });

    it("when it is updated with the current revision, then everything is replaced and the revision is 2", async () => {
      const { script: updated } = await ok(client, "update_script", {
        id: script.id,
        revision: 1,
        title: "Episódio 1 (final)",
        text: "Novo texto",
        status: "ready",
      });
      expect(updated).toMatchObject({
        id: script.id,
        title: "Episódio 1 (final)",
        text: "Novo texto",
        status: "ready",
        revision: 2,
        createdAt: script.createdAt,
        updatedBy: person,
      });
      expect(Date.parse(updated.updatedAt)).toBeGreaterThanOrEqual(Date.parse(script.updatedAt));
      expect(await get(script.id)).toEqual(updated);
      script = updated;
    });

    it("when it is updated with a stale revision, then conflict carries the saved script in details.current and nothing changes", async () => {
      const error = await fails(
        client,
        "update_script",
        { id: script.id, revision: 1, title: "Overwrite", text: "Lost", status: "draft" },
        "conflict",
      );
      expect(error.details?.current).toMatchObject({
        id: script.id,
        revision: 2,
        title: script.title,
        text: script.text,
        status: script.status,
        updatedAt: script.updatedAt,
      });
      expect(await get(script.id)).toEqual(script);
    });

    it("when 8 writers update one script with the same revision at once, then exactly one wins and the others get conflict", async () => {
      const target = await create({ title: "contended" });
      const outcomes = await Promise.all(
        Array.from({ length: 8 }, (_, i) =>
          callTool<{ script: Script } & ErrorData>(client, "update_script", {
            id: target.id,
            revision: 1,
            title: `writer ${i}`,
            text: "",
            status: "draft",
          }),
        ),
      );
      const winners = outcomes.filter((outcome) => !outcome.isError);
      expect(winners).toHaveLength(1);
      expect(outcomes.filter((outcome) => outcome.isError).map((outcome) => outcome.data.error.code)).toEqual(Array(7).fill("conflict"));
      expect(await get(target.id)).toEqual(winners[0]!.data.script);
      expect(winners[0]!.data.script.revision).toBe(2);
    });

    it("when a revision ahead of the saved one is sent, then it is a conflict too", async () => {
      const error = await fails(client, "trash_script", { id: script.id, revision: 3 }, "conflict");
      expect(error.details?.current).toMatchObject({ id: script.id, revision: 2 });
    });

    it("when get_script asks for an unknown uuid, then not_found", async () => {
      await fails(client, "get_script", { id: randomUUID() }, "not_found");
      await fails(client, "update_script", { id: randomUUID(), revision: 1, title: "T", text: "", status: "draft" }, "not_found");
    });
  });

  describe("trash and restore", () => {
    let script: Script;
    let title: string;

    beforeAll(async () => {
      title = marker("trash");
      script = await create({ title, text: "to the trash" });
    });

    it("when a script is trashed, then deletedAt is set and the revision goes up by one", async () => {
      const { script: trashed } = await ok(client, "trash_script", { id: script.id, revision: 1 });
      expect(trashed.deletedAt).not.toBeNull();
      expect(trashed).toMatchObject({ id: script.id, revision: 2, title, text: "to the trash" });
      script = trashed;
    });

    it("when a trashed script is read, then get_script still finds it, list hides it and trashed: true lists it", async () => {
      expect(await get(script.id)).toEqual(script);
      expect((await list({ query: title })).scripts).toEqual([]);
      const trash = await list({ query: title, trashed: true });
      expect(trash.scripts.map((item) => item.id)).toEqual([script.id]);
      expect(trash.scripts[0]!.deletedAt).toBe(script.deletedAt);
    });

    it("when a trashed script is updated or trashed again, then failed_precondition and it stays as it was", async () => {
      await fails(
        client,
        "update_script",
        { id: script.id, revision: script.revision, title: "x", text: "", status: "draft" },
        "failed_precondition",
      );
      await fails(client, "trash_script", { id: script.id, revision: script.revision }, "failed_precondition");
      expect(await get(script.id)).toEqual(script);
    });

    it("when an active script is restored, then failed_precondition", async () => {
      const active = await create({ title: "active one" });
      await fails(client, "restore_script", { id: active.id, revision: 1 }, "failed_precondition");
      expect(await get(active.id)).toEqual(active);
    });

    it("when a trashed script is restored with a stale revision, then conflict; with the current one, it is active again", async () => {
      await fails(client, "restore_script", { id: script.id, revision: 1 }, "conflict");
      const { script: restored } = await ok(client, "restore_script", { id: script.id, revision: script.revision });
      expect(restored).toMatchObject({ id: script.id, revision: 3, deletedAt: null, title });
      expect((await list({ query: title })).scripts.map((item) => item.id)).toEqual([script.id]);
      expect((await list({ query: title, trashed: true })).scripts).toEqual([]);
      const { script: edited } = await ok(client, "update_script", { id: script.id, revision: 3, title, text: "back", status: "review" });
      expect(edited.revision).toBe(4);
    });
  });

  describe("list_scripts", () => {
    it("when scripts change, then the list is ordered by last change, newest first", async () => {
      const tag = marker("order");
      const first = await create({ title: `${tag} first` });
      await sleep(5); // distinct millisecond timestamps, so "newest first" has one answer
      const second = await create({ title: `${tag} second` });
      await sleep(5);
      const third = await create({ title: `${tag} third` });
      await sleep(5);
      expect((await list({ query: tag })).scripts.map((item) => item.id)).toEqual([third.id, second.id, first.id]);
      await ok(client, "update_script", { id: first.id, revision: 1, title: `${tag} first`, text: "edited", status: "draft" });
      expect((await list({ query: tag })).scripts.map((item) => item.id)).toEqual([first.id, third.id, second.id]);
    });

    it("when 25 scripts are paged with limit 10, then hasMore/nextOffset walk through each exactly once", async () => {
      const tag = marker("paging");
      const created = await Promise.all(Array.from({ length: 25 }, (_, i) => create({ title: `${tag} ${i}` })));
      const seen: string[] = [];
      const shapes: [number, boolean, number | null][] = [];
      let offset: number | null = 0;
      let previous = Infinity;
      while (offset !== null) {
        const page: ListResult = await list({ query: tag, limit: 10, offset });
        shapes.push([page.scripts.length, page.hasMore, page.nextOffset]);
        for (const item of page.scripts) {
          expect(Date.parse(item.updatedAt)).toBeLessThanOrEqual(previous);
          previous = Date.parse(item.updatedAt);
          seen.push(item.id);
        }
        offset = page.nextOffset;
      }
      expect(shapes).toEqual([
        [10, true, 10],
        [10, true, 20],
        [5, false, null],
      ]);
      expect(seen).toHaveLength(25);
      expect(new Set(seen)).toEqual(new Set(created.map((script) => script.id)));
    });

    it("when filtering by status, then only scripts with that status come back", async () => {
      const tag = marker("status");
      const byStatus = Object.fromEntries(
        await Promise.all(
          (["draft", "ready", "review", "completed"] as const).map(async (status) => [
            status,
            await create({ title: `${tag} ${status}`, status }),
          ]),
        ),
      ) as Record<string, Script>;
      for (const status of ["draft", "ready", "review", "completed"]) {
        const page = await list({ query: tag, status });
        expect(page.scripts.map((item) => item.id)).toEqual([byStatus[status]!.id]);
        expect(page.scripts[0]!.status).toBe(status);
      }
      const all = await list({ status: "completed", limit: 100 });
      expect(all.scripts.every((item) => item.status === "completed")).toBe(true);
    });

    it("when searching, then the query matches title and text case-insensitively", async () => {
      const tag = marker("Busca");
      const inTitle = await create({ title: `Roteiro ${tag.toUpperCase()} de Verão`, text: "nothing here" });
      const inText = await create({ title: "Plain", text: `Abertura: ${tag.toLowerCase()} e fechamento` });
      await create({ title: "Unrelated", text: "nothing" });
      const ids = (q: string) => list({ query: q }).then((page) => page.scripts.map((item) => item.id).sort());
      expect(await ids(tag)).toEqual([inTitle.id, inText.id].sort());
      expect(await ids(tag.toUpperCase())).toEqual([inTitle.id, inText.id].sort());
      expect(await ids(`roteiro ${tag} DE VERÃO`)).toEqual([inTitle.id]);
      expect(await ids(`ABERTURA: ${tag}`)).toEqual([inText.id]);
    });

    it("when the query holds % or _ or \\, then they are matched literally, not as wildcards", async () => {
      const tag = marker("lit");
      const percent = await create({ title: `${tag} 100% pronto` });
      await create({ title: `${tag} 100 xx pronto` });
      const underscore = await create({ title: `${tag} a_b` });
      await create({ title: `${tag} axb` });
      const backslash = await create({ title: `${tag} c\\d` });
      await create({ title: `${tag} cd` });
      const ids = (q: string) => list({ query: q }).then((page) => page.scripts.map((item) => item.id));
      expect(await ids(`${tag} 100%`)).toEqual([percent.id]);
      expect(await ids("% pronto")).toEqual([percent.id]);
      expect(await ids(`${tag} a_b`)).toEqual([underscore.id]);
      expect(await ids(`${tag} c\\d`)).toEqual([backslash.id]);
      expect(await ids(`${tag} %`)).toEqual([]);
      expect(await ids(`${tag} _`)).toEqual([]);
    });

    it("when scripts are listed, then items carry a preview of at most 200 characters and no text", async () => {
      const tag = marker("preview");
      const long = await create({ title: `${tag} long`, text: "0123456789".repeat(50) });
      const short = await create({ title: `${tag} short`, text: "curto" });
      const page = await list({ query: tag });
      const byId = new Map(page.scripts.map((item) => [item.id, item]));
      expect(byId.get(long.id)!.preview).toBe("0123456789".repeat(20));
      expect(byId.get(short.id)!.preview).toBe("curto");
      for (const item of page.scripts) {
        expect(item).not.toHaveProperty("text");
        expect(item.preview.length).toBeLessThanOrEqual(200);
        expect(item).toMatchObject({ createdBy: person, deletedAt: null });
      }
      const { text: _text, ...rest } = long;
      expect(byId.get(long.id)).toEqual({ ...rest, preview: "0123456789".repeat(20) });
    });
  });
});
