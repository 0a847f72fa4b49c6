/**
 * The console's Boxes page in Chromium against a real boxes service (bubblewrap): a box made by an agent shows its
 * state, size and cost, the month's usage is drawn, and Delete asks first, then removes the box for good. Skipped,
 * saying why, where Chromium or bubblewrap is missing. Whatever happens, afterAll deletes every box it made.
 */
import { execFileSync } from "node:child_process";
import { randomInt } from "node:crypto";
import { existsSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { createBoxesService } from "@bancada/boxes";
import { callTool, connectClient, startStack, type ServiceFactory, type Stack } from "@bancada/e2e";
import { browserUnsupported, launchBrowser, screenshotDir, type TestBrowser } from "./browser.js";
import { buildConsole } from "./stack.js";

function boxesUnsupported(): string | null {
  if (!existsSync("/usr/bin/bwrap")) return "bubblewrap is not installed";
  try {
    execFileSync("/usr/bin/bwrap", ["--unshare-all", "--ro-bind", "/", "/", "true"], { stdio: "pipe" });
    return null;
  } catch {
    return "bubblewrap cannot make namespaces here";
  }
}
const unsupported = browserUnsupported ?? boxesUnsupported();

describe.skipIf(unsupported !== null)("the console's Boxes page in Chromium", () => {
  let stack: Stack;
  let built: Awaited<ReturnType<typeof buildConsole>>;
  let browser: TestBrowser;
  let page: Page;
  let agent: Client;
  let key: string;
  let dataDir: string;
  const boxIds: string[] = [];

  beforeAll(async () => {
    built = await buildConsole();
    dataDir = await mkdtemp(path.join(tmpdir(), "console-boxes-"));
    const boxes: ServiceFactory = async (deps) => {
      const service = await createBoxesService({
        ...deps,
        dataDir,
        disks: "directory",
        pidsMax: 128,
        watchIntervalMs: 500,
        uidBase: 200_000 + randomInt(0, 100_000) * 1_000,
        hostMemoryMiB: 64 * 1024,
        hostCores: 64,
        // a roomy machine on paper, whatever the test machine's free disk (host admission has its own tests)
        diskOvercommit: 1000,
      });
      return { name: "boxes", routes: service.routes, stop: () => service.stop() };
    };
    stack = await startStack({ services: { boxes }, gateway: { consoleDir: built.dir } });
    key = await stack.createKey({ agentId: "console", scopes: ["boxes:read", "boxes:write", "boxes:delete"], allowWrites: true });
    agent = await connectClient(stack.mcpUrl, key);
    browser = await launchBrowser();
    page = await browser.context.newPage();
    page.setDefaultTimeout(15_000);
  });
  afterAll(async () => {
    for (const id of boxIds) {
      await fetch(`${stack.baseUrl}/v1/boxes/${id}?confirm=true&wait=true`, {
        method: "DELETE",
        headers: { authorization: `Bearer ${key}` },
      }).catch(() => {});
    }
    await agent?.close();
    await browser?.close();
    await stack?.stop();
    await built?.remove();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  it("when an agent has a box, then the page shows its state, size, cost and published port, and the month's usage as a chart", async () => {
    const created = await callTool<{ box: { id: string; name: string } }>(agent, "create_box", { name: "render-1" });
    expect(created.isError, created.text.slice(0, 300)).toBe(false);
    boxIds.push(created.data.box.id);
    const published = await callTool<{ port: { url: string } }>(agent, "publish_port", { boxId: created.data.box.id, port: 8080 });
    expect(published.isError, published.text.slice(0, 300)).toBe(false);
    await page.goto(stack.baseUrl);
    await page.getByLabel("API key").fill(key);
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.getByRole("link", { name: "Boxes", exact: true }).click();
    const row = page.locator("tr", { hasText: "render-1" });
    await expect(row.textContent()).resolves.toMatch(/running.*vCPU.*MiB.*GiB.*R\$/);
    await expect(row.textContent()).resolves.toContain(`8080 → ${published.data.port.url} (private)`);
    await page.getByRole("img", { name: /Usage this month/ }).waitFor();
    if (screenshotDir) await page.screenshot({ path: path.join(screenshotDir, "console-boxes.png"), fullPage: true });
  });

  it("when Delete is clicked, then it asks first; confirmed, the box is deleted for good", async () => {
    await page.getByRole("button", { name: "Delete render-1" }).click();
    await page.getByText("Delete render-1 and its files for good?").waitFor();
    await page.getByRole("button", { name: "Cancel" }).click();
    expect((await callTool<{ box: { state: string } }>(agent, "get_box", { boxId: boxIds[0] })).data.box.state).toBe("running");
    await page.getByRole("button", { name: "Delete render-1" }).click();
    await page.getByRole("button", { name: "Yes, delete" }).click();
    await page.locator("tr", { hasText: "render-1" }).waitFor({ state: "detached" });
    expect((await callTool<{ box: { state: string } }>(agent, "get_box", { boxId: boxIds[0] })).data.box.state).toMatch(/deleting|deleted/);
  });
});
