/**
 * One account can never see or change another's scripts, whatever id it sends: over MCP, over REST,
 * and in the change feed. Another account's id answers exactly like an unknown id (not_found).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { randomUUID } from "node:crypto";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { connectClient, startStack, type Stack } from "@bancada/e2e";
import { scriptsFactory } from "./stack.js";
import { expectRestError, fails, marker, ok, restClient, type ErrorBody, type ListResult, type Rest, type Script } from "./helpers.js";

interface Change {
  seq: number;
  scriptId: string;
  revision: number;
  kind: string;
}

describe("tenancy", () => {
  let stack: Stack;
  let clientA: Client;
  let clientB: Client;
  let restA: Rest;
  let restB: Rest;
  const titleA = marker("Segredo da conta A");
  let active: Script;
  let trashed: Script;
  let ownB: Script;

  beforeAll(async () => {
    stack = await startStack({ services: { scripts: scriptsFactory } });
    const keyA = await stack.createKey();
    const keyB = await stack.createKey({ accountId: "acct-b", personId: "person-b" });
    clientA = await connectClient(stack.mcpUrl, keyA);
    clientB = await connectClient(stack.mcpUrl, keyB);
    restA = restClient(stack.baseUrl, keyA);
    restB = restClient(stack.baseUrl, keyB);
    active = (await ok(clientA, "create_script", { title: titleA, text: "texto privado de A", status: "ready" })).script;
    const second = (await ok(clientA, "create_script", { title: `${titleA} lixeira`, text: "na lixeira" })).script;
    trashed = (await ok(clientA, "trash_script", { id: second.id, revision: second.revision })).script;
    ownB = (await ok(clientB, "create_script", { title: "B's own", text: "B" })).script;
  });
  afterAll(async () => {
    await clientA?.close();
    await clientB?.close();
    await stack?.stop();
  });

  /** A's scripts, read by A, are exactly as they were created. */
  const expectUntouched = async () => {
    expect((await ok(clientA, "get_script", { id: active.id })).script).toEqual(active);
    expect((await ok(clientA, "get_script", { id: trashed.id })).script).toEqual(trashed);
  };

  /** The not_found for another account's id looks like the not_found for an id that does not exist at all. */
  const sameAsUnknown = (error: ErrorBody, id: string, unknown: ErrorBody, unknownId: string) => {
    expect(error.message.replaceAll(id, "<id>")).toBe(unknown.message.replaceAll(unknownId, "<id>"));
    expect(JSON.stringify(error.details ?? {}).replaceAll(id, "<id>")).toBe(
      JSON.stringify(unknown.details ?? {}).replaceAll(unknownId, "<id>"),
    );
  };

  describe("over MCP", () => {
    it("when B gets A's script by id, then not_found, indistinguishable from an unknown id", async () => {
      const unknownId = randomUUID();
      const unknown = await fails(clientB, "get_script", { id: unknownId }, "not_found");
      for (const script of [active, trashed]) {
        const error = await fails(clientB, "get_script", { id: script.id }, "not_found");
        sameAsUnknown(error, script.id, unknown, unknownId);
      }
    });

    it("when B updates A's script with its right revision, then not_found and A's script is unchanged", async () => {
      const error = await fails(
        clientB,
        "update_script",
        { id: active.id, revision: active.revision, title: "hijacked", text: "", status: "draft" },
        "not_found",
      );
      expect(JSON.stringify(error)).not.toContain(active.title);
      await fails(clientB, "update_script", { id: active.id, revision: 99, title: "hijacked", text: "", status: "draft" }, "not_found");
      await expectUntouched();
    });

    it("when B trashes A's active script or restores A's trashed one, then not_found and nothing changes", async () => {
      await fails(clientB, "trash_script", { id: active.id, revision: active.revision }, "not_found");
      await fails(clientB, "restore_script", { id: trashed.id, revision: trashed.revision }, "not_found");
      await fails(clientB, "restore_script", { id: active.id, revision: active.revision }, "not_found");
      await fails(clientB, "trash_script", { id: trashed.id, revision: trashed.revision }, "not_found");
      await expectUntouched();
    });

    it("when B lists, searches or lists the trash, then none of A's scripts appear", async () => {
      const aIds = new Set([active.id, trashed.id]);
      for (const args of [
        {},
        { query: titleA },
        { query: "texto privado" },
        { status: "ready" },
        { trashed: true },
        { trashed: true, query: titleA },
        { limit: 100 },
      ]) {
        const page = await ok<ListResult>(clientB, "list_scripts", args);
        expect(
          page.scripts.filter((item) => aIds.has(item.id)),
          JSON.stringify(args),
        ).toEqual([]);
      }
      const mine = await ok<ListResult>(clientB, "list_scripts", { limit: 100 });
      expect(mine.scripts.map((item) => item.id)).toEqual([ownB.id]);
      expect((await ok<ListResult>(clientB, "list_scripts", { query: titleA })).scripts).toEqual([]);
    });

    it("when A lists, then A does not see B's script either", async () => {
      const page = await ok<ListResult>(clientA, "list_scripts", { limit: 100 });
      expect(page.scripts.map((item) => item.id)).toEqual([active.id]);
      expect((await ok<ListResult>(clientA, "list_scripts", { trashed: true })).scripts.map((item) => item.id)).toEqual([trashed.id]);
      await fails(clientA, "get_script", { id: ownB.id }, "not_found");
    });
  });

  describe("over REST", () => {
    it("when B reads A's script with GET /v1/scripts/:id, then 404 not_found", async () => {
      for (const script of [active, trashed]) {
        expectRestError(await restB("GET", `/v1/scripts/${script.id}`), 404, "not_found");
      }
      expect((await restA("GET", `/v1/scripts/${active.id}`)).status).toBe(200);
    });

    it("when B writes to A's script over REST, then 404 not_found and A's script is unchanged", async () => {
      const ifMatch = { "If-Match": `"${active.revision}"` };
      expectRestError(
        await restB("PUT", `/v1/scripts/${active.id}`, { headers: ifMatch, body: { title: "x", text: "", status: "draft" } }),
        404,
        "not_found",
      );
      expectRestError(await restB("POST", `/v1/scripts/${active.id}/trash`, { headers: ifMatch }), 404, "not_found");
      expectRestError(await restB("POST", `/v1/scripts/${trashed.id}/restore`, { body: { revision: trashed.revision } }), 404, "not_found");
      await expectUntouched();
    });

    it("when B lists over REST, then none of A's scripts appear", async () => {
      for (const search of ["", `?query=${encodeURIComponent(titleA)}`, "?trashed=true", "?limit=100"]) {
        const { status, body } = await restB<ListResult>("GET", `/v1/scripts${search}`);
        expect(status).toBe(200);
        expect(body.scripts.filter((item) => item.id === active.id || item.id === trashed.id)).toEqual([]);
      }
    });

    it("when B follows its change feed, then it holds only B's own changes, numbered from 1", async () => {
      const { status, body } = await restB<{ changes: Change[]; nextCursor: string }>("GET", "/v1/changes?after=0&limit=1000");
      expect(status).toBe(200);
      expect(body.changes.map(({ seq, scriptId, revision, kind }) => ({ seq, scriptId, revision, kind }))).toEqual([
        { seq: 1, scriptId: ownB.id, revision: 1, kind: "created" },
      ]);
      expect(body.nextCursor).toBe("1");
      const feedA = await restA<{ changes: Change[] }>("GET", "/v1/changes?after=0&limit=1000");
      expect(feedA.body.changes.map((change) => change.scriptId)).not.toContain(ownB.id);
      expect(feedA.body.changes.map((change) => change.seq)).toEqual([1, 2, 3]);
    });
  });
});
