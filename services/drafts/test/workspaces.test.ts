/**
 * Workspaces, members and roles (viewer < editor < admin < owner) over REST, and what each role may do
 * with the tools. A person outside the workspace, or in another account, gets not_found for everything,
 * indistinguishable from a workspace that does not exist.
 */
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Stack } from "@bancada/e2e";
import { draftsFactory, startDraftsStack } from "./stack.js";
import { closeAll, createDraft, expectRestError, fails, ok, person, workspace, type Draft, type Page, type Person } from "./helpers.js";

describe("workspaces and roles", () => {
  let stack: Stack;
  let owner: Person;
  let admin: Person;
  let editor: Person;
  let viewer: Person;
  let outsider: Person;
  let otherAccount: Person;
  let ws: string;
  let draft: Draft;

  beforeAll(async () => {
    stack = await startDraftsStack({ services: { drafts: draftsFactory() } });
    [owner, admin, editor, viewer, outsider] = await Promise.all([
      person(stack),
      person(stack),
      person(stack),
      person(stack),
      person(stack),
    ]);
    // Same person id as the owner, but a key of another account (tenant).
    otherAccount = await person(stack, { accountId: "acct-other", personId: owner.personId });
    ws = await workspace(owner, [
      [admin, "admin"],
      [editor, "editor"],
      [viewer, "viewer"],
    ]);
    draft = await createDraft(editor.client, ws, { caption: "Segredo da equipe", account_ids: ["instagram:acme"] });
  });
  afterAll(async () => {
    await closeAll(owner, admin, editor, viewer, outsider, otherAccount);
    await stack?.stop();
  });

  const members = async (who: Person) =>
    (await who.rest<{ members: { person_id: string; role: string }[] }>("GET", `/v1/workspaces/${ws}/members`)).body.members;
  const setRole = (who: Person, target: string, role: string) =>
    who.rest("PUT", `/v1/workspaces/${ws}/members/${encodeURIComponent(target)}`, { body: { role } });

  describe("reading and writing drafts by role", () => {
    it("when a viewer lists and opens drafts, then it may", async () => {
      const page = await ok<Page>(viewer.client, "sosoapi_list_content_drafts", { workspace_id: ws });
      expect(page.drafts.map((item) => item.id)).toContain(draft.id);
      expect((await ok(viewer.client, "sosoapi_get_content_draft", { workspace_id: ws, draft_id: draft.id })).draft).toEqual(draft);
    });

    it("when a viewer creates, edits or submits a draft, then permission_denied naming its role, and nothing changes", async () => {
      const base = { workspace_id: ws, request_id: randomUUID() };
      for (const [tool, args] of [
        ["sosoapi_create_content_draft", { ...base, caption: "no" }],
        ["sosoapi_update_content_draft", { ...base, draft_id: draft.id, expected_revision: draft.revision, caption: "no" }],
        ["sosoapi_submit_content_draft", { ...base, draft_id: draft.id, expected_revision: draft.revision }],
      ] as const) {
        const error = await fails(viewer.client, tool, args, "permission_denied");
        expect(error.details).toMatchObject({ role: "viewer", requiredRole: "editor" });
      }
      expect((await ok(owner.client, "sosoapi_get_content_draft", { workspace_id: ws, draft_id: draft.id })).draft).toEqual(draft);
      expectRestError(
        await viewer.rest("POST", `/v1/workspaces/${ws}/drafts`, { body: { request_id: randomUUID() } }),
        403,
        "permission_denied",
      );
    });

    it("when an editor, admin or owner creates a draft, then it may", async () => {
      for (const who of [editor, admin, owner]) expect((await createDraft(who.client, ws)).created_by).toBe(who.personId);
    });
  });

  describe("people outside the workspace", () => {
    const unknownWs = randomUUID();

    it("when an outsider or another account's key (same person id) calls any tool, then not_found exactly as for a workspace that does not exist", async () => {
      for (const who of [outsider, otherAccount]) {
        const calls = [
          ["sosoapi_list_content_drafts", {}],
          ["sosoapi_get_content_draft", { draft_id: draft.id }],
          ["sosoapi_create_content_draft", { request_id: randomUUID() }],
          [
            "sosoapi_update_content_draft",
            { draft_id: draft.id, expected_revision: draft.revision, request_id: randomUUID(), caption: "x" },
          ],
          ["sosoapi_submit_content_draft", { draft_id: draft.id, expected_revision: draft.revision, request_id: randomUUID() }],
        ] as const;
        for (const [tool, args] of calls) {
          const real = await fails(who.client, tool, { workspace_id: ws, ...args }, "not_found");
          const made = await fails(who.client, tool, { workspace_id: unknownWs, ...args }, "not_found");
          expect(real.message.replace(ws, "<ws>")).toBe(made.message.replace(unknownWs, "<ws>"));
          expect(JSON.stringify(real)).not.toContain("Segredo");
        }
      }
      expect((await ok(owner.client, "sosoapi_get_content_draft", { workspace_id: ws, draft_id: draft.id })).draft).toEqual(draft);
    });

    it("when an outsider uses the REST API on the workspace, then 404 everywhere, and the workspace is not in its list", async () => {
      for (const path of [
        `/v1/workspaces/${ws}`,
        `/v1/workspaces/${ws}/members`,
        `/v1/workspaces/${ws}/drafts`,
        `/v1/workspaces/${ws}/drafts/${draft.id}`,
      ]) {
        expectRestError(await outsider.rest("GET", path), 404, "not_found");
      }
      expectRestError(
        await outsider.rest("PUT", `/v1/workspaces/${ws}/members/${outsider.personId}`, { body: { role: "owner" } }),
        404,
        "not_found",
      );
      expect((await outsider.rest<{ workspaces: unknown[] }>("GET", "/v1/workspaces")).body.workspaces).toEqual([]);
      expect((await otherAccount.rest<{ workspaces: unknown[] }>("GET", "/v1/workspaces")).body.workspaces).toEqual([]);
      const anonymous = await fetch(`${stack.baseUrl}/v1/workspaces/${ws}/drafts`);
      expect(anonymous.status).toBe(401);
      expect(((await anonymous.json()) as { error: { code: string } }).error.code).toBe("unauthenticated");
    });

    it("when a key lacks drafts:write or may not write, then the write tools are refused with permission_denied", async () => {
      const readOnly = await person(stack, { personId: editor.personId, scopes: ["drafts:read"] });
      const noWrites = await person(stack, { personId: editor.personId, allowWrites: false });
      const args = { workspace_id: ws, request_id: randomUUID() };
      expect((await fails(readOnly.client, "sosoapi_create_content_draft", args, "permission_denied")).details).toMatchObject({
        requiredScope: "drafts:write",
      });
      expect((await fails(noWrites.client, "sosoapi_create_content_draft", args, "permission_denied")).details).toMatchObject({
        allowWrites: false,
      });
      const names = (await readOnly.client.listTools()).tools.map((tool) => tool.name).sort();
      expect(names).toEqual(["sosoapi_get_content_draft", "sosoapi_list_content_drafts", "sosoapi_list_workspaces"]);
      const noScope = await person(stack, { personId: editor.personId, scopes: ["scripts:read"] });
      expect((await fails(noScope.client, "sosoapi_list_content_drafts", { workspace_id: ws }, "permission_denied")).details).toMatchObject(
        { requiredScope: "drafts:read" },
      );
      expectRestError(await noScope.rest("GET", `/v1/workspaces/${ws}/drafts`), 403, "permission_denied");
      await closeAll(readOnly, noWrites, noScope);
    });
  });

  describe("managing members", () => {
    it("when the owner creates a workspace twice with one Idempotency-Key, then one workspace; with another name, idempotency_conflict", async () => {
      const key = randomUUID();
      const first = await owner.rest<{ workspace: { id: string; role: string } }>("POST", "/v1/workspaces", {
        body: { name: "Uma" },
        headers: { "Idempotency-Key": key },
      });
      const again = await owner.rest<{ workspace: { id: string } }>("POST", "/v1/workspaces", {
        body: { name: "Uma" },
        headers: { "Idempotency-Key": key },
      });
      expect([first.status, again.status]).toEqual([201, 200]);
      expect(again.body.workspace.id).toBe(first.body.workspace.id);
      expect(first.body.workspace.role).toBe("owner");
      expectRestError(
        await owner.rest("POST", "/v1/workspaces", { body: { name: "Outra" }, headers: { "Idempotency-Key": key } }),
        409,
        "idempotency_conflict",
      );
    });

    it("when a workspace name has 100 characters it is accepted, 101 or empty is invalid_argument", async () => {
      expect((await owner.rest("POST", "/v1/workspaces", { body: { name: "n".repeat(100) } })).status).toBe(201);
      for (const name of ["n".repeat(101), "  "])
        expectRestError(await owner.rest("POST", "/v1/workspaces", { body: { name } }), 400, "invalid_argument");
      expectRestError(await owner.rest("PATCH", `/v1/workspaces/${ws}`, { body: { name: "Equipe", extra: 1 } }), 400, "invalid_argument");
    });

    it("when an admin adds and changes viewers, editors and admins, then it may; an editor may not manage anyone", async () => {
      const newcomer = randomUUID();
      expect((await setRole(admin, newcomer, "viewer")).status).toBe(201);
      expect((await setRole(admin, newcomer, "admin")).status).toBe(200);
      expect((await members(viewer)).find((m) => m.person_id === newcomer)?.role).toBe("admin");
      expectRestError(await setRole(editor, newcomer, "viewer"), 403, "permission_denied");
      expectRestError(await editor.rest("DELETE", `/v1/workspaces/${ws}/members/${newcomer}`), 403, "permission_denied");
      expect((await admin.rest("DELETE", `/v1/workspaces/${ws}/members/${newcomer}`)).status).toBe(204);
      expect((await members(owner)).map((m) => m.person_id)).not.toContain(newcomer);
      expect((await admin.rest("PATCH", `/v1/workspaces/${ws}`, { body: { name: "Equipe de conteúdo" } })).status).toBe(200);
      expectRestError(await editor.rest("PATCH", `/v1/workspaces/${ws}`, { body: { name: "x" } }), 403, "permission_denied");
    });

    it("when an admin grants the owner role or touches an owner, then permission_denied; the owner may", async () => {
      expectRestError(await setRole(admin, editor.personId, "owner"), 403, "permission_denied");
      expectRestError(await setRole(admin, owner.personId, "viewer"), 403, "permission_denied");
      expectRestError(await admin.rest("DELETE", `/v1/workspaces/${ws}/members/${owner.personId}`), 403, "permission_denied");
      expect((await setRole(owner, admin.personId, "owner")).status).toBe(200);
      expect((await setRole(owner, admin.personId, "admin")).status).toBe(200);
    });

    it("when the last owner would be demoted or removed, then failed_precondition; with a second owner, the first may leave", async () => {
      expectRestError(await setRole(owner, owner.personId, "admin"), 409, "failed_precondition");
      expectRestError(await owner.rest("DELETE", `/v1/workspaces/${ws}/members/${owner.personId}`), 409, "failed_precondition");
      const team = await workspace(owner, [[admin, "owner"]], "Dois donos");
      expect((await owner.rest("DELETE", `/v1/workspaces/${team}/members/${owner.personId}`)).status).toBe(204);
      await fails(owner.client, "sosoapi_list_content_drafts", { workspace_id: team }, "not_found");
      expect(
        (await admin.rest<{ members: { person_id: string; role: string }[] }>("GET", `/v1/workspaces/${team}/members`)).body.members,
      ).toEqual([expect.objectContaining({ person_id: admin.personId, role: "owner" })]);
    });

    it("when a member leaves or is removed, then the workspace is not_found for them from then on", async () => {
      const leaver = await person(stack);
      const team = await workspace(owner, [[leaver, "editor"]], "Passageira");
      await createDraft(leaver.client, team);
      expect((await leaver.rest("DELETE", `/v1/workspaces/${team}/members/${leaver.personId}`)).status).toBe(204);
      await fails(leaver.client, "sosoapi_list_content_drafts", { workspace_id: team }, "not_found");
      expectRestError(await owner.rest("DELETE", `/v1/workspaces/${team}/members/${leaver.personId}`), 404, "not_found");
      expectRestError(await setRole(owner, leaver.personId, "boss"), 400, "invalid_argument");
      await closeAll(leaver);
    });
  });
});
