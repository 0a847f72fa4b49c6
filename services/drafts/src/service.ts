/**
 * The drafts service: blob store (PostgreSQL, after moving in any files an earlier version left on disk),
 * submission workers, event relay, its tools on the bus, REST routes, housekeeping.
 */
import path from "node:path";
import { defineService, type RunningService, type ServiceOptions } from "@bancada/service-kit";
import type { BlobStore } from "./assets/blob-store.js";
import { migrateDiskBlobs } from "./assets/migrate-disk-blobs.js";
import { createPgBlobStore } from "./assets/pg-blob-store.js";
import { createDraftsDb, postgresSchema, type DraftsDb } from "./db/client.js";
import type { DraftsDeps } from "./domain/context.js";
import { housekeeping } from "./domain/housekeeping.js";
import { limits } from "./domain/limits.js";
import { draftsRoutes } from "./http/routes.js";
import { startEventRelay, type EventRelay } from "./pipeline/event-relay.js";
import { defaultWorkerSettings, startSubmissionWorker, type SubmissionWorker, type WorkerSettings } from "./pipeline/submission-worker.js";
import { draftsInstructions, draftsTools, draftsVocabulary } from "./tools/index.js";
import draftsPackage from "@bancada/drafts/package.json" with { type: "json" };

export interface DraftsServiceOptions extends ServiceOptions {
  /**
   * Where an earlier version kept asset files on disk: what is found there is moved into PostgreSQL at start.
   * Asset bytes now live in PostgreSQL, which every replica shares.
   */
  dataDir?: string;
  /**
   * Offer the stdio tool that reads a local file by path (default true). Set false where this process
   * does not run on the callers' machine, e.g. a replica in a cluster.
   */
  localFileUploads?: boolean;
  /** The submission worker; `enabled: false` runs none in this process (another process works the queue). */
  worker?: Partial<WorkerSettings> & { enabled?: boolean };
}

export type DraftsService = RunningService<"drafts", DraftsDb, { worker: SubmissionWorker | undefined }>;

export const migrationsDir = path.join(import.meta.dirname, "../prisma/migrations");
export const defaultDataDir = ".data/drafts-assets";

/** What the tools, routes and housekeeping share, and the pipeline this process runs. */
interface DraftsParts {
  deps: DraftsDeps;
  blobs: BlobStore;
  relay: EventRelay;
  worker: SubmissionWorker | undefined;
}

export const draftsService = defineService<DraftsServiceOptions>()({
  name: "drafts",
  scopes: draftsPackage.bancada.scopes,
  version: "0.1.0",
  instructions: draftsInstructions,
  vocabulary: draftsVocabulary,
  prisma: { schema: postgresSchema, migrationsDir, createClient: createDraftsDb },
  async context({ db, options, log }): Promise<DraftsParts> {
    const blobs = createPgBlobStore({ connectionString: options.databaseUrl, schema: postgresSchema, maxBytes: limits.assetBytesMax });
    try {
      await migrateDiskBlobs(options.dataDir ?? defaultDataDir, blobs, log);
    } catch (error) {
      await blobs.close();
      throw error;
    }
    const { enabled = true, ...workerOverrides } = options.worker ?? {};
    const settings = { ...defaultWorkerSettings(), ...workerOverrides };
    // `<root>.drafts.events.<type>`: contracts' subjects() does not name event subjects yet
    const relay = startEventRelay({
      db,
      bus: options.bus,
      log,
      pollMs: settings.pollMs,
      subjectOf: (type) => `${options.subjects.queue("drafts")}.events.${type}`,
    });
    const worker = enabled ? startSubmissionWorker({ db, blobs, log, onFinished: relay.kick }, settings) : undefined;
    return { deps: { db, blobs, submitted: () => worker?.kick() }, blobs, relay, worker };
  },
  tools: ({ deps }, { options }) => draftsTools(deps, { localFiles: options.localFileUploads ?? true }),
  routes: ({ deps }) => draftsRoutes(deps),
  jobs: ({ blobs }, { db, log }) => [
    {
      name: "housekeeping",
      intervalMs: 3600_000,
      run: async () => log.debug(await housekeeping(db, blobs), "housekeeping done"),
      runNow: true,
    },
  ],
  async stop({ worker, relay, blobs }) {
    await worker?.stop();
    await relay.stop();
    await blobs.close();
  },
  expose: ({ worker }) => ({ worker }),
});

export const createDraftsService = (options: DraftsServiceOptions): Promise<DraftsService> => draftsService.start(options);
