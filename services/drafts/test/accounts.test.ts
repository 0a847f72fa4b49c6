/**
 * Accounts are tenants: a person id means a person only within its account. Two accounts whose keys
 * name the same person ids share nothing: no tool (the stdio upload included) and no REST route of one
 * reaches a workspace, draft or asset of the other, a member added to a workspace is a person of the
 * workspace's account, and request_ids reused across accounts never meet.
 */
import { randomUUID } from "node:crypto";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Router } from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Stack } from "@bancada/e2e";
import { draftsFactory, startDraftsStack } from "./stack.js";
import {
  callOverBus,
  closeAll,
  expectRestError,
  fails,
  ok,
  person,
  png,
  workspace,
  type Asset,
  type Draft,
  type Person,
} from "./helpers.js";

const secret = "Segredo da conta B";

describe("accounts", () => {
  let stack: Stack;
  let routes: Router;
  let files: string;
  let anaA: Person;
  let pbA: Person;
  let anaB: Person;
  let pbB: Person;
  let wsB: string;
  let draftB: Draft;
  let assetB: Asset;
  const draftRequestB = randomUUID();

  beforeAll(async () => {
    stack = await startDraftsStack({ services: { drafts: draftsFactory({}, (service) => (routes = service.routes)) } });
    files = await mkdtemp(path.join(tmpdir(), "drafts-accounts-"));
    [anaA, pbA, anaB, pbB] = await Promise.all([
      person(stack, { accountId: "acct-a", personId: "ana" }),
      person(stack, { accountId: "acct-a", personId: "pb" }),
      person(stack, { accountId: "acct-b", personId: "ana" }),
      person(stack, { accountId: "acct-b", personId: "pb" }),
    ]);
    wsB = await workspace(anaB, [[pbB, "editor"]], "Equipe B");
    draftB = (
      await ok(anaB.client, "sosoapi_create_content_draft", {
        workspace_id: wsB,
        request_id: draftRequestB,
        caption: secret,
        account_ids: ["instagram:b"],
      })
    ).draft;
    const uploaded = await anaB.rest<{ draft: Draft; asset: Asset }>(
      "POST",
      `/v1/workspaces/${wsB}/drafts/${draftB.id}/assets?filename=b.png`,
      {
        raw: png(),
        headers: { "If-Match": `"${draftB.revision}"`, "Idempotency-Key": randomUUID() },
      },
    );
    expect(uploaded.status, JSON.stringify(uploaded.body)).toBe(201);
    ({ draft: draftB, asset: assetB } = uploaded.body);
  });
  afterAll(async () => {
    await closeAll(anaA, pbA, anaB, pbB);
    await stack?.stop();
    if (files) await rm(files, { recursive: true, force: true });
  });

  /** Everything account B can see of its workspace, to show that nothing changed. */
  async function snapshotOfB(): Promise<unknown[]> {
    const base = `/v1/workspaces/${wsB}`;
    return Promise.all(
      [
        base,
        `${base}/members`,
        `${base}/drafts`,
        `${base}/drafts/${draftB.id}`,
        `${base}/drafts/${draftB.id}/assets/${assetB.id}/content`,
      ].map(async (route) => {
        const response = await anaB.rest("GET", route);
        expect(response.status, route).toBe(200);
        return response.body;
      }),
    );
  }

  const workspaceIds = async (who: Person) =>
    (await who.rest<{ workspaces: { id: string }[] }>("GET", "/v1/workspaces")).body.workspaces.map((w) => w.id);

  it("when the same person ids list workspaces in two accounts, then each sees only its own account's", async () => {
    const wsA = await workspace(anaA, [[pbA, "editor"]], "Equipe A");
    expect(await workspaceIds(anaA)).toEqual([wsA]);
    expect(await workspaceIds(pbA)).toEqual([wsA]);
    expect(await workspaceIds(anaB)).toEqual([wsB]);
    expect(await workspaceIds(pbB)).toEqual([wsB]);
  });

  it("when the same person ids call sosoapi_list_workspaces in two accounts, then each sees only its own account's, with its role", async () => {
    const wsA = await workspace(anaA, [[pbA, "viewer"]], "Lista A");
    const listed = async (who: Person) =>
      (
        await ok<{ workspaces: { id: string; name: string; role: string; created_at: string }[] }>(
          who.client,
          "sosoapi_list_workspaces",
          {},
        )
      ).workspaces;
    for (const [who, role] of [
      [anaA, "owner"],
      [pbA, "viewer"],
    ] as const) {
      const mine = await listed(who);
      expect(mine.map((w) => w.id)).toEqual(await workspaceIds(who));
      expect(mine.find((w) => w.id === wsA)).toMatchObject({ name: "Lista A", role });
      expect(JSON.stringify(mine)).not.toContain(wsB);
    }
    expect(await listed(anaB)).toEqual([{ id: wsB, name: "Equipe B", role: "owner", created_at: expect.any(String) }]);
    expect((await listed(pbB)).map((w) => [w.id, w.role])).toEqual([[wsB, "editor"]]);
    const stranger = await person(stack, { accountId: "acct-b", personId: "nobody", allowWrites: false, scopes: ["drafts:read"] });
    expect(await listed(stranger)).toEqual([]);
    const tool = (await stranger.client.listTools()).tools.find((candidate) => candidate.name === "sosoapi_list_workspaces");
    expect(tool?.annotations).toMatchObject({ readOnlyHint: true, destructiveHint: false });
    await closeAll(stranger);
  });

  it("when a member is added to a workspace of account A, then it is A's person: B's person of the same id gets nothing", async () => {
    const wsA = await workspace(anaA, [], "Com convidada");
    const [biaA, biaB] = await Promise.all([
      person(stack, { accountId: "acct-a", personId: "bia" }),
      person(stack, { accountId: "acct-b", personId: "bia" }),
    ]);
    expect((await anaA.rest("PUT", `/v1/workspaces/${wsA}/members/bia`, { body: { role: "editor" } })).status).toBe(201);
    expect(await workspaceIds(biaA)).toEqual([wsA]);
    expect(await workspaceIds(biaB)).toEqual([]);
    await fails(biaB.client, "sosoapi_list_content_drafts", { workspace_id: wsA }, "not_found");
    await closeAll(biaA, biaB);
  });

  it("when account A's people call every tool on account B's workspace, then not_found as for an unknown workspace, naming nothing of B's", async () => {
    const image = path.join(files, "a.png");
    await writeFile(image, png());
    const onDraft = { draft_id: draftB.id, expected_revision: draftB.revision };
    const calls: [string, Record<string, unknown>][] = [
      ["sosoapi_list_content_drafts", {}],
      ["sosoapi_get_content_draft", { draft_id: draftB.id }],
      ["sosoapi_create_content_draft", { request_id: randomUUID(), caption: "x" }],
      ["sosoapi_update_content_draft", { ...onDraft, request_id: randomUUID(), caption: "x" }],
      ["sosoapi_submit_content_draft", { ...onDraft, request_id: randomUUID() }],
    ];
    const unknown = randomUUID();
    for (const attacker of [anaA, pbA]) {
      for (const [tool, args] of calls) {
        const real = await fails(attacker.client, tool, { workspace_id: wsB, ...args }, "not_found");
        const made = await fails(attacker.client, tool, { workspace_id: unknown, ...args }, "not_found");
        expect(real.message.replace(wsB, "<ws>")).toBe(made.message.replace(unknown, "<ws>"));
        expect(JSON.stringify(real)).not.toContain(secret);
      }
      // The stdio-only upload, as the stdio server would send it.
      const reply = await callOverBus(
        stack,
        attacker.key,
        "sosoapi_add_content_draft_asset",
        { workspace_id: wsB, ...onDraft, request_id: randomUUID(), path: image },
        "stdio",
      );
      expect(JSON.stringify(reply)).toContain("not_found");
      expect(JSON.stringify(reply)).not.toContain(secret);
    }
  });

  it("when account A's people call every REST route of account B's workspace, then 404 everywhere, and B's workspace is unchanged", async () => {
    const base = `/v1/workspaces/${wsB}`;
    const d = `${base}/drafts/${draftB.id}`;
    const revision = { "If-Match": `"${draftB.revision}"` };
    const calls = (attacker: Person): [string, string, { body?: unknown; raw?: Uint8Array; headers?: Record<string, string> }?][] => [
      ["GET", base],
      ["PATCH", base, { body: { name: "x" } }],
      ["GET", `${base}/members`],
      ["PUT", `${base}/members/${attacker.personId}`, { body: { role: "owner" } }],
      ["DELETE", `${base}/members/ana`],
      ["GET", `${base}/drafts`],
      ["POST", `${base}/drafts`, { body: { request_id: randomUUID(), caption: "x" } }],
      ["GET", d],
      ["PATCH", d, { body: { request_id: randomUUID(), caption: "x" }, headers: revision }],
      ["POST", `${d}/submit`, { body: { request_id: randomUUID() }, headers: revision }],
      ["POST", `${d}/assets?filename=x.png`, { raw: png(), headers: { ...revision, "Idempotency-Key": randomUUID() } }],
      ["GET", `${d}/assets/${assetB.id}/content`],
    ];
    const template = (route: string) =>
      route
        .split("?")[0]!
        .replace(wsB, ":workspaceId")
        .replace(draftB.id, ":draftId")
        .replace(assetB.id, ":assetId")
        .replace(/\/members\/[^/]+$/, "/members/:personId");
    const called = [...new Set(calls(anaA).map(([method, route]) => `${method} ${template(route)}`))].sort();
    expect(called).toEqual([...new Set(registeredRoutes(routes).filter((route) => route.includes(":workspaceId")))].sort());

    const before = await snapshotOfB();
    for (const attacker of [anaA, pbA]) {
      for (const [method, route, options] of calls(attacker)) {
        const response = await attacker.rest(method, route, options);
        expect(`${method} ${route} → ${response.status}`).toBe(`${method} ${route} → 404`);
        expectRestError(response, 404, "not_found");
        expect(JSON.stringify(response.body)).not.toContain(secret);
      }
    }
    expect(await snapshotOfB()).toEqual(before);
  });

  it("when account A reuses account B's request_ids, then it gets its own workspace and draft, never B's nor a conflict", async () => {
    const requestId = randomUUID();
    const first = await anaB.rest<{ workspace: { id: string } }>("POST", "/v1/workspaces", {
      body: { name: "Mesma", request_id: requestId },
    });
    const other = await anaA.rest<{ workspace: { id: string } }>("POST", "/v1/workspaces", {
      body: { name: "Mesma", request_id: requestId },
    });
    expect([first.status, other.status]).toEqual([201, 201]);
    expect(other.body.workspace.id).not.toBe(first.body.workspace.id);
    const wsA = other.body.workspace.id;
    const draftA = (
      await ok(anaA.client, "sosoapi_create_content_draft", {
        workspace_id: wsA,
        request_id: draftRequestB,
        caption: secret,
        account_ids: ["instagram:b"],
      })
    ).draft;
    expect(draftA.id).not.toBe(draftB.id);
    expect(draftA.workspace_id).toBe(wsA);
  });
});

/** Every route a router registers, as "METHOD /path/:param". */
function registeredRoutes(router: Router): string[] {
  return router.stack.flatMap((layer) =>
    layer.route
      ? [...new Set(layer.route.stack.map((handler) => `${handler.method.toUpperCase()} ${layer.route!.path}`))]
      : registeredRoutes(layer.handle as unknown as Router),
  );
}
