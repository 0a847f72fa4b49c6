/**
 * Creating and editing drafts: every limit at its edge, request_id idempotency (also racing),
 * expected_revision (stale → conflict with the current draft), states, and the REST twins of the tools.
 */
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Stack } from "@bancada/e2e";
import { draftsFactory, startDraftsStack } from "./stack.js";
import {
  closeAll,
  createDraft,
  expectRestError,
  fails,
  issuePaths,
  ok,
  person,
  workspace,
  type Draft,
  type Page,
  type Person,
} from "./helpers.js";

describe("draft writes", () => {
  let stack: Stack;
  let ana: Person;
  let bia: Person;
  let ws: string;
  beforeAll(async () => {
    stack = await startDraftsStack({ services: { drafts: draftsFactory({ worker: { enabled: false } }) } });
    [ana, bia] = await Promise.all([person(stack), person(stack)]);
    ws = await workspace(ana, [[bia, "editor"]]);
  });
  afterAll(async () => {
    await closeAll(ana, bia);
    await stack?.stop();
  });

  const get = async (id: string) => (await ok(ana.client, "sosoapi_get_content_draft", { workspace_id: ws, draft_id: id })).draft;
  const create = (args: Record<string, unknown>) => ({ workspace_id: ws, request_id: randomUUID(), ...args });
  const accounts = (n: number) => Array.from({ length: n }, (_, i) => `facebook:page_${i}`);

  describe("limits", () => {
    it("when a caption has 2,200 characters (also 2,200 emoji) it is saved; 2,201 is invalid_argument naming caption", async () => {
      expect((await createDraft(ana.client, ws, { caption: "c".repeat(2_200) })).caption).toHaveLength(2_200);
      expect([...(await createDraft(ana.client, ws, { caption: "🎉".repeat(2_200) })).caption]).toHaveLength(2_200);
      for (const caption of ["c".repeat(2_201), "🎉".repeat(2_201), "a\u0000b"]) {
        expect(issuePaths(await fails(ana.client, "sosoapi_create_content_draft", create({ caption }), "invalid_argument"))).toEqual([
          "caption",
        ]);
      }
    });

    it("when a draft names 50 accounts it is saved; the 51st account is invalid_argument naming account_ids", async () => {
      const draft = await createDraft(ana.client, ws, { account_ids: accounts(50) });
      expect(draft.account_count).toBe(50);
      expect(
        issuePaths(await fails(ana.client, "sosoapi_create_content_draft", create({ account_ids: accounts(51) }), "invalid_argument")),
      ).toEqual(["account_ids"]);
      const update = { workspace_id: ws, draft_id: draft.id, expected_revision: 1, request_id: randomUUID(), account_ids: accounts(51) };
      expect(issuePaths(await fails(ana.client, "sosoapi_update_content_draft", update, "invalid_argument"))).toEqual(["account_ids"]);
    });

    it("when accounts repeat or are not '<network>:<handle>', or a field is unknown, then invalid_argument naming the field", async () => {
      expect(
        issuePaths(await fails(ana.client, "sosoapi_create_content_draft", create({ account_ids: ["x:a", "x:a"] }), "invalid_argument")),
      ).toEqual(["account_ids"]);
      expect(
        issuePaths(await fails(ana.client, "sosoapi_create_content_draft", create({ account_ids: ["Acme"] }), "invalid_argument")),
      ).toEqual(["account_ids[0]"]);
      expect(issuePaths(await fails(ana.client, "sosoapi_create_content_draft", create({ title: "x" }), "invalid_argument"))).toEqual([
        "title",
      ]);
      expect(issuePaths(await fails(ana.client, "sosoapi_create_content_draft", { workspace_id: ws }, "invalid_argument"))).toEqual([
        "request_id",
      ]);
    });

    it("when expected_revision is 2147483647 it is checked against the draft; 0 or 2147483648 is invalid_argument", async () => {
      const draft = await createDraft(ana.client, ws);
      const args = (expected_revision: number) => ({
        workspace_id: ws,
        draft_id: draft.id,
        expected_revision,
        request_id: randomUUID(),
        caption: "x",
      });
      await fails(ana.client, "sosoapi_update_content_draft", args(2_147_483_647), "conflict");
      for (const revision of [0, 2_147_483_648]) {
        expect(issuePaths(await fails(ana.client, "sosoapi_update_content_draft", args(revision), "invalid_argument"))).toEqual([
          "expected_revision",
        ]);
      }
    });
  });

  describe("request_id", () => {
    it("when create is retried with the same request_id, then the same draft comes back and only one exists", async () => {
      const args = create({ caption: "idempotente" });
      const first = (await ok(ana.client, "sosoapi_create_content_draft", args)).draft;
      const again = (await ok(ana.client, "sosoapi_create_content_draft", args)).draft;
      expect(again).toEqual(first);
      const page = await ok<Page>(ana.client, "sosoapi_list_content_drafts", { workspace_id: ws, limit: 50 });
      expect(page.drafts.filter((d) => d.caption_preview === "idempotente")).toHaveLength(1);
    });

    it("when eight identical creates race, then they all return one and the same draft", async () => {
      const args = create({ caption: "corrida" });
      const results = await Promise.all(Array.from({ length: 8 }, () => ok(ana.client, "sosoapi_create_content_draft", args)));
      expect(new Set(results.map((r) => r.draft.id)).size).toBe(1);
    });

    it("when a request_id is reused with other arguments, for another tool, or by another person, then idempotency_conflict", async () => {
      const args = create({ caption: "um" });
      const draft = (await ok(ana.client, "sosoapi_create_content_draft", args)).draft;
      await fails(ana.client, "sosoapi_create_content_draft", { ...args, caption: "dois" }, "idempotency_conflict");
      await fails(bia.client, "sosoapi_create_content_draft", args, "idempotency_conflict");
      await fails(
        ana.client,
        "sosoapi_update_content_draft",
        { workspace_id: ws, draft_id: draft.id, expected_revision: 1, request_id: args.request_id, caption: "um" },
        "idempotency_conflict",
      );
    });

    it("when an update is retried with its request_id after it succeeded, then the first result comes back instead of a conflict", async () => {
      const draft = await createDraft(ana.client, ws);
      const args = { workspace_id: ws, draft_id: draft.id, expected_revision: 1, request_id: randomUUID(), caption: "v2" };
      const first = (await ok(ana.client, "sosoapi_update_content_draft", args)).draft;
      expect((await ok(ana.client, "sosoapi_update_content_draft", args)).draft).toEqual(first);
      expect((await get(draft.id)).revision).toBe(2);
    });

    it("when a write fails, then its request_id is not used up: the corrected retry with it succeeds", async () => {
      const requestId = randomUUID();
      const draft = await createDraft(ana.client, ws);
      await fails(
        ana.client,
        "sosoapi_update_content_draft",
        { workspace_id: ws, draft_id: draft.id, expected_revision: 9, request_id: requestId, caption: "x" },
        "conflict",
      );
      expect(
        (
          await ok(ana.client, "sosoapi_update_content_draft", {
            workspace_id: ws,
            draft_id: draft.id,
            expected_revision: 1,
            request_id: requestId,
            caption: "x",
          })
        ).draft.revision,
      ).toBe(2);
    });
  });

  describe("expected_revision and states", () => {
    it("when two people edit from the same revision, then the second gets conflict with the current draft and nothing of theirs is saved", async () => {
      const draft = await createDraft(ana.client, ws, { caption: "base" });
      const edit = (caption: string) => ({ workspace_id: ws, draft_id: draft.id, expected_revision: 1, request_id: randomUUID(), caption });
      const saved = (await ok(ana.client, "sosoapi_update_content_draft", edit("da Ana"))).draft;
      expect(saved).toMatchObject({ revision: 2, caption: "da Ana", updated_by: ana.personId, created_by: ana.personId });
      const error = await fails(bia.client, "sosoapi_update_content_draft", edit("da Bia"), "conflict");
      expect(error.details?.current).toEqual(saved);
      expect(error.details?.expected_revision).toBe(1);
      expect(await get(draft.id)).toEqual(saved);
    });

    it("when an update changes nothing, then invalid_argument; an unknown draft id is not_found", async () => {
      const draft = await createDraft(ana.client, ws);
      await fails(
        ana.client,
        "sosoapi_update_content_draft",
        { workspace_id: ws, draft_id: draft.id, expected_revision: 1, request_id: randomUUID() },
        "invalid_argument",
      );
      await fails(
        ana.client,
        "sosoapi_update_content_draft",
        { workspace_id: ws, draft_id: draft.id, expected_revision: 1, request_id: randomUUID(), remove_asset_ids: [] },
        "invalid_argument",
      );
      const error = await fails(
        ana.client,
        "sosoapi_update_content_draft",
        { workspace_id: ws, draft_id: draft.id, expected_revision: 1, request_id: randomUUID(), remove_asset_ids: [randomUUID()] },
        "invalid_argument",
      );
      expect(issuePaths(error)).toEqual(["remove_asset_ids[0]"]);
      await fails(ana.client, "sosoapi_get_content_draft", { workspace_id: ws, draft_id: randomUUID() }, "not_found");
    });

    it("when a draft is being submitted, then edits and a second submit are failed_precondition, and the list still shows it as submitting", async () => {
      const draft = await createDraft(ana.client, ws, { caption: "vai", account_ids: ["facebook:acme"] });
      const submitted = (
        await ok(ana.client, "sosoapi_submit_content_draft", {
          workspace_id: ws,
          draft_id: draft.id,
          expected_revision: 1,
          request_id: randomUUID(),
        })
      ).draft;
      expect(submitted).toMatchObject({ state: "submitting", revision: 2, submit_error: null });
      const edit = { workspace_id: ws, draft_id: draft.id, expected_revision: 2, request_id: randomUUID(), caption: "mudou" };
      expect((await fails(ana.client, "sosoapi_update_content_draft", edit, "failed_precondition")).details).toMatchObject({
        state: "submitting",
      });
      await fails(
        ana.client,
        "sosoapi_submit_content_draft",
        { workspace_id: ws, draft_id: draft.id, expected_revision: 2, request_id: randomUUID() },
        "failed_precondition",
      );
      const page = await ok<Page>(ana.client, "sosoapi_list_content_drafts", { workspace_id: ws, limit: 1 });
      expect(page.drafts[0]).toMatchObject({ id: draft.id, state: "submitting" });
    });
  });

  describe("REST", () => {
    it("when drafts are created, read, edited (If-Match), submitted and listed over REST, then the tools' rules apply", async () => {
      const key = randomUUID();
      const created = await ana.rest<{ draft: Draft }>("POST", `/v1/workspaces/${ws}/drafts`, {
        body: { caption: "rest" },
        headers: { "Idempotency-Key": key },
      });
      expect(created.status).toBe(201);
      expect(created.headers.get("etag")).toBe('"1"');
      const again = await ana.rest<{ draft: Draft }>("POST", `/v1/workspaces/${ws}/drafts`, {
        body: { caption: "rest" },
        headers: { "Idempotency-Key": key },
      });
      expect(again.body.draft.id).toBe(created.body.draft.id);
      const id = created.body.draft.id;
      const patched = await ana.rest<{ draft: Draft }>("PATCH", `/v1/workspaces/${ws}/drafts/${id}`, {
        body: { caption: "rest 2", request_id: randomUUID() },
        headers: { "If-Match": '"1"' },
      });
      expect(patched.body.draft).toMatchObject({ caption: "rest 2", revision: 2 });
      const stale = expectRestError(
        await bia.rest("PATCH", `/v1/workspaces/${ws}/drafts/${id}`, {
          body: { caption: "x", request_id: randomUUID() },
          headers: { "If-Match": '"1"' },
        }),
        409,
        "conflict",
      );
      expect(stale.details?.current).toEqual(patched.body.draft);
      expectRestError(
        await ana.rest("PATCH", `/v1/workspaces/${ws}/drafts/${id}`, {
          body: { caption: "x", request_id: randomUUID() },
          headers: { "If-Match": "two" },
        }),
        400,
        "invalid_argument",
      );
      const fetched = await bia.rest<{ draft: Draft }>("GET", `/v1/workspaces/${ws}/drafts/${id}`);
      expect(fetched.body.draft).toEqual(patched.body.draft);
      const submitted = await ana.rest<{ draft: Draft }>("POST", `/v1/workspaces/${ws}/drafts/${id}/submit`, {
        body: { request_id: randomUUID(), expected_revision: 2 },
      });
      expect(submitted.status).toBe(202);
      expect(submitted.body.draft.state).toBe("submitting");
      const first = await ana.rest<Page>("GET", `/v1/workspaces/${ws}/drafts?limit=2`);
      expect(first.body.returned_count).toBe(2);
      const cursor = first.body.next_cursor!;
      const next = await ana.rest<Page>(
        "GET",
        `/v1/workspaces/${ws}/drafts?limit=2&cursor_updated_at=${encodeURIComponent(cursor.updated_at)}&cursor_id=${cursor.id}`,
      );
      expect(next.body.drafts[0]!.id).not.toBe(first.body.drafts[1]!.id);
      expectRestError(await ana.rest("GET", `/v1/workspaces/${ws}/drafts?limit=51`), 400, "invalid_argument");
      expectRestError(
        await ana.rest("GET", `/v1/workspaces/${ws}/drafts?cursor_updated_at=2023-02-29T00:00:00Z&cursor_id=${id}`),
        400,
        "invalid_argument",
      );
    });
  });

  it("when no worker runs (this stack has none), then a submission stays submitting: durable, never lost", async () => {
    const draft = await createDraft(ana.client, ws, { caption: "espera", account_ids: ["facebook:acme"] });
    await ok(ana.client, "sosoapi_submit_content_draft", {
      workspace_id: ws,
      draft_id: draft.id,
      expected_revision: 1,
      request_id: randomUUID(),
    });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect((await get(draft.id)).state).toBe("submitting");
  });
});
