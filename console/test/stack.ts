/** The stack the console's tests run against: boards and drafts behind a real gateway, with a fresh console build. */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { build } from "vite";
import { createBoardsService } from "@bancada/boards";
import { createDraftsService } from "@bancada/drafts";
import { startStack, type ServiceFactory, type Stack } from "@bancada/e2e";

const consoleRoot = path.resolve(import.meta.dirname, "..");

/** Builds the console from its sources into a temporary folder (so a test never runs an older build). */
export async function buildConsole(): Promise<{ dir: string; remove(): Promise<void> }> {
  const dir = await mkdtemp(path.join(tmpdir(), "bancada-console-"));
  await build({
    root: consoleRoot,
    configFile: path.join(consoleRoot, "vite.config.ts"),
    logLevel: "error",
    build: { outDir: dir, emptyOutDir: true },
  });
  return { dir, remove: () => rm(dir, { recursive: true, force: true }) };
}

const boards: ServiceFactory = async (deps) => {
  const service = await createBoardsService({ ...deps, expiryIntervalMs: 0 });
  return { name: "boards", routes: service.routes, stop: () => service.stop() };
};

const drafts: ServiceFactory = async (deps) => {
  const dataDir = await mkdtemp(path.join(tmpdir(), "console-drafts-"));
  const service = await createDraftsService({ ...deps, dataDir, worker: { pollMs: 100 } });
  return {
    name: "drafts",
    routes: service.routes,
    async stop() {
      await service.stop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
};

export async function startConsoleStack(consoleDir: string | undefined): Promise<Stack> {
  const stack = await startStack({ services: { boards, drafts }, gateway: consoleDir ? { consoleDir } : {} });
  // the first catalog request can go unanswered on a loaded machine: wait for both services' tools
  const until = Date.now() + 30_000;
  while (!stack.gateway.catalog.tool("submit_board_proposal") || !stack.gateway.catalog.tool("sosoapi_list_content_drafts")) {
    if (Date.now() > until) throw new Error("the gateway never received the boards and drafts catalogs");
    await stack.gateway.catalog.refresh();
  }
  return stack;
}
