/**
 * The submission pipeline: durable, crash-safe, exactly once. Submit answers `submitting` at once; a
 * worker decides and the final state is read back. Workers share a Postgres queue (FOR UPDATE SKIP
 * LOCKED + leases): several workers never submit one draft twice, a worker SIGKILLed after its claim or
 * inside its finishing transaction is replaced (by a new worker) once its lease runs out, and its draft is submitted once.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { randomUUID } from "node:crypto";
import path from "node:path";
import { createInterface } from "node:readline";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createLogger } from "@bancada/service-kit";
import type { Stack } from "@bancada/e2e";
import {
  createDraftsDb,
  createPgBlobStore,
  defaultWorkerSettings,
  eventIdHeader,
  limits,
  startSubmissionWorker,
  type BlobStore,
  type DraftsDb,
  type SubmissionWorker,
  type WorkerSettings,
} from "../src/index.js";
import { draftsFactory, startDraftsStack } from "./stack.js";
import { closeAll, createDraft, eventually, ok, person, png, workspace, type Draft, type Person } from "./helpers.js";

interface JobRow {
  attempts: number;
  outcome: string | null;
  finished: boolean;
  lease_owner: string | null;
}

describe("submission pipeline", () => {
  let stack: Stack;
  let db: DraftsDb;
  let ana: Person;
  let ws: string;
  const workers: SubmissionWorker[] = [];
  const stores: BlobStore[] = [];
  const heard: { subject: string; id: string; draft: string }[] = [];

  beforeAll(async () => {
    // No worker in the service: each test runs the workers it needs.
    stack = await startDraftsStack({
      services: { drafts: draftsFactory({ worker: { enabled: false, pollMs: 50 } }) },
    });
    db = createDraftsDb(stack.database.url, 4);
    ana = await person(stack);
    ws = await workspace(ana);
    for (const type of ["draft.submitted", "draft.submission_refused"]) {
      const subject = `${stack.subjects.queue("drafts")}.events.${type}`;
      stack.bus.subscribe(subject, (message) => {
        const payload = JSON.parse(new TextDecoder().decode(message.data)) as { draft_id: string };
        heard.push({ subject: type, id: message.headers[eventIdHeader] ?? "", draft: payload.draft_id });
      });
    }
  });
  afterAll(async () => {
    await Promise.all(workers.map((worker) => worker.stop()));
    await Promise.all(stores.map((store) => store.close()));
    await closeAll(ana);
    await db?.$disconnect();
    await stack?.stop();
  });

  const startWorker = async (settings: Partial<WorkerSettings> = {}) => {
    const blobs = createPgBlobStore({ connectionString: stack.database.url, schema: "drafts", maxBytes: limits.assetBytesMax, poolMax: 2 });
    stores.push(blobs);
    const worker = startSubmissionWorker(
      { db, blobs, log: createLogger("worker", (process.env.LOG_LEVEL as "info" | undefined) ?? "silent", 2) },
      { ...defaultWorkerSettings(), pollMs: 50, ...settings },
    );
    workers.push(worker);
    return worker;
  };
  const get = async (id: string) => (await ok(ana.client, "sosoapi_get_content_draft", { workspace_id: ws, draft_id: id })).draft;
  const submit = async (draft: Draft) =>
    (
      await ok(ana.client, "sosoapi_submit_content_draft", {
        workspace_id: ws,
        draft_id: draft.id,
        expected_revision: draft.revision,
        request_id: randomUUID(),
      })
    ).draft;
  /** Waits (watching the database, cheaply) until the draft leaves `submitting`, then reads it back through MCP. */
  const settled = async (id: string) => {
    await eventually(
      async () => {
        const [row] = await db.$queryRaw<{ state: string }[]>`SELECT state::text FROM drafts WHERE id = ${id}::uuid`;
        return row?.state === "submitting" ? undefined : true;
      },
      30_000,
      `draft ${id} to leave submitting`,
    );
    return get(id);
  };
  const jobOf = async (draftId: string): Promise<JobRow> => {
    const [job] = await db.$queryRaw<JobRow[]>`
      SELECT attempts, outcome, finished_at IS NOT NULL AS finished, lease_owner FROM submission_jobs WHERE draft_id = ${draftId}::uuid ORDER BY created_at DESC LIMIT 1`;
    return job!;
  };
  const eventsOf = async (draftId: string) =>
    db.$queryRaw<{ id: string; type: string }[]>`SELECT id::text, type FROM events WHERE draft_id = ${draftId}::uuid ORDER BY created_at`;
  const ready = (accounts = ["facebook:acme"]) => createDraft(ana.client, ws, { caption: "Lançamento na sexta!", account_ids: accounts });

  it("when a draft is submitted, then the call answers submitting at once, and a worker later makes it submitted and publishes one event", async () => {
    const draft = await ready();
    const accepted = await submit(draft);
    expect(accepted).toMatchObject({ state: "submitting", revision: 2, submitted_at: null });
    await startWorker();
    const final = await settled(draft.id);
    expect(final).toMatchObject({ state: "submitted", revision: 3, submit_error: null });
    expect(Date.parse(final.submitted_at!)).toBeGreaterThan(Date.parse(draft.created_at) - 1);
    const events = await eventsOf(draft.id);
    expect(events.map((event) => event.type)).toEqual(["draft.submitted"]);
    await eventually(async () => (heard.some((h) => h.draft === draft.id) ? true : undefined), 10_000, "the event on the bus");
    expect(heard.filter((h) => h.draft === draft.id)).toEqual([{ subject: "draft.submitted", id: events[0]!.id, draft: draft.id }]);
  });

  it("when a draft cannot go out, then it returns to draft with submit_error saying why, and can be fixed and submitted again", async () => {
    const empty = await createDraft(ana.client, ws);
    const tooLongForX = await ready(["x:acme", "myspace:acme"]);
    const words = await createDraft(ana.client, ws, { caption: "a".repeat(300), account_ids: ["x:acme", "tiktok:acme"] });
    const [a, b, c] = [await submit(empty), await submit(tooLongForX), await submit(words)];
    const refused = await Promise.all([a, b, c].map((draft) => settled(draft.id)));
    expect(refused.map((draft) => draft.state)).toEqual(["draft", "draft", "draft"]);
    expect(refused[0]!.submit_error).toMatch(/neither a caption nor assets.*no social account/);
    expect(refused[1]!.submit_error).toMatch(/'myspace' is not supported/);
    expect(refused[2]!.submit_error).toMatch(
      /X takes at most 280 characters; the caption has 300.*TikTok needs at least one image or video/,
    );
    expect((await eventsOf(words.id)).map((event) => event.type)).toEqual(["draft.submission_refused"]);

    const fixed = (
      await ok(ana.client, "sosoapi_update_content_draft", {
        workspace_id: ws,
        draft_id: words.id,
        expected_revision: refused[2]!.revision,
        request_id: randomUUID(),
        caption: "curto",
        account_ids: ["instagram:acme"],
      })
    ).draft;
    const withPhoto = await ana.rest<{ draft: Draft }>("POST", `/v1/workspaces/${ws}/drafts/${words.id}/assets?filename=foto.png`, {
      raw: png(),
      headers: { "If-Match": `"${fixed.revision}"`, "Idempotency-Key": randomUUID() },
    });
    expect((await submit(withPhoto.body.draft)).submit_error).toBeNull();
    expect(await settled(words.id)).toMatchObject({ state: "submitted", submit_error: null });
  });

  it("when four workers share 20 submissions, then each draft is submitted exactly once", async () => {
    await Promise.all([startWorker({ concurrency: 3 }), startWorker({ concurrency: 3 }), startWorker({ concurrency: 3 })]);
    const drafts = await Promise.all(Array.from({ length: 20 }, () => ready()));
    await Promise.all(drafts.map(submit));
    const final = await Promise.all(drafts.map((draft) => settled(draft.id)));
    expect(final.every((draft) => draft.state === "submitted" && draft.revision === 3)).toBe(true);
    for (const draft of drafts) {
      expect((await eventsOf(draft.id)).map((event) => event.type)).toEqual(["draft.submitted"]);
      expect(await jobOf(draft.id)).toMatchObject({ attempts: 1, outcome: "submitted", finished: true, lease_owner: null });
    }
  });

  describe("crashes and lost claims", () => {
    // Each test runs only the workers it starts.
    beforeEach(async () => {
      await Promise.all(workers.splice(0).map((worker) => worker.stop()));
    });

    it("when a worker loses its claim (lease ran out) and another finishes the job, then the first one's late finish changes nothing", async () => {
      let release!: () => void;
      const gate = new Promise<void>((resolve) => (release = resolve));
      let claimed!: (jobId: string) => void;
      const claim = new Promise<string>((resolve) => (claimed = resolve));
      // A lease far longer than the test, so its heartbeats cannot undo the simulated expiry; one slot, so that
      // it cannot re-claim the expired job itself (the next test covers that).
      const stalled = await startWorker({
        id: "stalled",
        concurrency: 1,
        leaseMs: 600_000,
        hooks: { afterClaim: async (job) => (claimed(job.id), gate) },
      });
      try {
        const draft = await ready();
        await submit(draft);
        const jobId = await claim;
        // A partition: the stalled worker's heartbeats stop reaching the database, so its lease runs out.
        await db.$executeRaw`UPDATE submission_jobs SET lease_expires_at = now() - interval '1 second' WHERE id = ${jobId}::uuid`;
        const rescuer = await startWorker({ id: "rescuer" });
        expect(await settled(draft.id)).toMatchObject({ state: "submitted", revision: 3 });
        await rescuer.stop();
        release();
        await stalled.stop();
        expect(await get(draft.id)).toMatchObject({ state: "submitted", revision: 3 });
        expect(await eventsOf(draft.id)).toHaveLength(1);
        expect(await jobOf(draft.id)).toMatchObject({ attempts: 2, outcome: "submitted", finished: true });
      } finally {
        release();
      }
    });

    it("when a worker's other slot re-claims its own expired job, then the stale slot is fenced off by its claim token", async () => {
      let release!: () => void;
      const gate = new Promise<void>((resolve) => (release = resolve));
      let claims = 0;
      let firstClaimed!: (jobId: string) => void;
      const first = new Promise<string>((resolve) => (firstClaimed = resolve));
      const worker = await startWorker({
        id: "two-slots",
        concurrency: 2,
        leaseMs: 600_000,
        hooks: {
          afterClaim: async (job) => {
            if (claims++ > 0) return;
            firstClaimed(job.id);
            await gate;
          },
        },
      });
      try {
        const draft = await ready();
        await submit(draft);
        const jobId = await first;
        await db.$executeRaw`UPDATE submission_jobs SET lease_expires_at = now() - interval '1 second' WHERE id = ${jobId}::uuid`;
        expect(await settled(draft.id)).toMatchObject({ state: "submitted", revision: 3 });
        release();
        await worker.stop();
        expect(await eventsOf(draft.id)).toHaveLength(1);
        expect(await jobOf(draft.id)).toMatchObject({ attempts: 2, outcome: "submitted", finished: true });
        expect(await get(draft.id)).toMatchObject({ state: "submitted", revision: 3 });
      } finally {
        release();
      }
    });

    it("when an attempt fails, then the job is given back and retried; after maxAttempts the draft returns with submit_error", async () => {
      let failures = 0;
      const flaky = await startWorker({
        hooks: {
          afterClaim: async () => {
            if (failures++ < 1) throw new Error("disk hiccup");
          },
        },
      });
      const draft = await ready();
      await submit(draft);
      expect(await settled(draft.id)).toMatchObject({ state: "submitted" });
      expect(await jobOf(draft.id)).toMatchObject({ attempts: 2, outcome: "submitted" });
      await flaky.stop();

      const doomed = await ready();
      await submit(doomed);
      await db.$executeRaw`UPDATE submission_jobs SET attempts = 5 WHERE draft_id = ${doomed.id}::uuid`;
      const worker = await startWorker({ maxAttempts: 5 });
      expect(await settled(doomed.id)).toMatchObject({ state: "draft", submit_error: expect.stringMatching(/after 5 attempts/) });
      expect(await jobOf(doomed.id)).toMatchObject({ attempts: 6, outcome: "abandoned" });
      await worker.stop();
    });

    it("when worker processes are SIGKILLed right after a claim and inside the finishing transaction, then a new worker submits each draft exactly once", async () => {
      const drafts = [await ready(), await ready()];
      const accepted = await Promise.all(drafts.map(submit));
      const children = {
        "after-claim": spawnWorker("doomed-after-claim", "after-claim"),
        "before-commit": spawnWorker("doomed-before-commit", "before-commit"),
      };
      try {
        // Each child takes one of the two jobs and stops where told: holding the claim, or inside the uncommitted transaction.
        const stops = await Promise.all([
          untilLine(children["after-claim"], "claimed"),
          untilLine(children["before-commit"], "committing"),
        ]);
        expect(new Set(stops.map((line) => line.job)).size).toBe(2);
        await Promise.all(
          Object.values(children).map((child) => new Promise((resolve) => (child.once("exit", resolve), child.kill("SIGKILL")))),
        );
        for (const [i, draft] of drafts.entries()) {
          expect(await get(draft.id)).toMatchObject({ state: "submitting", revision: accepted[i]!.revision });
          expect(await jobOf(draft.id)).toMatchObject({ attempts: 1, finished: false, lease_owner: expect.stringMatching(/^doomed-/) });
          expect(await eventsOf(draft.id)).toEqual([]);
        }

        await startWorker({ id: "after-the-crash" });
        for (const [i, draft] of drafts.entries()) {
          expect(await settled(draft.id)).toMatchObject({ state: "submitted", revision: accepted[i]!.revision + 1 });
          expect(await jobOf(draft.id)).toMatchObject({ attempts: 2, outcome: "submitted", finished: true, lease_owner: null });
          expect((await eventsOf(draft.id)).map((event) => event.type)).toEqual(["draft.submitted"]);
        }
      } finally {
        Object.values(children).forEach((child) => child.kill("SIGKILL"));
      }
    }, 90_000);
  });

  function spawnWorker(id: string, pause: "after-claim" | "before-commit"): ChildProcess {
    return spawn(process.execPath, ["--import", "tsx", path.join(import.meta.dirname, "fixtures/worker-process.ts")], {
      cwd: path.resolve(import.meta.dirname, "../../.."),
      env: {
        ...process.env,
        WORKER_DATABASE_URL: stack.database.url,
        WORKER_ID: id,
        WORKER_LEASE_MS: "1500",
        WORKER_PAUSE: pause,
      },
      stdio: ["ignore", "pipe", "inherit"],
    });
  }
});

/** Resolves with the child's JSON line whose event is `event`. */
function untilLine(child: ChildProcess, event: string): Promise<Record<string, unknown>> {
  return new Promise((resolve, reject) => {
    const lines = createInterface({ input: child.stdout! });
    const timer = setTimeout(() => reject(new Error(`no '${event}' line from the worker`)), 30_000);
    lines.on("line", (line) => {
      const parsed = JSON.parse(line) as Record<string, unknown>;
      if (parsed.event === event) {
        clearTimeout(timer);
        resolve(parsed);
      }
    });
    child.once("exit", () => reject(new Error(`worker exited before '${event}'`)));
  });
}
