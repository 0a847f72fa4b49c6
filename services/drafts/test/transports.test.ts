/**
 * Profiles and transports (docs/drafts.md#behaviour): core or full changes only what a client sees; uploading a local
 * file by path is stdio-only (not listed over HTTP, refused there), and over HTTP assets arrive as a
 * REST upload. Asset bytes are stored content-addressed in PostgreSQL, never inlined.
 */
import { createHash, randomUUID } from "node:crypto";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import type { Stack } from "@bancada/e2e";
import { createDraftsDb } from "../src/index.js";
import { blobStoreOf, draftsFactory, startDraftsStack, streamBytes } from "./stack.js";
import {
  callOverBus,
  closeAll,
  createDraft,
  expectRestError,
  fails,
  issuePaths,
  mp4,
  ok,
  person,
  png,
  workspace,
  type Asset,
  type Draft,
  type Person,
} from "./helpers.js";

const upload = "sosoapi_add_content_draft_asset";
const tenMiB = 10 * 1024 * 1024;

describe("profiles, transports and assets", () => {
  let stack: Stack;
  let dataDir = "";
  let files: string;
  let ana: Person;
  let vera: Person;
  let outsider: Person;
  let ws: string;

  beforeAll(async () => {
    stack = await startDraftsStack({
      services: {
        drafts: draftsFactory({ worker: { enabled: false } }, (_service, dir) => void (dataDir = dir)),
      },
    });
    files = await mkdtemp(path.join(tmpdir(), "drafts-files-"));
    [ana, vera, outsider] = await Promise.all([person(stack), person(stack), person(stack)]);
    ws = await workspace(ana, [[vera, "viewer"]]);
  });
  afterAll(async () => {
    await closeAll(ana, vera, outsider);
    await stack?.stop();
    await rm(files, { recursive: true, force: true });
  });

  const file = async (name: string, bytes: Uint8Array) => {
    const target = path.join(files, name);
    await writeFile(target, bytes);
    return target;
  };
  const viaStdio = (args: Record<string, unknown>) => callOverBus(stack, ana.key, upload, args, "stdio");
  const uploadArgs = (draft: Draft, filePath: string, revision = draft.revision) => ({
    workspace_id: ws,
    draft_id: draft.id,
    expected_revision: revision,
    request_id: randomUUID(),
    path: filePath,
  });
  const restUpload = (
    who: Person,
    draft: Draft,
    bytes: Uint8Array,
    options: { revision?: number; key?: string; filename?: string; headers?: Record<string, string> } = {},
  ) =>
    who.rest<{ draft: Draft; asset: Asset }>(
      "POST",
      `/v1/workspaces/${ws}/drafts/${draft.id}/assets?filename=${encodeURIComponent(options.filename ?? "foto.png")}`,
      {
        raw: bytes,
        headers: {
          "If-Match": `"${options.revision ?? draft.revision}"`,
          "Idempotency-Key": options.key ?? randomUUID(),
          ...options.headers,
        },
      },
    );

  describe("profiles and transports", () => {
    it("when a full-profile client lists tools over HTTP, then the stdio-only upload is absent; a core client sees list and get only, not the workspace list", async () => {
      const full = (await ana.client.listTools()).tools.map((tool) => tool.name).sort();
      expect(full).toEqual([
        "sosoapi_create_content_draft",
        "sosoapi_get_content_draft",
        "sosoapi_list_content_drafts",
        "sosoapi_list_workspaces",
        "sosoapi_submit_content_draft",
        "sosoapi_update_content_draft",
      ]);
      const core = await person(stack, { personId: ana.personId, profile: "core" });
      expect((await core.client.listTools()).tools.map((tool) => tool.name).sort()).toEqual([
        "sosoapi_get_content_draft",
        "sosoapi_list_content_drafts",
      ]);
      await closeAll(core);
    });

    it("when a core-profile client calls a full-profile tool, then it works: the profile changes what it sees, not what it may do", async () => {
      const core = await person(stack, { personId: ana.personId, profile: "core" });
      const draft = await createDraft(core.client, ws, { caption: "pelo perfil core" });
      expect(draft.created_by).toBe(ana.personId);
      await closeAll(core);
    });

    it("when output schemas are off (the default), then no tool advertises one and results are still structured", async () => {
      const { tools } = await ana.client.listTools();
      expect(tools.every((tool) => tool.outputSchema === undefined)).toBe(true);
      const draft = await createDraft(ana.client, ws);
      expect(draft.id).toMatch(/^[0-9a-f-]{36}$/);
    });

    it("when the stdio-only upload is called over HTTP, then permission_denied naming the transport, and nothing is written", async () => {
      const draft = await createDraft(ana.client, ws);
      const error = await fails(ana.client, upload, uploadArgs(draft, await file("http.png", png())), "permission_denied");
      expect(error.message).toMatch(/only available over stdio/);
      const reply = await callOverBus(stack, ana.key, upload, uploadArgs(draft, await file("http.png", png())), "http");
      expect(reply.ok ? "ok" : reply.error.code).toBe("permission_denied");
      expect((await ok(ana.client, "sosoapi_get_content_draft", { workspace_id: ws, draft_id: draft.id })).draft).toEqual(draft);
    });

    it("when a file is uploaded over the stdio transport, then its bytes are stored content-addressed in PostgreSQL and only metadata comes back", async () => {
      const draft = await createDraft(ana.client, ws);
      const bytes = png(4_096);
      const reply = await viaStdio(uploadArgs(draft, await file("capa.png", bytes)));
      if (!reply.ok) throw new Error(JSON.stringify(reply.error));
      const { asset, draft: after } = reply.result as { asset: Asset; draft: Draft };
      const sha256 = createHash("sha256").update(bytes).digest("hex");
      expect(asset).toMatchObject({ filename: "capa.png", mime: "image/png", bytes: 4_096, sha256 });
      expect(after).toMatchObject({ revision: draft.revision + 1, asset_count: 1, assets: [asset] });
      expect(JSON.stringify(reply.result).length).toBeLessThan(2_000);
      const store = blobStoreOf(stack.database.url);
      try {
        expect(new Uint8Array(await streamBytes(store.open(sha256)))).toEqual(bytes);
      } finally {
        await store.close();
      }
    });

    it("when the path is relative, missing or a folder, then invalid_argument naming path", async () => {
      const draft = await createDraft(ana.client, ws);
      for (const where of ["relative/foto.png", path.join(files, "missing.png"), files]) {
        const reply = await viaStdio(uploadArgs(draft, where));
        expect(reply.ok ? "ok" : [reply.error.code, issuePaths(reply.error)]).toEqual(["invalid_argument", ["path"]]);
      }
    });

    it("when a real MCP client launches the stdio gateway, then it lists the upload tool and adds a local file by path", async () => {
      const draft = await createDraft(ana.client, ws);
      const repoRoot = path.resolve(import.meta.dirname, "../../..");
      const transport = new StdioClientTransport({
        command: process.execPath,
        args: ["--import", "tsx", path.join(import.meta.dirname, "fixtures/stdio-gateway.ts")],
        cwd: repoRoot,
        env: {
          ...(process.env as Record<string, string>),
          STDIO_DATABASE_URL: stack.database.url,
          STDIO_DATA_DIR: dataDir,
          STDIO_API_KEY: ana.key,
        },
        stderr: "ignore",
      });
      const client = new Client({ name: "stdio-test", version: "1.0.0" });
      await client.connect(transport);
      try {
        const names = (await client.listTools()).tools.map((tool) => tool.name);
        expect(names).toContain(upload);
        const result = await client.callTool({ name: upload, arguments: uploadArgs(draft, await file("video.mp4", mp4(2_048))) });
        expect(result.isError).toBeFalsy();
        const { asset } = result.structuredContent as { asset: Asset };
        expect(asset).toMatchObject({ filename: "video.mp4", mime: "video/mp4", bytes: 2_048 });
        const reread = (await ok(ana.client, "sosoapi_get_content_draft", { workspace_id: ws, draft_id: draft.id })).draft;
        expect(reread.assets).toEqual([asset]);
      } finally {
        await client.close();
      }
    }, 60_000);
  });

  describe("assets over REST", () => {
    it("when a file is uploaded over REST, then a viewer downloads the same bytes and an outsider gets 404", async () => {
      const draft = await createDraft(ana.client, ws);
      const bytes = png(1_000);
      const created = await restUpload(ana, draft, bytes, { filename: "relatório de março.png" });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      const { asset } = created.body;
      expect(asset.filename).toBe("relatório de março.png");
      const download = await fetch(`${stack.baseUrl}${asset.content_path}`, { headers: { Authorization: `Bearer ${vera.key}` } });
      expect(download.status).toBe(200);
      expect(download.headers.get("content-type")).toBe("image/png");
      expect(download.headers.get("etag")).toBe(`"${asset.sha256}"`);
      expect(new Uint8Array(await download.arrayBuffer())).toEqual(bytes);
      expectRestError(await outsider.rest("GET", asset.content_path), 404, "not_found");
      expectRestError(await vera.rest("GET", asset.content_path.replace(asset.id, randomUUID())), 404, "not_found");
      expectRestError(await restUpload(vera, created.body.draft, png()), 403, "permission_denied");
    });

    it("when a draft holds 20 assets, then the 21st is refused with invalid_argument, over REST and over stdio", async () => {
      let draft = await createDraft(ana.client, ws);
      for (let i = 0; i < 20; i++) {
        const response = await restUpload(ana, draft, png(100 + i), { filename: `f${i}.png` });
        expect(response.status, JSON.stringify(response.body)).toBe(201);
        draft = response.body.draft;
      }
      expect(draft.asset_count).toBe(20);
      expect(issuePaths(expectRestError(await restUpload(ana, draft, png(99)), 400, "invalid_argument"))).toEqual(["draft_id"]);
      const reply = await viaStdio(uploadArgs(draft, await file("21.png", png(98))));
      expect(reply.ok ? "ok" : reply.error.code).toBe("invalid_argument");
      const { draft: removed } = await ok(ana.client, "sosoapi_update_content_draft", {
        workspace_id: ws,
        draft_id: draft.id,
        expected_revision: draft.revision,
        request_id: randomUUID(),
        remove_asset_ids: [draft.assets[0]!.id],
      });
      expect(removed.asset_count).toBe(19);
      expect((await restUpload(ana, removed, png(97))).status).toBe(201);
    });

    it("when an asset has exactly 10 MiB it is stored; one byte more is payload_too_large (REST, chunked REST and stdio)", async () => {
      const draft = await createDraft(ana.client, ws);
      const limit = png(tenMiB);
      const created = await restUpload(ana, draft, limit);
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      const over = png(tenMiB + 1);
      expectRestError(await restUpload(ana, created.body.draft, over), 413, "payload_too_large");
      const chunked = await fetch(`${stack.baseUrl}/v1/workspaces/${ws}/drafts/${draft.id}/assets?filename=big.png`, {
        method: "POST",
        headers: {
          Authorization: `Bearer ${ana.key}`,
          "Content-Type": "application/octet-stream",
          "If-Match": `"${created.body.draft.revision}"`,
          "Idempotency-Key": randomUUID(),
        },
        body: new Blob([over]).stream(),
        duplex: "half",
      } as RequestInit);
      expect(chunked.status).toBe(413);
      expect(((await chunked.json()) as { error: { code: string } }).error.code).toBe("payload_too_large");
      const reply = await viaStdio(uploadArgs(created.body.draft, await file("big.png", over)));
      expect(reply.ok ? "ok" : reply.error.code).toBe("payload_too_large");
      expect((await ok(ana.client, "sosoapi_get_content_draft", { workspace_id: ws, draft_id: draft.id })).draft.asset_count).toBe(1);
    });

    it("when the bytes are no supported image or video, empty, JSON, or the filename is missing, then invalid_argument", async () => {
      const draft = await createDraft(ana.client, ws);
      const text = new TextEncoder().encode("just some text, not an image");
      expect(issuePaths(expectRestError(await restUpload(ana, draft, text), 400, "invalid_argument"))).toEqual(["body"]);
      expectRestError(await restUpload(ana, draft, new Uint8Array()), 400, "invalid_argument");
      expectRestError(await restUpload(ana, draft, png(), { headers: { "Content-Type": "application/json" } }), 400, "invalid_argument");
      const noName = await ana.rest("POST", `/v1/workspaces/${ws}/drafts/${draft.id}/assets`, {
        raw: png(),
        headers: { "If-Match": '"1"', "Idempotency-Key": randomUUID() },
      });
      expect(issuePaths(expectRestError(noName, 400, "invalid_argument"))).toEqual(["filename"]);
      expectRestError(await restUpload(ana, draft, png(), { revision: 7 }), 409, "conflict");
    });

    it("when an upload is retried with its Idempotency-Key, then one asset; other bytes with the same key are idempotency_conflict", async () => {
      const draft = await createDraft(ana.client, ws);
      const key = randomUUID();
      const first = await restUpload(ana, draft, png(500), { key });
      const again = await restUpload(ana, draft, png(500), { key });
      expect(again.body).toEqual(first.body);
      expectRestError(await restUpload(ana, draft, png(501), { key }), 409, "idempotency_conflict");
      expect((await ok(ana.client, "sosoapi_get_content_draft", { workspace_id: ws, draft_id: draft.id })).draft.asset_count).toBe(1);
    });

    it("when two drafts hold the same file, then its bytes are stored once, and once no asset refers to them they are swept", async () => {
      const [one, two] = [await createDraft(ana.client, ws), await createDraft(ana.client, ws)];
      const bytes = png(777);
      const a = (await restUpload(ana, one, bytes)).body;
      const b = (await restUpload(ana, two, bytes)).body;
      expect(a.asset.sha256).toBe(b.asset.sha256);
      const store = blobStoreOf(stack.database.url);
      const sweep = async () => {
        const db = createDraftsDb(stack.database.url, 1);
        const referenced = async (hashes: string[]) =>
          new Set((await db.asset.findMany({ where: { sha256: { in: hashes } } })).map((x) => x.sha256));
        await store.sweep(referenced, 0);
        await db.$disconnect();
      };
      const remove = (draft: Draft, assetId: string) =>
        ok(ana.client, "sosoapi_update_content_draft", {
          workspace_id: ws,
          draft_id: draft.id,
          expected_revision: draft.revision,
          request_id: randomUUID(),
          remove_asset_ids: [assetId],
        });
      try {
        await remove(a.draft, a.asset.id);
        await sweep();
        expect(await store.size(a.asset.sha256)).toBe(777);
        await remove(b.draft, b.asset.id);
        await sweep();
        expect(await store.size(a.asset.sha256)).toBeNull();
      } finally {
        await store.close();
      }
    });
  });
});
