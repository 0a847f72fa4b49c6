/**
 * Moving the asset files an earlier version kept on disk into PostgreSQL at start: every file goes in (checked
 * against its name) and leaves the disk, a file already moved by an interrupted run is only deleted, a file whose
 * bytes do not match its name stays on disk and is named in the log, and afterwards the assets are served from
 * PostgreSQL with the folder gone. A second start has nothing to move.
 */
import { createHash, randomUUID } from "node:crypto";
import { mkdir, mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { captureLogs, startReplica, type Stack } from "@bancada/e2e";
import { chunkBytes, createDiskBlobStore, createDraftsDb, limits, type DraftsDb, type DraftsService } from "../src/index.js";
import { blobStoreOf, draftsFactory, startDraftsStack, streamBytes } from "./stack.js";
import { closeAll, createDraft, expectRestError, mp4, person, png, workspace, type Asset, type Draft, type Person } from "./helpers.js";

const sha256 = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");

describe("moving asset files from disk into PostgreSQL", () => {
  let stack: Stack;
  let db: DraftsDb;
  let dataDir: string;
  /** The instance started last: the stack's own app keeps the routes of the first one. */
  let latest: DraftsService;
  let ana: Person;
  let ws: string;
  const logs = captureLogs("info");
  const files = { big: png(2 * chunkBytes + 777), video: mp4(10_000), kept: png(3_000), other: png(5_000) };
  const assets = new Map<keyof typeof files, Asset>();
  const corrupt = "ab".padEnd(64, "0");

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), "drafts-legacy-"));
    stack = await startDraftsStack({
      services: { drafts: draftsFactory({ dataDir, worker: { enabled: false } }, (service) => void (latest = service)) },
      log: logs.log,
    });
    db = createDraftsDb(stack.database.url, 2);
    ana = await person(stack);
    ws = await workspace(ana);
    let draft: Draft = await createDraft(ana.client, ws);
    for (const [name, bytes] of Object.entries(files) as [keyof typeof files, Uint8Array][]) {
      const uploaded = await ana.rest<{ asset: Asset; draft: Draft }>(
        "POST",
        `/v1/workspaces/${ws}/drafts/${draft.id}/assets?filename=${name}`,
        { raw: bytes, headers: { "If-Match": `"${draft.revision}"`, "Idempotency-Key": randomUUID() } },
      );
      expect(uploaded.status, JSON.stringify(uploaded.body)).toBe(201);
      assets.set(name, uploaded.body.asset);
      draft = uploaded.body.draft;
    }
    // The store as an earlier version left it: every file on disk, none in PostgreSQL but `kept` (moved by a run
    // that was interrupted before deleting its file), a file whose bytes do not match its name, an upload's leftover.
    const disk = await createDiskBlobStore(dataDir, limits.assetBytesMax);
    for (const bytes of Object.values(files)) await disk.put(Readable.from([Buffer.from(bytes)]), "file");
    await mkdir(path.join(dataDir, "sha256", "ab"), { recursive: true });
    await writeFile(path.join(dataDir, "sha256", "ab", corrupt), png(100));
    await writeFile(path.join(dataDir, "tmp", randomUUID()), "half an upload");
    const kept = assets.get("kept")!.sha256;
    await db.$executeRaw`DELETE FROM blob_chunks WHERE blob_id IN (SELECT id FROM blobs WHERE sha256 <> ${kept})`;
    await db.$executeRaw`DELETE FROM blobs WHERE sha256 <> ${kept}`;
  });
  afterAll(async () => {
    await closeAll(ana);
    await db?.$disconnect();
    await stack?.stop();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  /** Through the routes of the instance started last. */
  const download = async (asset: Asset) => {
    const restarted = await startReplica(stack, "drafts", async () => ({ routes: latest.routes, stop: async () => {} }));
    try {
      const response = await fetch(`${restarted.baseUrl}${asset.content_path}`, { headers: { Authorization: `Bearer ${ana.key}` } });
      return { status: response.status, bytes: new Uint8Array(await response.arrayBuffer()) };
    } finally {
      await restarted.stop();
    }
  };
  const migrationLines = () => logs.lines().filter((line) => /asset files/.test(String(line.msg)));

  it("when the bytes are only on disk, then this version does not serve them (not_found, saying what to do)", async () => {
    const response = await ana.rest("GET", assets.get("big")!.content_path);
    expect(expectRestError(response, 404, "not_found").message).toMatch(/missing from storage; remove the asset and add the file again/);
  });

  it("when the service restarts, then every file moves into PostgreSQL and leaves the disk, and the move is logged", async () => {
    await stack.stopService("drafts");
    await stack.startService("drafts");
    const lines = migrationLines();
    expect(lines[0]).toMatchObject({ msg: "moving asset files from disk into PostgreSQL", files: 5 });
    expect(lines.at(-1)).toMatchObject({ found: 5, moved: 3, alreadyStored: 1, failed: 1 });
    expect(logs.lines().some((line) => line.file === path.join(dataDir, "sha256", "ab", corrupt))).toBe(true);
    // only the file that could not be moved is left, where it was
    expect(await readdir(dataDir)).toEqual(["sha256"]);
    expect(await readdir(path.join(dataDir, "sha256"))).toEqual(["ab"]);
    expect(await readdir(path.join(dataDir, "sha256", "ab"))).toEqual([corrupt]);
    const store = blobStoreOf(stack.database.url);
    try {
      for (const [name, bytes] of Object.entries(files)) {
        const stored = await streamBytes(store.open(sha256(bytes)));
        expect([name, sha256(stored)]).toEqual([name, sha256(bytes)]);
      }
    } finally {
      await store.close();
    }
  });

  it("when the folder is gone, then every asset is served from PostgreSQL byte for byte, and a new start has nothing to move", async () => {
    await rm(dataDir, { recursive: true, force: true });
    for (const [name, bytes] of Object.entries(files) as [keyof typeof files, Uint8Array][]) {
      const got = await download(assets.get(name)!);
      expect([name, got.status, got.bytes.length, sha256(got.bytes)]).toEqual([name, 200, bytes.length, sha256(bytes)]);
    }
    const before = migrationLines().length;
    await stack.stopService("drafts");
    await stack.startService("drafts");
    expect(migrationLines()).toHaveLength(before);
    const again = await download(assets.get("video")!);
    expect(sha256(again.bytes)).toBe(sha256(files.video));
  });
});
