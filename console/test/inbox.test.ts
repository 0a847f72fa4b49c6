/**
 * The console's inbox and readable activity in real Chromium against a real stack: an agent's proposals on two boards
 * wait in the inbox (counted in the navigation and on the board cards) naming the agent; Apply all, Reject all and
 * Propose again for an obsolete suggestion go through the boards REST routes; applied rows keep their origin; another
 * account's and a viewer's boards never reach the inbox; the board's activity reads as sentences in English and
 * Portuguese with the default quadrant titles in the interface's language; the Activity page filters and pages the
 * audit trail; at 390 px nothing is cut off sideways.
 */
import { randomUUID } from "node:crypto";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { callTool, connectClient, type Stack } from "@bancada/e2e";
import { browserUnsupported, launchBrowser, screenshotDir, type TestBrowser } from "./browser.js";
import { buildConsole, startConsoleStack } from "./stack.js";

type Task = { id: string; title: string; quadrant: string; version: number; status: string };
type Proposal = { id: string; suggestions: { id: string; task_id: string; version: number; state: string }[] };
const allScopes = ["boards:read", "boards:write", "drafts:read", "drafts:write", "keys:read", "keys:write", "audit:read"];
const agentScopes = ["boards:read", "boards:write"];

async function shot(page: Page, name: string): Promise<void> {
  if (screenshotDir) await page.screenshot({ path: path.join(screenshotDir, `inbox-${name}.png`), fullPage: true });
}

describe.skipIf(browserUnsupported !== null)("the console's inbox and activity in Chromium", () => {
  let stack: Stack;
  let built: Awaited<ReturnType<typeof buildConsole>>;
  let browser: TestBrowser;
  let page: Page;
  let claude: Client; // ana's agent
  let bia: Client; // bia's agent: owner of a board where ana only views
  let stranger: Client; // another account's agent
  let anaKey: string;
  const boards = { produto: "", site: "" };
  const problems: string[] = [];

  beforeAll(async () => {
    built = await buildConsole();
    stack = await startConsoleStack(built.dir);
    anaKey = await stack.createKey({ accountId: "acct-a", personId: "ana", agentId: "console", scopes: allScopes, allowWrites: true });
    const key = (accountId: string, personId: string, agentId: string) =>
      stack.createKey({ accountId, personId, agentId, scopes: agentScopes, allowWrites: true });
    claude = await connectClient(stack.mcpUrl, await key("acct-a", "ana", "claude"));
    bia = await connectClient(stack.mcpUrl, await key("acct-a", "bia", "bia-bot"));
    stranger = await connectClient(stack.mcpUrl, await key("acct-b", "ana", "intruso"));
    browser = await launchBrowser();
    page = await browser.context.newPage();
    page.setDefaultTimeout(10_000);
    page.on("console", (message) => {
      if (message.type() === "error" || /Content Security Policy|Refused to/i.test(message.text())) problems.push(message.text());
    });
    page.on("pageerror", (error) => problems.push(error.message));
  });
  afterAll(async () => {
    for (const client of [claude, bia, stranger]) await client?.close();
    await browser?.close();
    await stack?.stop();
    await built?.remove();
  });

  const mcp = async <T>(client: Client, name: string, args: Record<string, unknown>): Promise<T> => {
    const outcome = await callTool<T>(client, name, args);
    expect(outcome.isError, outcome.text.slice(0, 300)).toBe(false);
    return outcome.data;
  };
  const rest = async <T>(method: string, route: string, body?: unknown): Promise<T> => {
    const response = await fetch(`${stack.baseUrl}${route}`, {
      method,
      headers: { authorization: `Bearer ${anaKey}`, ...(body === undefined ? {} : { "content-type": "application/json" }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    expect(response.status, route).toBeLessThan(300);
    return (await response.json()) as T;
  };
  const newBoard = async (name: string) =>
    (await rest<{ board: { id: string } }>("POST", "/v1/boards", { requestId: randomUUID(), name })).board.id;
  const task = async (client: Client, boardId: string, title: string) =>
    (await mcp<{ task: Task }>(client, "create_task", { requestId: randomUUID(), boardId, title })).task;
  const propose = async (client: Client, boardId: string, suggestions: [Task, string][], summary?: string) =>
    (
      await mcp<{ proposal: Proposal }>(client, "submit_board_proposal", {
        requestId: randomUUID(),
        boardId,
        ...(summary ? { summary } : {}),
        suggestions: suggestions.map(([t, quadrant]) => ({ taskId: t.id, version: t.version, quadrant, reason: `para ${t.title}` })),
      })
    ).proposal;
  const taskNow = async (boardId: string, id: string) => (await rest<{ task: Task }>("GET", `/v1/boards/${boardId}/tasks/${id}`)).task;
  const card = (summaryOrId: string) => page.getByRole("article", { name: `Proposals: ${summaryOrId}` });
  const row = (title: string) => page.locator("tr.suggestion", { has: page.getByRole("cell", { name: title, exact: true }) });
  const noSidewaysScroll = async () =>
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
      await page.evaluate(() => document.documentElement.clientWidth),
    );

  let launch: Task, site: Task, copy: Task, later: Task;
  it("when an agent proposes on two boards, then the inbox lists both newest first, naming the agent and the board, with the counts in the navigation and on the board cards", async () => {
    boards.produto = await newBoard("Produto");
    boards.site = await newBoard("Site");
    launch = await task(claude, boards.produto, "Lançar versão");
    site = await task(claude, boards.produto, "Atualizar site");
    copy = await task(claude, boards.site, "Revisar textos");
    later = await task(claude, boards.site, "Trocar fotos");
    await propose(
      claude,
      boards.produto,
      [
        [launch, "urgent-important"],
        [site, "not-urgent-important"],
      ],
      "Prioridades da semana",
    );
    await propose(
      claude,
      boards.site,
      [
        [copy, "urgent-not-important"],
        [later, "not-urgent-not-important"],
      ],
      "Textos e fotos",
    );
    // the third task changes after the proposal: its suggestion is stale
    site = (
      await mcp<{ task: Task }>(claude, "update_task", {
        requestId: randomUUID(),
        boardId: boards.produto,
        taskId: site.id,
        expectedVersion: 1,
        title: "Atualizar site!",
      })
    ).task;

    await page.goto(stack.baseUrl);
    await page.getByLabel("API key").fill(anaKey);
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.getByRole("heading", { name: "Boards" }).waitFor();
    await page.getByRole("link", { name: "Inbox (2)" }).waitFor();
    const cards = page.locator(".card", { hasText: "Produto" });
    await cards.getByRole("link", { name: "Pending proposals: 1" }).waitFor();
    await page.getByRole("link", { name: "Inbox (2)" }).click();
    await page.getByRole("heading", { name: "Inbox", level: 1 }).waitFor();
    await card("Prioridades da semana").waitFor();
    const listed = await page.locator("article.proposal").evaluateAll((articles) => articles.map((a) => a.getAttribute("aria-label")));
    expect(listed).toEqual(["Proposals: Textos e fotos", "Proposals: Prioridades da semana"]);
    await expect(card("Prioridades da semana").textContent()).resolves.toMatch(/On Produto.*from claude \(ana\)/);
    await expect(row("Lançar versão").textContent()).resolves.toMatch(/Backlog → Do now.*para Lançar versão.*pending/);
    await shot(page, "list");
  });

  it("when Apply all is clicked, then current suggestions move their tasks and keep showing where they came from, stale ones turn obsolete, and the counts drop", async () => {
    await card("Prioridades da semana").getByRole("button", { name: "Apply all" }).click();
    await row("Lançar versão").locator(".badge", { hasText: "applied" }).waitFor();
    await expect(row("Lançar versão").getByRole("cell").nth(1).textContent()).resolves.toBe("Backlog → Do now");
    await row("Atualizar site!").locator(".badge", { hasText: "obsolete" }).waitFor();
    await expect(row("Atualizar site!").getByRole("status").textContent()).resolves.toMatch(/suggested at version 1, now 2/);
    expect(await taskNow(boards.produto, launch.id)).toMatchObject({ quadrant: "urgent-important", version: 2 });
    expect(await taskNow(boards.produto, site.id)).toMatchObject({ quadrant: "backlog", version: 2 });
    // the summary is still open, so the proposal is too: the navigation still counts both
    await page.getByRole("link", { name: "Inbox (2)" }).waitFor();
  });

  it("when Propose again is clicked on the obsolete suggestion, then a new proposal at the task's current version waits in the inbox, and applying it moves the task", async () => {
    await page.getByRole("button", { name: "Propose again: Atualizar site!" }).click();
    await page.getByRole("status").filter({ hasText: "Proposed again at the task's current version" }).waitFor();
    await page.getByRole("link", { name: "Inbox (3)" }).waitFor();
    const fresh = page.locator("article.proposal", { hasText: "from console (ana)" });
    await fresh.locator(".badge", { hasText: "pending" }).waitFor();
    await fresh.getByRole("button", { name: "Apply: Atualizar site!" }).click();
    await fresh.locator(".badge", { hasText: "applied" }).waitFor();
    expect(await taskNow(boards.produto, site.id)).toMatchObject({ quadrant: "not-urgent-important", version: 3 });
    await shot(page, "reproposed");
  });

  it("when Reject all is clicked, then every suggestion is rejected and no task moves", async () => {
    await card("Textos e fotos").getByRole("button", { name: "Reject all" }).click();
    await row("Revisar textos").locator(".badge", { hasText: "rejected" }).waitFor();
    await row("Trocar fotos").locator(".badge", { hasText: "rejected" }).waitFor();
    expect(await taskNow(boards.site, copy.id)).toMatchObject({ quadrant: "backlog", version: 1 });
    expect(await taskNow(boards.site, later.id)).toMatchObject({ quadrant: "backlog", version: 1 });
    expect(await card("Textos e fotos").getByRole("button", { name: "Apply all" }).count()).toBe(0);
  });

  it("when another account's agent, or a board where the person only views, has proposals, then the inbox never shows them", async () => {
    const foreignBoard = await fetch(`${stack.baseUrl}/v1/boards`, {
      method: "POST",
      headers: {
        authorization: `Bearer ${await stack.createKey({ accountId: "acct-b", personId: "ana", scopes: allScopes, allowWrites: true })}`,
        "content-type": "application/json",
      },
      body: JSON.stringify({ requestId: randomUUID(), name: "Segredo da B" }),
    }).then(async (response) => ((await response.json()) as { board: { id: string } }).board.id);
    const foreignTask = await task(stranger, foreignBoard, "Segredo");
    await propose(stranger, foreignBoard, [[foreignTask, "urgent-important"]], "Proposta de outra conta");
    // bia's board, where ana is a viewer: she may read it, not review it
    const biaKey = await stack.createKey({ accountId: "acct-a", personId: "bia", scopes: allScopes, allowWrites: true });
    const made = await fetch(`${stack.baseUrl}/v1/boards`, {
      method: "POST",
      headers: { authorization: `Bearer ${biaKey}`, "content-type": "application/json" },
      body: JSON.stringify({ requestId: randomUUID(), name: "Board da Bia" }),
    });
    const biaBoard = ((await made.json()) as { board: { id: string } }).board.id;
    await fetch(`${stack.baseUrl}/v1/boards/${biaBoard}/members/ana`, {
      method: "PUT",
      headers: { authorization: `Bearer ${biaKey}`, "content-type": "application/json" },
      body: JSON.stringify({ role: "viewer" }),
    });
    const biaTask = await task(bia, biaBoard, "Da Bia");
    await propose(bia, biaBoard, [[biaTask, "urgent-important"]], "Proposta da Bia");
    await page.reload();
    await page.getByRole("heading", { name: "Inbox", level: 1 }).waitFor();
    await card("Textos e fotos").waitFor();
    const text = await page.locator("main").textContent();
    expect(text).not.toMatch(/Proposta de outra conta|Segredo|Proposta da Bia|bia-bot|intruso/);
    await page.getByRole("link", { name: "Boards", exact: true }).click();
    await page.getByRole("link", { name: "Board da Bia" }).waitFor();
    expect(await page.locator(".card", { hasText: "Board da Bia" }).locator(".pending").count()).toBe(0);
  });

  it("when the board's activity is read, then events are sentences naming tasks and quadrants in the interface's language, never codes", async () => {
    await page.getByRole("link", { name: "Produto" }).click();
    await page.getByRole("heading", { name: "Produto", level: 1 }).waitFor();
    const activity = page.getByRole("region", { name: "Activity" });
    await activity.getByText("ana moved Lançar versão from Backlog to Do now").waitFor();
    await activity.getByText("The suggestion for Atualizar site! was obsolete: the task had changed since, so nothing moved").waitFor();
    await activity.getByText("ana applied the suggestion for Lançar versão").waitFor();
    expect(await activity.textContent()).not.toMatch(/suggestion_obsolete|task_moved|urgent-important/);
    // the suggestion applied from the inbox still shows its origin on the board's page
    await expect(row("Lançar versão").getByRole("cell").nth(1).textContent()).resolves.toBe("Backlog → Do now");
    await shot(page, "board-activity");
  });

  it("when the browser's language is Portuguese, then the inbox, the activity sentences and the default quadrant titles are Portuguese", async () => {
    const pt = await launchBrowser({ locale: "pt-BR" });
    try {
      const ptPage = await pt.context.newPage();
      ptPage.on("pageerror", (error) => problems.push(error.message));
      await ptPage.goto(stack.baseUrl);
      await ptPage.getByLabel("Chave de API").fill(anaKey);
      await ptPage.getByRole("button", { name: "Entrar" }).click();
      await ptPage.getByRole("link", { name: /^Caixa de entrada/ }).click();
      await ptPage.getByRole("heading", { name: "Caixa de entrada", level: 1 }).waitFor();
      await ptPage.getByText("de claude (ana)", { exact: false }).first().waitFor();
      await ptPage.goto(`${stack.baseUrl}/#/boards/${boards.produto}`);
      await ptPage.getByRole("heading", { name: "Fazer agora", level: 3 }).waitFor();
      await ptPage.getByText("ana moveu Lançar versão de Backlog para Fazer agora").waitFor();
      await ptPage.getByText("A sugestão para Atualizar site! estava obsoleta", { exact: false }).waitFor();
    } finally {
      await pt.close();
    }
  });

  it("when the Activity page is filtered by agent, tool, outcome and time, then only those calls show, and Older / Newer page through them by cursor", async () => {
    // 60 calls of one tool by ana's agent: more than one page of 50
    for (let i = 0; i < 60; i++) await mcp(claude, "list_boards", {});
    const failed = await callTool<{ error: { code: string } }>(claude, "get_task_activity", {
      boardId: boards.produto,
      taskId: randomUUID(),
    });
    expect(failed.isError).toBe(true);
    const code = failed.data.error.code;
    await page.getByRole("link", { name: "Activity" }).click();
    await page.getByRole("heading", { name: "Recent tool calls" }).waitFor();
    await page.getByRole("textbox", { name: "Agent" }).fill("claude");
    await page.getByRole("textbox", { name: "Tool" }).fill("list_boards");
    await page.getByRole("button", { name: "Filter", exact: true }).click();
    await page.getByText("Page 1").waitFor();
    await expect.poll(() => page.locator("tbody tr").count()).toBe(50);
    const first = await page.locator("tbody tr").first().textContent();
    for (const text of await page.locator("tbody tr").allTextContents()) expect(text).toMatch(/list_boards.*claude/);
    await page.getByRole("button", { name: "Older calls" }).click();
    await page.getByText("Page 2").waitFor();
    await expect.poll(() => page.locator("tbody tr").count()).toBe(10);
    expect(await page.getByRole("button", { name: "Older calls" }).isDisabled()).toBe(true);
    await page.getByRole("button", { name: "Newer calls" }).click();
    await page.getByText("Page 1").waitFor();
    await expect.poll(() => page.locator("tbody tr").first().textContent()).toBe(first);
    // outcome: the one failed call; a time range in the future: nothing
    await page.getByRole("textbox", { name: "Tool" }).fill("");
    await page.getByRole("combobox", { name: "Outcome" }).fill(code);
    await page.getByRole("button", { name: "Filter", exact: true }).click();
    await expect.poll(() => page.locator("tbody tr").count()).toBe(1);
    await expect(page.locator("tbody tr").textContent()).resolves.toMatch(new RegExp(`get_task_activity.*claude.*${code}`));
    await page.getByLabel("From", { exact: true }).fill("2099-01-01T00:00");
    await page.getByRole("button", { name: "Filter", exact: true }).click();
    await page.getByText("No tool calls match these filters.").waitFor();
    await page.getByRole("button", { name: "Clear filters" }).click();
    await expect.poll(() => page.locator("tbody tr").count()).toBe(50);
    await shot(page, "activity");
  });

  it("when the screen is 390 px wide, then the inbox and the Activity page stack their tables into cards and nothing is cut off sideways", async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    await noSidewaysScroll();
    expect(await page.locator("table.stacked thead").evaluate((head) => getComputedStyle(head).position)).toBe("absolute");
    await page.getByRole("link", { name: /^Inbox/ }).click();
    await page.getByRole("heading", { name: "Inbox", level: 1 }).waitFor();
    await card("Textos e fotos").waitFor();
    await noSidewaysScroll();
    await shot(page, "narrow");
    await page.setViewportSize({ width: 1280, height: 900 });
  });

  it("then no page logged an error, broke the CSP or threw", () => {
    expect(problems).toEqual([]);
  });
});
