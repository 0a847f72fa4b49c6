/**
 * Two replicas of drafts on one database and bus: asset bytes live in PostgreSQL, so a file uploaded through one
 * replica downloads byte for byte through the other (multi-chunk, streamed), and the submission queue, claimed in
 * the database, submits every draft exactly once even when a replica is SIGKILLed inside a finishing transaction.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { createHash, randomUUID } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { createInterface } from "node:readline";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startReplica, type Replica, type Stack } from "@bancada/e2e";
import { chunkBytes, createDraftsDb, createDraftsService, type DraftsDb } from "../src/index.js";
import { draftsFactory, startDraftsStack } from "./stack.js";
import {
  closeAll,
  createDraft,
  eventually,
  expectRestError,
  mp4,
  ok,
  person,
  png,
  restClient,
  workspace,
  type Asset,
  type Draft,
  type Person,
  type Rest,
} from "./helpers.js";

const sha256 = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");

describe("two drafts replicas", () => {
  let stack: Stack;
  let replicaB: Replica;
  let legacyB: string;
  let db: DraftsDb;
  let ana: Person;
  let outsider: Person;
  let anaOnB: Rest;
  let outsiderOnB: Rest;
  let ws: string;
  /** Released once the killed replica holds a submission: until then replica A's worker keeps its jobs in hand. */
  let releaseA!: () => void;
  const aMayFinish = new Promise<void>((resolve) => (releaseA = resolve));

  beforeAll(async () => {
    stack = await startDraftsStack({
      services: { drafts: draftsFactory({ worker: { concurrency: 2, pollMs: 100, hooks: { afterClaim: () => aMayFinish } } }) },
    });
    legacyB = await mkdtemp(path.join(tmpdir(), "drafts-replica-b-"));
    replicaB = await startReplica(stack, "drafts", async (deps) => {
      const service = await createDraftsService({ ...deps, dataDir: legacyB, worker: { enabled: false } });
      return { routes: service.routes, stop: () => service.stop() };
    });
    db = createDraftsDb(stack.database.url, 2);
    [ana, outsider] = await Promise.all([person(stack), person(stack, { accountId: "acct-other" })]);
    anaOnB = restClient(replicaB.baseUrl, ana.key);
    outsiderOnB = restClient(replicaB.baseUrl, outsider.key);
    ws = await workspace(ana);
  });
  afterAll(async () => {
    releaseA();
    await closeAll(ana, outsider);
    await db?.$disconnect();
    await replicaB?.stop();
    await stack?.stop();
    if (legacyB) await rm(legacyB, { recursive: true, force: true });
  });

  const uploadTo = async (rest: Rest, draft: Draft, bytes: Uint8Array, filename: string) => {
    const uploaded = await rest<{ asset: Asset; draft: Draft }>(
      "POST",
      `/v1/workspaces/${ws}/drafts/${draft.id}/assets?filename=${filename}`,
      { raw: bytes, headers: { "If-Match": `"${draft.revision}"`, "Idempotency-Key": randomUUID() } },
    );
    expect(uploaded.status, JSON.stringify(uploaded.body)).toBe(201);
    return uploaded.body;
  };
  /** The raw download: status, headers and every byte. */
  const download = async (baseUrl: string, key: string, asset: Asset) => {
    const response = await fetch(`${baseUrl}${asset.content_path}`, { headers: { Authorization: `Bearer ${key}` } });
    return { status: response.status, length: response.headers.get("content-length"), bytes: new Uint8Array(await response.arrayBuffer()) };
  };

  it("when a 5 MiB video is uploaded through replica A, then replica B serves it byte for byte, several downloads at once; and the reverse", async () => {
    const draft = await createDraft(ana.client, ws);
    const video = mp4(5 * 1024 * 1024 + 12_345);
    expect(video.length / chunkBytes).toBeGreaterThan(20);
    const first = await uploadTo(ana.rest, draft, video, "video.mp4");
    expect(first.asset).toMatchObject({ bytes: video.length, sha256: sha256(video), mime: "video/mp4" });
    const downloads = await Promise.all([1, 2, 3].map(() => download(replicaB.baseUrl, ana.key, first.asset)));
    for (const got of downloads) {
      expect(got.status).toBe(200);
      expect(got.length).toBe(String(video.length));
      expect(got.bytes.length).toBe(video.length);
      expect(sha256(got.bytes)).toBe(sha256(video));
    }

    const photo = png(3 * chunkBytes); // exactly three chunks, no short last one
    const second = await uploadTo(anaOnB, first.draft, photo, "foto.png");
    const back = await download(stack.baseUrl, ana.key, second.asset);
    expect([back.status, back.bytes.length, sha256(back.bytes)]).toEqual([200, photo.length, sha256(photo)]);
    const read = await ok(ana.client, "sosoapi_get_content_draft", { workspace_id: ws, draft_id: draft.id });
    expect(read.draft.assets.map((asset) => asset.sha256)).toEqual([sha256(video), sha256(photo)]);
  });

  it("when another account asks replica B for the asset or uploads to the draft, then not_found: a replica knows no more than the other", async () => {
    const draft = await createDraft(ana.client, ws);
    const { asset } = await uploadTo(ana.rest, draft, png(1_000), "capa.png");
    expectRestError(await outsiderOnB("GET", asset.content_path), 404, "not_found");
    const refused = await outsiderOnB("POST", `/v1/workspaces/${ws}/drafts/${draft.id}/assets?filename=x.png`, {
      raw: png(),
      headers: { "If-Match": `"2"`, "Idempotency-Key": randomUUID() },
    });
    expectRestError(refused, 404, "not_found");
  });

  it("when a replica is SIGKILLed inside the transaction that finishes a submission, then every draft is submitted exactly once", async () => {
    const root = stack.subjects.call("drafts").replace(/\.drafts\.call$/, "");
    const child = spawnReplica(root);
    const lines = watchLines(child);
    try {
      await lines.until("ready");
      const drafts = await Promise.all(
        Array.from({ length: 8 }, () => createDraft(ana.client, ws, { caption: "Promoção de verão", account_ids: ["facebook:acme"] })),
      );
      for (const draft of drafts) {
        await ok(ana.client, "sosoapi_submit_content_draft", {
          workspace_id: ws,
          draft_id: draft.id,
          expected_revision: draft.revision,
          request_id: randomUUID(),
        });
      }
      // Replica A's two slots hold their jobs; the killed replica's one slot takes a third and stops before its commit.
      const held = await lines.until("committing");
      const [inside] = await db.$queryRaw<{ owner: string | null }[]>`
        SELECT lease_owner AS owner FROM submission_jobs WHERE id = ${held.job as string}::uuid`;
      expect(inside?.owner).toMatch(/^killed-replica#/);
      await new Promise((resolve) => (child.once("exit", resolve), child.kill("SIGKILL")));
      releaseA();

      const ids = drafts.map((draft) => draft.id);
      await eventually(
        async () => {
          const [row] = await db.$queryRaw<{ left: number }[]>`
            SELECT count(*)::int AS left FROM drafts WHERE id = ANY(${ids}::uuid[]) AND state <> 'submitted'`;
          return row!.left === 0 ? true : undefined;
        },
        60_000,
        "every draft to be submitted",
      );
      const events = await db.$queryRaw<{ draft: string; type: string; n: number }[]>`
        SELECT draft_id::text AS draft, type, count(*)::int AS n FROM events WHERE draft_id = ANY(${ids}::uuid[]) GROUP BY 1, 2`;
      expect(events.map(({ type, n }) => `${type} ${n}`)).toEqual(ids.map(() => "draft.submitted 1"));
      expect(new Set(events.map((event) => event.draft))).toEqual(new Set(ids));
      const jobs = await db.$queryRaw<{ id: string; attempts: number; outcome: string | null; lease_owner: string | null }[]>`
        SELECT id::text, attempts, outcome, lease_owner FROM submission_jobs WHERE draft_id = ANY(${ids}::uuid[])`;
      expect(jobs).toHaveLength(ids.length);
      expect(jobs.every((job) => job.outcome === "submitted" && job.lease_owner === null)).toBe(true);
      // the killed replica's job was claimed again once its lease ran out: the only job with a second attempt
      expect(jobs.filter((job) => job.attempts > 1).map((job) => job.id)).toEqual([held.job]);
      for (const draft of drafts) {
        const final = await ok(ana.client, "sosoapi_get_content_draft", { workspace_id: ws, draft_id: draft.id });
        expect(final.draft).toMatchObject({ state: "submitted", revision: draft.revision + 2 });
      }
    } finally {
      child.kill("SIGKILL");
    }
  }, 120_000);

  function spawnReplica(root: string): ChildProcess {
    return spawn(process.execPath, ["--import", "tsx", path.join(import.meta.dirname, "fixtures/replica-process.ts")], {
      cwd: path.resolve(import.meta.dirname, "../../.."),
      env: {
        ...process.env,
        REPLICA_DATABASE_URL: stack.database.url,
        REPLICA_SUBJECTS_ROOT: root,
        REPLICA_WORKER_ID: "killed-replica",
        // its heartbeats wait on the job row its own paused transaction holds: a lease long enough for its pool to last the test
        REPLICA_LEASE_MS: "6000",
      },
      stdio: ["ignore", "pipe", "inherit"],
    });
  }
});

/** The child's JSON lines from its start on, so that a line printed before anyone waits for it is not missed. */
function watchLines(child: ChildProcess): { until(event: string): Promise<Record<string, unknown>> } {
  const seen: Record<string, unknown>[] = [];
  const waiting = new Set<() => void>();
  createInterface({ input: child.stdout! }).on("line", (line) => {
    seen.push(JSON.parse(line) as Record<string, unknown>);
    waiting.forEach((check) => check());
  });
  return {
    until: (event) =>
      new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no '${event}' line from the replica`)), 60_000);
        const check = () => {
          const found = seen.find((line) => line.event === event);
          if (!found) return;
          clearTimeout(timer);
          waiting.delete(check);
          resolve(found);
        };
        waiting.add(check);
        check();
        child.once("exit", () => reject(new Error(`the replica exited before '${event}'`)));
      }),
  };
}
