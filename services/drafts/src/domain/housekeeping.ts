/** Hourly upkeep: expired idempotency records, old finished jobs and published events, orphaned blobs. */
import type { BlobStore } from "../assets/blob-store.js";
import type { DraftsDb } from "../db/client.js";
import { retention } from "./limits.js";

export async function housekeeping(db: DraftsDb, blobs: BlobStore, now = Date.now()): Promise<Record<string, number>> {
  const before = (ms: number) => new Date(now - ms);
  const requests = await db.writeRequest.deleteMany({ where: { createdAt: { lt: before(retention.requestsMs) } } });
  const jobs = await db.submissionJob.deleteMany({ where: { finishedAt: { lt: before(retention.finishedJobsMs) } } });
  const events = await db.event.deleteMany({ where: { publishedAt: { lt: before(retention.publishedEventsMs) } } });
  const removedBlobs = await blobs.sweep(async (hashes) => {
    const used = await db.asset.findMany({ where: { sha256: { in: hashes } }, select: { sha256: true }, distinct: ["sha256"] });
    return new Set(used.map((asset) => asset.sha256));
  }, retention.orphanBlobGraceMs);
  return { requests: requests.count, jobs: jobs.count, events: events.count, blobs: removedBlobs };
}
