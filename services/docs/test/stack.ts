/** The docs service as the test stack starts it, with a handle on the service (its database) for ingestion. */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import type { ServiceFactory, Stack } from "@bancada/e2e";
import { startStack } from "@bancada/e2e";
import { createDocsService, type DocsService } from "../src/index.js";

export const publisherAccount = "docs-publisher";

export interface DocsStack {
  stack: Stack;
  service: () => DocsService;
}

export async function startDocsStack(options: { demoCorpus?: boolean } = {}): Promise<DocsStack> {
  let current: DocsService | undefined;
  const factory: ServiceFactory = async (deps) => {
    current = await createDocsService({ ...deps, ingestAccounts: [publisherAccount], ...options });
    return { name: "docs", routes: current.routes, stop: () => current!.stop() };
  };
  const stack = await startStack({ services: { docs: factory } });
  return { stack, service: () => current! };
}

/** A key as a reader of the corpus (any account), or with other scopes. */
export function readerKey(stack: Stack, input: { accountId?: string; scopes?: string[]; allowWrites?: boolean } = {}): Promise<string> {
  return stack.createKey({ scopes: ["docs:read"], allowWrites: false, ...input });
}

export async function tempFolder(): Promise<{ path: string; remove(): Promise<void> }> {
  const folder = await mkdtemp(path.join(tmpdir(), "bancada-docs-"));
  return { path: folder, remove: () => rm(folder, { recursive: true, force: true }) };
}

/** The pages under `prefix` that hold every word of `query`, as the all-words search reads it (straight from SQL). */
export async function allWordsPages(docs: DocsStack, query: string, prefix: string): Promise<string[]> {
  const rows = await docs.service().db.$queryRaw<{ name: string }[]>`
    SELECT DISTINCT document_name AS name FROM chunks WHERE tsv @@ docs.web_query(${query}) AND starts_with(document_name, ${prefix})`;
  return rows.map((row) => row.name);
}
