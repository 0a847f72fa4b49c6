/**
 * The submission worker: any number of them (threads of one replica, replicas) share the queue in
 * Postgres. Each slot claims a job, renews its lease while it works, reviews the draft and finishes the
 * job in one transaction (finish-submission.ts). A failed attempt gives the job back with a delay; after
 * `maxAttempts` claims (a job that keeps killing its workers, say) the draft goes back to `draft` with a
 * submit_error instead of being retried for ever. Idle slots poll, and a local submit wakes them at once.
 */
import { hostname } from "node:os";
import { randomUUID } from "node:crypto";
import type { Logger } from "@bancada/service-kit";
import type { BlobStore } from "../assets/blob-store.js";
import type { DraftsDb } from "../db/client.js";
import { readDraft } from "../domain/draft-view.js";
import { reviewSubmission } from "../domain/review-submission.js";
import { finishSubmission, type Verdict } from "./finish-submission.js";
import { claimNext, releaseForRetry, renewLease, type ClaimedJob } from "./submission-queue.js";

export interface WorkerSettings {
  /** Identifies this worker in leases; unique per process by default. */
  id: string;
  concurrency: number;
  leaseMs: number;
  pollMs: number;
  maxAttempts: number;
  /** Seams for crash tests: awaited right after a claim, and inside the finishing transaction before it commits. */
  hooks: { afterClaim?: (job: ClaimedJob) => Promise<void>; beforeCommit?: (job: ClaimedJob) => Promise<void> };
}

export const defaultWorkerSettings = (): WorkerSettings => ({
  id: `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`,
  concurrency: 2,
  leaseMs: 30_000,
  pollMs: 1_000,
  maxAttempts: 5,
  hooks: {},
});

export interface SubmissionWorker {
  readonly id: string;
  /** Wakes idle slots: there may be work. */
  kick(): void;
  /** Stops claiming; the jobs in hand finish first. */
  stop(): Promise<void>;
}

export interface WorkerDeps {
  db: DraftsDb;
  blobs: BlobStore;
  log: Logger;
  /** Called after a job finished (the event relay has something to publish). */
  onFinished?: () => void;
}

export function startSubmissionWorker(deps: WorkerDeps, settings: WorkerSettings): SubmissionWorker {
  const log = deps.log.child({ worker: settings.id });
  const sleepers = new Set<() => void>();
  let stopping = false;
  const kick = () => sleepers.forEach((wake) => wake());
  const idle = () =>
    new Promise<void>((resolve) => {
      const wake = () => {
        clearTimeout(timer);
        sleepers.delete(wake);
        resolve();
      };
      const timer = setTimeout(wake, settings.pollMs);
      sleepers.add(wake);
    });

  async function slot(): Promise<void> {
    while (!stopping) {
      const job = await claimNext(deps.db, settings.id, settings.leaseMs).catch((error: unknown) => {
        log.warn({ err: error }, "claiming a submission failed");
        return null;
      });
      if (job) await attempt(job);
      else await idle();
    }
  }

  async function attempt(job: ClaimedJob): Promise<void> {
    const heartbeat = setInterval(
      () => {
        renewLease(deps.db, job, settings.leaseMs).then(
          (held) => held || log.warn({ job: job.id }, "lost the claim on a submission; another worker has it"),
          (error: unknown) => log.warn({ err: error, job: job.id }, "renewing a lease failed"),
        );
      },
      Math.max(100, Math.floor(settings.leaseMs / 3)),
    );
    try {
      await settings.hooks.afterClaim?.(job);
      const verdict = await decide(job);
      const outcome = await finishSubmission(deps.db, job, verdict, settings.hooks.beforeCommit);
      log.info({ job: job.id, draft: job.draftId, attempts: job.attempts, outcome }, "submission finished");
      if (outcome === "submitted" || outcome === "refused") deps.onFinished?.();
    } catch (error) {
      const delayMs = Math.min(60_000, 1_000 * 2 ** (job.attempts - 1));
      log.warn({ err: error, job: job.id, attempts: job.attempts, delayMs }, "submission attempt failed; it will be retried");
      await releaseForRetry(deps.db, job, delayMs, String((error as Error)?.message ?? error)).catch(() => {});
    } finally {
      clearInterval(heartbeat);
    }
  }

  async function decide(job: ClaimedJob): Promise<Verdict> {
    if (job.attempts > settings.maxAttempts) {
      return {
        kind: "abandoned",
        reason: `The submission could not be processed after ${settings.maxAttempts} attempts; submit it again.`,
      };
    }
    const draft = await readDraft(deps.db, job.workspaceId, job.draftId);
    if (!draft) return { kind: "abandoned", reason: "The draft is gone." };
    const assets = await Promise.all(
      draft.assets.map(async (asset) => ({
        filename: asset.filename,
        mime: asset.mime,
        bytes: asset.bytes,
        storedBytes: await deps.blobs.size(asset.sha256),
      })),
    );
    const problems = reviewSubmission({ caption: draft.caption, accountIds: draft.account_ids, assets });
    return problems.length ? { kind: "refused", problems } : { kind: "accepted" };
  }

  const slots = Array.from({ length: settings.concurrency }, () => slot());
  log.debug({ concurrency: settings.concurrency }, "submission worker started");
  return {
    id: settings.id,
    kick,
    async stop() {
      stopping = true;
      kick();
      await Promise.all(slots);
    },
  };
}
