/**
 * What holds on every page of the console, in real Chromium against a real stack: at 390 px wide nothing is cut off
 * sideways (the board's grid and proposals, the keys table, the activity, the inbox, a draft); a person who uses only
 * the keyboard signs in, reaches every area from the navigation, sees where the focus is and acts on a proposal; and
 * no page logs an error. With BANCADA_CONSOLE_SCREENSHOTS=<dir> it saves one screenshot per page there (docs/console.md
 * shows the same pages). Skipped, saying why, where Chromium is missing.
 */
import { randomUUID } from "node:crypto";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { callTool, connectClient, type Stack } from "@bancada/e2e";
import { browserUnsupported, launchBrowser, screenshotDir, type TestBrowser } from "./browser.js";
import { buildConsole, startConsoleStack } from "./stack.js";

type Task = { id: string; title: string; version: number };
const allScopes = ["boards:read", "boards:write", "drafts:read", "drafts:write", "keys:read", "keys:write", "audit:read"];

describe.skipIf(browserUnsupported !== null)("every page of the console: phones, keyboards, errors", () => {
  let stack: Stack;
  let built: Awaited<ReturnType<typeof buildConsole>>;
  let browser: TestBrowser;
  let page: Page;
  let agent: Client;
  let anaKey: string;
  let boardId: string;
  let workspaceId: string;
  let draftId: string;
  const problems: string[] = [];

  const rest = async <T>(method: string, route: string, body?: unknown): Promise<T> => {
    const response = await fetch(`${stack.baseUrl}${route}`, {
      method,
      headers: { authorization: `Bearer ${anaKey}`, ...(body === undefined ? {} : { "content-type": "application/json" }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    expect(response.status, route).toBeLessThan(300);
    return (await response.json()) as T;
  };
  const task = async (title: string) => {
    const outcome = await callTool<{ task: Task }>(agent, "create_task", { requestId: randomUUID(), boardId, title });
    expect(outcome.isError, outcome.text).toBe(false);
    return outcome.data.task;
  };

  beforeAll(async () => {
    built = await buildConsole();
    stack = await startConsoleStack(built.dir);
    anaKey = await stack.createKey({ accountId: "acct-a", personId: "ana", agentId: "console", scopes: allScopes, allowWrites: true });
    const agentKey = await stack.createKey({
      accountId: "acct-a",
      personId: "ana",
      agentId: "claude",
      scopes: ["boards:read", "boards:write"],
      allowWrites: true,
    });
    agent = await connectClient(stack.mcpUrl, agentKey);
    boardId = (await rest<{ board: { id: string } }>("POST", "/v1/boards", { requestId: randomUUID(), name: "Lançamento do site novo" }))
      .board.id;
    const titles = ["Revisar o contrato com o fornecedor de hospedagem", "Responder cliente", "Atualizar a página de preços", "Ler"];
    const tasks = [];
    for (const title of titles) tasks.push(await task(title));
    const proposal = await callTool(agent, "submit_board_proposal", {
      requestId: randomUUID(),
      boardId,
      summary: "Reorganizar a semana antes do lançamento",
      suggestions: tasks.slice(0, 3).map((one, index) => ({
        taskId: one.id,
        version: one.version,
        quadrant: ["urgent-important", "not-urgent-important", "urgent-not-important"][index],
        reason: `O prazo de ${one.title.toLowerCase()} vence nesta semana e bloqueia o lançamento`,
      })),
    });
    expect(proposal.isError, proposal.text).toBe(false);
    workspaceId = (await rest<{ workspace: { id: string } }>("POST", "/v1/workspaces", { name: "Marketing", request_id: randomUUID() }))
      .workspace.id;
    draftId = (
      await rest<{ draft: { id: string } }>("POST", `/v1/workspaces/${workspaceId}/drafts`, {
        request_id: randomUUID(),
        caption: "Chegou o site novo: mais rápido, mais claro e com preços explicados em uma página só.",
      })
    ).draft.id;
    browser = await launchBrowser();
    page = await browser.context.newPage();
    page.setDefaultTimeout(10_000);
    page.on("console", (message) => {
      if (message.type() === "error" || /Content Security Policy|Refused to/i.test(message.text())) problems.push(message.text());
    });
    page.on("pageerror", (error) => problems.push(error.message));
  });
  afterAll(async () => {
    await agent?.close();
    await browser?.close();
    await stack?.stop();
    await built?.remove();
  });

  /** The pages, each with the heading that says it has loaded. */
  const pages = () => [
    { name: "boards", hash: "#/boards", heading: "Boards" },
    { name: "board", hash: `#/boards/${boardId}`, heading: "Lançamento do site novo" },
    { name: "inbox", hash: "#/inbox", heading: "Inbox" },
    { name: "drafts", hash: "#/drafts", heading: "Workspaces" },
    { name: "workspace", hash: `#/drafts/${workspaceId}`, heading: "Marketing" },
    { name: "draft", hash: `#/drafts/${workspaceId}/${draftId}`, heading: "Draft in Marketing" },
    { name: "keys", hash: "#/keys", heading: "API keys" },
    { name: "activity", hash: "#/activity", heading: "Recent tool calls" },
  ];
  const open = async (hash: string, heading: string) => {
    await page.goto(`${stack.baseUrl}/${hash}`);
    await page.getByRole("heading", { name: heading, level: 1 }).first().waitFor();
    await page.waitForLoadState("networkidle");
  };
  const shot = async (name: string) => {
    if (screenshotDir) await page.screenshot({ path: path.join(screenshotDir, `page-${name}.png`), fullPage: true });
  };

  it("when a person uses only the keyboard, then they sign in, see where the focus is, and reach every area from the navigation", async () => {
    await page.goto(`${stack.baseUrl}/`);
    await page.getByLabel("API key").waitFor();
    await shot("sign-in");
    // Tab from the top of the page lands in the key field: nothing to click first.
    await page.keyboard.press("Tab");
    expect(await page.evaluate(() => document.activeElement?.id)).toBe("api-key");
    await page.keyboard.type(anaKey);
    await page.keyboard.press("Enter");
    await page.getByRole("heading", { name: "Boards", level: 1 }).waitFor();

    const focusedLink = async () =>
      page.evaluate(() => {
        const active = document.activeElement as HTMLElement | null;
        if (!active) return null;
        const style = getComputedStyle(active);
        const ring = style.outlineStyle !== "none" && parseFloat(style.outlineWidth) > 0;
        return { text: active.textContent?.trim() ?? "", tag: active.tagName, ring: ring || style.boxShadow !== "none" };
      });
    const reached: string[] = [];
    const areas = [
      ["Inbox", "Inbox"],
      ["Boards", "Boards"],
      ["Drafts", "Workspaces"],
      ["Keys", "API keys"],
      ["Activity", "Recent tool calls"],
    ] as const;
    for (const [area, heading] of areas) {
      await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
      await page.focus("body");
      let found = false;
      for (let presses = 0; presses < 20 && !found; presses++) {
        await page.keyboard.press("Tab");
        const focused = await focusedLink();
        if (focused?.tag === "A" && focused.text.startsWith(area)) {
          expect(focused.ring, `the focused "${focused.text}" link shows a focus ring`).toBe(true);
          found = true;
        }
      }
      expect(found, `Tab reaches the ${area} link`).toBe(true);
      await page.keyboard.press("Enter");
      await page.getByRole("heading", { name: heading, level: 1 }).first().waitFor();
      reached.push(area);
    }
    expect(reached).toHaveLength(5);
  });

  it("when a proposal is reviewed with the keyboard alone, then Tab reaches its Apply button and Enter applies it", async () => {
    await open(`#/boards/${boardId}`, "Lançamento do site novo");
    const apply = page.getByRole("button", { name: /^Apply: Responder cliente/ });
    await apply.waitFor();
    await page.focus("body");
    let onApply = false;
    for (let presses = 0; presses < 80 && !onApply; presses++) {
      await page.keyboard.press("Tab");
      onApply = await apply.evaluate((button) => button === document.activeElement);
    }
    expect(onApply, "Tab reaches Apply").toBe(true);
    await page.keyboard.press("Enter");
    await page.locator("tr.suggestion", { hasText: "Responder cliente" }).locator(".badge", { hasText: "applied" }).waitFor();
  });

  it("when each page is opened 390 px wide, then nothing is cut off sideways, and at 1280 px each page has its screenshot", async () => {
    await page.setViewportSize({ width: 1280, height: 900 });
    for (const { name, hash, heading } of pages()) {
      await open(hash, heading);
      await shot(name);
    }
    await page.setViewportSize({ width: 390, height: 844 });
    const wide: string[] = [];
    for (const { name, hash, heading } of pages()) {
      await open(hash, heading);
      const width = await page.evaluate(() => document.scrollingElement!.scrollWidth);
      if (width > 390) wide.push(`${name}: ${width} px`);
      await shot(`${name}-390`);
    }
    expect(wide, "pages wider than a 390 px phone").toEqual([]);
    await page.setViewportSize({ width: 1280, height: 900 });
  });

  it("then no page logged an error or a refused resource", () => {
    expect(problems).toEqual([]);
  });
});
