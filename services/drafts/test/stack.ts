/** The drafts service as the test stack starts it, with an empty folder of its own as the legacy asset folder. */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { startStack, type ServiceFactory, type Stack } from "@bancada/e2e";
import type { Readable } from "node:stream";
import {
  createDraftsService,
  createPgBlobStore,
  limits,
  postgresSchema,
  type BlobStore,
  type DraftsService,
  type DraftsServiceOptions,
} from "../src/index.js";

export type DraftsOverrides = Partial<Pick<DraftsServiceOptions, "worker" | "localFileUploads" | "dataDir">>;

/** `onStart` sees each started instance (the service is restarted by some tests). */
export function draftsFactory(
  overrides: DraftsOverrides = {},
  onStart?: (service: DraftsService, dataDir: string) => void,
): ServiceFactory {
  return async (deps) => {
    const own = overrides.dataDir === undefined;
    const dataDir = overrides.dataDir ?? (await mkdtemp(path.join(tmpdir(), "drafts-assets-")));
    const service = await createDraftsService({ ...deps, worker: { pollMs: 100, ...overrides.worker }, ...overrides, dataDir });
    onStart?.(service, dataDir);
    return {
      name: "drafts",
      routes: service.routes,
      async stop() {
        await service.stop();
        if (own) await rm(dataDir, { recursive: true, force: true });
      },
    };
  };
}

/**
 * startStack, then makes sure the gateway holds the drafts catalog: on a heavily loaded machine its first
 * catalog request (2 s timeout) can go unanswered, and the periodic refresh comes only after 15 s.
 */
export async function startDraftsStack(options: Parameters<typeof startStack>[0]): Promise<Stack> {
  const stack = await startStack(options);
  const until = Date.now() + 30_000;
  while (!stack.gateway.catalog.tool("sosoapi_list_content_drafts")) {
    if (Date.now() > until) throw new Error("the gateway never received the drafts catalog");
    await stack.gateway.catalog.refresh("drafts");
  }
  return stack;
}

/** The blob store the service uses, on its own pool (close it). */
export function blobStoreOf(databaseUrl: string): BlobStore {
  return createPgBlobStore({ connectionString: databaseUrl, schema: postgresSchema, maxBytes: limits.assetBytesMax, poolMax: 2 });
}

/** Every byte of a stream, for comparing small and medium files in tests. */
export async function streamBytes(stream: Readable): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const part of stream) parts.push(part as Buffer);
  return Buffer.concat(parts);
}
