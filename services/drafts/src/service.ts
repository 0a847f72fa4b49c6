/** Wiring of the drafts service: migrations, database, blob store, submission workers, event relay, tools, REST. */
import path from "node:path";
import type { Router } from "express";
import { applyMigrations, hostTools, startPeriodicJob, type ToolHost, type ServiceOptions } from "@bancada/service-kit";
import { createBlobStore } from "./assets/blob-store.js";
import { createDraftsDb, postgresSchema, type DraftsDb } from "./db/client.js";
import type { DraftsDeps } from "./domain/context.js";
import { housekeeping } from "./domain/housekeeping.js";
import { limits } from "./domain/limits.js";
import { draftsRoutes } from "./http/routes.js";
import { startEventRelay } from "./pipeline/event-relay.js";
import { defaultWorkerSettings, startSubmissionWorker, type SubmissionWorker, type WorkerSettings } from "./pipeline/submission-worker.js";
import { draftsInstructions, draftsTools } from "./tools/index.js";

export interface DraftsServiceOptions extends ServiceOptions {
  /** Where asset bytes are kept (content-addressed). Replicas must share it. */
  dataDir?: string;
  /**
   * Offer the stdio tool that reads a local file by path (default true). Set false where this process
   * does not run on the callers' machine, e.g. a replica in a cluster.
   */
  localFileUploads?: boolean;
  /** The submission worker; `enabled: false` runs none in this process (another process works the queue). */
  worker?: Partial<WorkerSettings> & { enabled?: boolean };
}

export interface DraftsService {
  name: "drafts";
  db: DraftsDb;
  host: ToolHost;
  routes: Router;
  worker: SubmissionWorker | undefined;
  stop(): Promise<void>;
}

export const migrationsDir = path.join(import.meta.dirname, "../prisma/migrations");
export const defaultDataDir = ".data/drafts-assets";

export async function createDraftsService(options: DraftsServiceOptions): Promise<DraftsService> {
  const log = options.log.child({ svc: "drafts" });
  await applyMigrations({ connectionString: options.databaseUrl, schema: postgresSchema, migrationsDir, log });
  const db = createDraftsDb(options.databaseUrl, options.poolMax);
  const blobs = await createBlobStore(options.dataDir ?? defaultDataDir, limits.assetBytesMax);
  const { enabled = true, ...workerOverrides } = options.worker ?? {};
  const settings = { ...defaultWorkerSettings(), ...workerOverrides };
  // `<root>.drafts.events.<type>`; see the report: contracts' subjects() should name it.
  const relay = startEventRelay({ db, bus: options.bus, log, pollMs: settings.pollMs, subjectOf: (type) => `${options.subjects.queue("drafts")}.events.${type}` });
  const worker = enabled ? startSubmissionWorker({ db, blobs, log, onFinished: relay.kick }, settings) : undefined;
  const deps: DraftsDeps = { db, blobs, submitted: () => worker?.kick() };
  const host = hostTools({
    bus: options.bus,
    subjects: options.subjects,
    service: "drafts",
    version: "0.1.0",
    instructions: draftsInstructions,
    tools: draftsTools(deps, { localFiles: options.localFileUploads ?? true }),
    log,
    ...(options.metrics ? { metrics: options.metrics } : {}),
  });
  const upkeep = startPeriodicJob({
    name: "housekeeping",
    intervalMs: 3600_000,
    run: async () => log.debug(await housekeeping(db, blobs), "housekeeping done"),
    log,
    runNow: true,
  });
  return {
    name: "drafts",
    db,
    host,
    routes: draftsRoutes(deps),
    worker,
    async stop() {
      host.stop();
      await upkeep.stop();
      await worker?.stop();
      await relay.stop();
      await db.$disconnect();
    },
  };
}
