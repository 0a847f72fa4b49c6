/**
 * The console's Boxes pages in Chromium against a real boxes service (bubblewrap): a box made by an agent shows its
 * state, size, cost and port link, and the month's usage is drawn; Delete asks first; a box made in the page is
 * followed until it runs, then suspended and resumed; a wrong template is refused in one sentence; on its own page
 * the box is forked and snapshotted (both followed to the end) and a new box starts from that snapshot; its job's
 * logs are read, its files browsed and one downloaded; the usage warning appears exactly when the forecast passes
 * the allowance; the pages fit a 390 px screen and log no errors. Skipped, saying why, where Chromium or bubblewrap
 * is missing. Boxes are the smallest size and few (one made in the page serves every later step; the fork's copy
 * and the box from the snapshot are deleted at once); whatever happens, afterAll deletes every box it made.
 */
import { execFileSync } from "node:child_process";
import { randomInt } from "node:crypto";
import { existsSync } from "node:fs";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { createBoxesService, type BoxesService } from "@bancada/boxes";
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
const scopes = ["boxes:read", "boxes:write", "boxes:delete", "boxes:exec", "images:read", "images:write"];

interface BoxView {
  id: string;
  name: string;
  state: string;
  operation: string | null;
}

describe.skipIf(unsupported !== null)("the console's Boxes pages in Chromium", () => {
  let stack: Stack;
  let service: BoxesService;
  let built: Awaited<ReturnType<typeof buildConsole>>;
  let browser: TestBrowser;
  let page: Page;
  let agent: Client;
  let key: string;
  let dataDir: string;
  const boxIds: string[] = [];
  const problems: string[] = [];

  beforeAll(async () => {
    built = await buildConsole();
    dataDir = await mkdtemp(path.join(tmpdir(), "console-boxes-"));
    const boxes: ServiceFactory = async (deps) => {
      service = await createBoxesService({
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
    // transfer URLs name the gateway's address, as BOXES_PUBLIC_URL does where everything runs in one process
    service.runtime.transfers.publicUrl = stack.baseUrl;
    key = await stack.createKey({ agentId: "console", scopes, allowWrites: true });
    agent = await connectClient(stack.mcpUrl, key);
    browser = await launchBrowser();
    page = await browser.context.newPage();
    page.setDefaultTimeout(20_000);
    page.on("console", (message) => {
      // a refused call (a 409, say) is logged by Chromium as a failed resource; the page shows it as an error note
      if (message.type() === "error" && !/Failed to load resource/.test(message.text())) problems.push(message.text());
    });
    page.on("pageerror", (error) => problems.push(error.message));
  });
  afterEach(() => {
    expect(problems.splice(0), "console errors").toEqual([]);
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

  const mcp = async <T>(name: string, args: Record<string, unknown>): Promise<T> => {
    const outcome = await callTool<T>(agent, name, args);
    expect(outcome.isError, outcome.text.slice(0, 300)).toBe(false);
    return outcome.data;
  };
  const rest = async <T>(route: string): Promise<T> => {
    const response = await fetch(`${stack.baseUrl}${route}`, { headers: { authorization: `Bearer ${key}` } });
    expect(response.status, route).toBe(200);
    return (await response.json()) as T;
  };
  const boxNamed = async (name: string) => (await rest<{ boxes: BoxView[] }>("/v1/boxes?limit=100")).boxes.find((box) => box.name === name);
  const shot = async (name: string) => {
    if (screenshotDir) await page.screenshot({ path: path.join(screenshotDir, `console-${name}.png`), fullPage: true });
  };
  const fitsPhone = async (name: string) => {
    await page.setViewportSize({ width: 390, height: 844 });
    const width = await page.evaluate(() => document.scrollingElement!.scrollWidth);
    await shot(`${name}-390`);
    await page.setViewportSize({ width: 1280, height: 900 });
    return width;
  };
  const openBox = async (name: string) => {
    await page.goto(`${stack.baseUrl}/#/boxes`);
    await page.getByRole("link", { name, exact: true }).click();
    await page.getByRole("heading", { level: 1, name }).waitFor();
  };

  it("when an agent has a box, then the page shows its state, size, cost and published port as a link, and the month's usage as a chart", async () => {
    const created = await mcp<{ box: { id: string; name: string } }>("create_box", { name: "render-1" });
    boxIds.push(created.box.id);
    const published = await mcp<{ port: { url: string } }>("publish_port", { boxId: created.box.id, port: 8080 });
    await page.goto(stack.baseUrl);
    await page.getByLabel("API key").fill(key);
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.getByRole("link", { name: "Boxes", exact: true }).click();
    const row = page.locator("tr", { hasText: "render-1" });
    await expect(row.textContent()).resolves.toMatch(/running.*vCPU.*MiB.*GiB.*R\$/);
    await expect(row.textContent()).resolves.toContain(`8080 → ${published.port.url} (private)`);
    const link = row.getByRole("link", { name: `8080 → ${published.port.url}` });
    expect([await link.getAttribute("href"), await link.getAttribute("target")]).toEqual([published.port.url, "_blank"]);
    await page.getByRole("img", { name: /Usage this month/ }).waitFor();
    expect(await fitsPhone("boxes")).toBeLessThanOrEqual(390);
    await shot("boxes");
  });

  it("when Delete is clicked, then it asks first; confirmed, the box is deleted for good", async () => {
    await page.getByRole("button", { name: "Delete render-1" }).click();
    await page.getByText("Delete render-1 and its files for good?").waitFor();
    await page.getByRole("button", { name: "Cancel" }).click();
    expect((await mcp<{ box: { state: string } }>("get_box", { boxId: boxIds[0] })).box.state).toBe("running");
    await page.getByRole("button", { name: "Delete render-1" }).click();
    await page.getByRole("button", { name: "Yes, delete" }).click();
    await page.locator("tr", { hasText: "render-1" }).waitFor({ state: "detached" });
    expect((await mcp<{ box: { state: string } }>("get_box", { boxId: boxIds[0] })).box.state).toMatch(/deleting|deleted/);
  });

  it("when a box is created in the page, then the list follows it until it runs; Suspend and Resume change its state", async () => {
    await page.getByLabel("Name", { exact: true }).fill("made-here");
    expect(await page.getByLabel("Size").inputValue()).toBe("0");
    await page.getByRole("button", { name: "Create box" }).click();
    await page.getByText("Creating made-here").waitFor();
    const made = await boxNamed("made-here");
    expect(made).toBeDefined();
    boxIds.push(made!.id);
    const row = page.locator("tr", { hasText: "made-here" });
    await row.locator(".badge", { hasText: /^running$/ }).waitFor({ timeout: 60_000 });
    expect(await row.textContent()).toContain("2 vCPU, 4096 MiB, 20 GiB");
    await row.getByRole("button", { name: "Suspend made-here" }).click();
    await row.locator(".badge", { hasText: /^suspended$/ }).waitFor();
    expect((await boxNamed("made-here"))!.state).toBe("suspended");
    await row.getByRole("button", { name: "Resume made-here" }).click();
    await row.locator(".badge", { hasText: /^running$/ }).waitFor();
    expect((await boxNamed("made-here"))!.state).toBe("running");
  });

  it("when a wrong template is asked for, then the form says so in one sentence and makes nothing", async () => {
    await page.getByLabel("Name", { exact: true }).fill("no-such");
    await page.getByLabel("Template").fill("no-such-template");
    await page.getByRole("button", { name: "Create box" }).click();
    await expect(page.getByRole("alert").textContent()).resolves.toMatch(/No template 'no-such-template' in this workspace/);
    await page.getByLabel("Template").fill("");
    expect(await boxNamed("no-such")).toBeUndefined();
  });

  it("when a box is forked and snapshotted from its page, then each is followed until the copy runs and the snapshot is ready", async () => {
    await openBox("made-here");
    await page.getByLabel("Name of the copy").fill("made-here-copy");
    await page.getByRole("button", { name: "Fork made-here" }).click();
    const copy = page.locator(".box-copies li", { hasText: "made-here-copy" });
    await copy.waitFor();
    const copied = await boxNamed("made-here-copy");
    boxIds.push(copied!.id);
    await copy.locator(".badge", { hasText: /^running$/ }).waitFor({ timeout: 60_000 });
    await page.getByLabel("Name of the snapshot").fill("nightly");
    await page.getByRole("button", { name: "Save a snapshot of made-here" }).click();
    await page.getByText("Snapshot nightly started").waitFor();
    await page
      .locator(".box-snapshots li", { hasText: "nightly" })
      .locator(".badge", { hasText: /^ready$/ })
      .waitFor({ timeout: 60_000 });
    const { snapshots } = await rest<{ snapshots: { name: string; state: string }[] }>(`/v1/snapshots?boxId=${boxIds[1]}`);
    expect(snapshots.map((snapshot) => [snapshot.name, snapshot.state])).toEqual([["nightly", "ready"]]);
    // the copy is not needed further: one box fewer on a shared machine
    await fetch(`${stack.baseUrl}/v1/boxes/${copied!.id}?confirm=true&wait=true`, {
      method: "DELETE",
      headers: { authorization: `Bearer ${key}` },
    });
    await shot("box");
  });

  it("when a ready snapshot is chosen in the form, then the new box starts from it", async () => {
    await page.goto(`${stack.baseUrl}/#/boxes`);
    await page.getByLabel("Name", { exact: true }).fill("from-nightly");
    await page.getByLabel("Snapshot").selectOption({ label: "nightly" });
    await page.getByRole("button", { name: "Create box" }).click();
    await page.getByText("Creating from-nightly").waitFor();
    const made = await boxNamed("from-nightly");
    boxIds.push(made!.id);
    await page
      .locator("tr", { hasText: "from-nightly" })
      .locator(".badge", { hasText: /^running$/ })
      .waitFor({ timeout: 60_000 });
    const { snapshots } = await rest<{ snapshots: { id: string }[] }>(`/v1/snapshots?boxId=${boxIds[1]}`);
    expect((await rest<{ box: { snapshotId: string } }>(`/v1/boxes/${made!.id}`)).box.snapshotId).toBe(snapshots[0]!.id);
    await fetch(`${stack.baseUrl}/v1/boxes/${made!.id}?confirm=true&wait=true`, {
      method: "DELETE",
      headers: { authorization: `Bearer ${key}` },
    });
  });

  it("when a job runs in the box, then its page lists it and shows its logs, followed until it ends", async () => {
    const { job } = await mcp<{ job: { id: string } }>("start_job", {
      boxId: "made-here",
      name: "greet",
      cmd: "echo hello from the job; sleep 2; echo all done",
    });
    await openBox("made-here");
    // started after the page was opened: the list is read again on demand
    const second = await mcp<{ job: { id: string } }>("start_job", { boxId: "made-here", name: "later", cmd: "echo later" });
    await page.getByRole("button", { name: "Refresh the jobs" }).click();
    await page.getByRole("button", { name: "Show the logs of later" }).waitFor();
    await page.getByRole("button", { name: "Show the logs of greet" }).click();
    const logs = page.getByLabel("Logs of greet");
    await logs.getByText("hello from the job").waitFor();
    await logs.getByText("all done").waitFor({ timeout: 30_000 });
    await page
      .locator(".box-jobs li", { hasText: "greet" })
      .locator(".badge", { hasText: /^succeeded$/ })
      .waitFor();
    const listed = (await rest<{ jobs: { id: string }[] }>("/v1/boxes/made-here/jobs")).jobs;
    expect(listed.map((entry) => entry.id)).toEqual([second.job.id, job.id]);
  });

  it("when the files are browsed, then folders open and a file downloads through its transfer URL with its bytes", async () => {
    const content = `report ${randomInt(1e9)}\n`;
    await mcp("write_file", { boxId: "made-here", path: "/data/home/site/report.txt", content });
    await openBox("made-here");
    await page.getByRole("button", { name: "site/" }).click();
    await page.getByRole("table", { name: "/data/home/site" }).waitFor();
    const [download] = await Promise.all([
      page.waitForEvent("download"),
      page.getByRole("button", { name: "Download report.txt" }).click(),
    ]);
    expect(download.url()).toContain("/boxes/transfers/");
    expect(await readFile((await download.path())!, "utf8")).toBe(content);
    const [folder] = await Promise.all([
      page.waitForEvent("download"),
      page.getByRole("button", { name: "Download this folder (.tar.zst)" }).click(),
    ]);
    expect(folder.suggestedFilename()).toBe("site.tar.zst");
    const unpacked = await mkdtemp(path.join(tmpdir(), "console-folder-"));
    execFileSync("tar", ["--zstd", "-xf", (await folder.path())!, "-C", unpacked]);
    expect(await readFile(path.join(unpacked, "report.txt"), "utf8")).toBe(content);
    await rm(unpacked, { recursive: true, force: true });
    await page.getByRole("button", { name: "Up one folder" }).click();
    await page.getByRole("table", { name: "/data/home" }).waitFor();
    await page.getByLabel("Folder").fill("/nowhere");
    await page.getByRole("button", { name: "Open", exact: true }).click();
    await expect(page.getByRole("alert").textContent()).resolves.toContain("No folder /nowhere in the box.");
    // up from /nowhere is the root (an exact name: "/data/home", still on screen for a moment, contains "/data" too)
    await page.getByRole("button", { name: "Up one folder" }).click();
    await page.getByRole("table", { name: "/", exact: true }).waitFor();
    expect(await fitsPhone("box")).toBeLessThanOrEqual(390);
  });

  it("when a port is published, then the box's page shows it as a link to its URL", async () => {
    const published = await mcp<{ port: { url: string } }>("publish_port", { boxId: "made-here", port: 8081, visibility: "public" });
    await openBox("made-here");
    const link = page.getByRole("link", { name: `8081 → ${published.port.url}` });
    expect(await link.getAttribute("href")).toBe(published.port.url);
    // the link reaches the box through the proxy: nothing listens there, and the proxy says so
    const answer = await fetch(published.port.url);
    expect(answer.status).toBe(502);
  });

  it("when the month's forecast passes the allowance, then the page warns, and not otherwise", async () => {
    for (const plan of ["scale", "free"]) {
      await service.db.accountPlan.upsert({ where: { accountId: "acct-a" }, create: { accountId: "acct-a", plan }, update: { plan } });
      await page.goto(`${stack.baseUrl}/#/boxes`);
      await page.reload();
      await page.getByRole("img", { name: /Usage this month/ }).waitFor();
      const usage = await rest<{ forecast: { centavos: number }; allowance: { centavos: number } }>("/v1/usage");
      const warning = page.getByText(/This month's forecast, .* passes the plan's allowance of/);
      expect([plan, await warning.count()]).toEqual([plan, usage.forecast.centavos > usage.allowance.centavos ? 1 : 0]);
      if (plan === "free") expect(usage.allowance.centavos).toBe(1000);
    }
    expect(await fitsPhone("boxes-warning")).toBeLessThanOrEqual(390);
  });
});
