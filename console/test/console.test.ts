/**
 * The web console end to end, in real Chromium against a real stack (gateway, boards, drafts, Postgres, the bus):
 * sign in with an API key, create a board, an agent proposes over MCP, the page shows the proposal, Apply moves
 * the task exactly as the REST route does (the agent sees the move over MCP), Reject leaves it, a stale
 * suggestion shows as obsolete; another account's boards never appear; the keys page shows no secret; a
 * revoked key is signed out; a key without a scope sees the area disabled with the reason.
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
const allScopes = ["boards:read", "boards:write", "drafts:read", "drafts:write", "keys:read", "keys:write", "audit:read"];

async function shot(page: Page, name: string): Promise<void> {
  if (screenshotDir) await page.screenshot({ path: path.join(screenshotDir, `console-${name}.png`), fullPage: true });
}

describe.skipIf(browserUnsupported !== null)("the web console in Chromium", () => {
  let stack: Stack;
  let built: Awaited<ReturnType<typeof buildConsole>>;
  let browser: TestBrowser;
  let page: Page;
  let agent: Client;
  let anaKey: string;
  let boardId: string;
  const violations: string[] = [];

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
    browser = await launchBrowser();
    page = await browser.context.newPage();
    page.setDefaultTimeout(10_000);
    page.on("console", (message) => {
      if (/Content Security Policy|Refused to/i.test(message.text())) violations.push(message.text());
    });
    page.on("pageerror", (error) => violations.push(error.message));
  });
  afterAll(async () => {
    await agent?.close();
    await browser?.close();
    await stack?.stop();
    await built?.remove();
  });

  const mcp = async <T>(name: string, args: Record<string, unknown>): Promise<T> => {
    const outcome = await callTool<T>(agent, name, args);
    expect(outcome.isError, outcome.text.slice(0, 300)).toBe(false);
    return outcome.data;
  };
  const taskOverMcp = async (id: string): Promise<Task> => {
    const { tasks } = await mcp<{ tasks: Task[] }>("list_tasks", { boardId });
    return tasks.find((task) => task.id === id)!;
  };
  const suggestionRow = (title: string) => page.locator("tr.suggestion", { has: page.getByRole("cell", { name: title, exact: true }) });

  it("when / is opened, then the console loads under a strict CSP that forbids framing, and asks for an API key", async () => {
    const response = await page.goto(stack.baseUrl);
    expect(response!.status()).toBe(200);
    const csp = response!.headers()["content-security-policy"]!;
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toContain("unsafe-inline");
    await expect(page.getByLabel("API key").isVisible()).resolves.toBe(true);
    // and says where a key comes from
    await expect(page.getByText("No key yet?").textContent()).resolves.toContain("pnpm bancada keys create");
    await shot(page, "sign-in");
  });

  it("when a wrong key is given, then the page says so and stores nothing; the right key signs in and is not shown again", async () => {
    await page.getByLabel("API key").fill("bnc_not-a-key");
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.getByRole("alert").filter({ hasText: "unknown, revoked or expired" }).waitFor();
    expect(await page.evaluate(() => sessionStorage.length)).toBe(0);
    await page.getByLabel("API key").fill(anaKey);
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.getByRole("heading", { name: "Boards" }).waitFor();
    expect(await page.content()).not.toContain(anaKey);
    expect(await page.evaluate(() => Object.keys(sessionStorage))).toEqual(["bancada.apiKey"]);
    expect(await page.evaluate(() => Object.keys(localStorage).length)).toBe(0);
  });

  it("when a board is created with New board, then its page shows the Eisenhower grid with the default quadrant titles in the interface's language, and the backlog", async () => {
    await page.getByLabel("Name").fill("Produto");
    await page.getByRole("button", { name: "Create" }).click();
    await page.getByRole("heading", { name: "Produto", level: 1 }).waitFor();
    boardId = decodeURIComponent(page.url().split("#/boards/")[1]!);
    // the service keeps its default titles in Portuguese; an English interface shows them in English
    for (const title of ["Do now", "Schedule", "Delegate", "Eliminate", "Backlog"])
      await page.getByRole("heading", { name: title, level: 3 }).waitFor();
    expect(await page.getByRole("heading", { name: "Fazer agora" }).count()).toBe(0);
  });

  let first: Task, second: Task, third: Task;
  it("when an agent creates tasks and submits a proposal over MCP, then the page shows its summary and each suggestion: task, from → to, reason", async () => {
    const make = async (title: string) =>
      (await mcp<{ task: Task }>("create_task", { requestId: randomUUID(), boardId, title, dueDate: "2026-10-03" })).task;
    first = await make("Revisar proposta");
    second = await make("Responder cliente");
    third = await make("Atualizar site");
    await mcp("submit_board_proposal", {
      requestId: randomUUID(),
      boardId,
      summary: "Revise as prioridades <b>antes</b> de aplicar mudanças.",
      suggestions: [
        { taskId: first.id, version: first.version, quadrant: "urgent-important", reason: "prazo curto" },
        { taskId: second.id, version: second.version, quadrant: "not-urgent-important", reason: "pode esperar" },
        { taskId: third.id, version: third.version, quadrant: "urgent-not-important", reason: "outra pessoa faz" },
      ],
    });
    // the agent changes the third task after proposing: its suggestion is stale now
    await mcp("update_task", { requestId: randomUUID(), boardId, taskId: third.id, expectedVersion: 1, title: "Atualizar site" + "!" });
    await page.reload();
    await page.getByText("Revise as prioridades <b>antes</b> de aplicar mudanças.").waitFor();
    const row = suggestionRow("Revisar proposta");
    await expect(row.textContent()).resolves.toMatch(/Backlog → Do now.*prazo curto.*pending/);
    await shot(page, "board");
  });

  it("when Apply is clicked, then the task moves exactly as the REST route moves it, and the agent sees the move over MCP", async () => {
    await page.getByRole("button", { name: "Apply: Revisar proposta" }).click();
    await suggestionRow("Revisar proposta").locator(".badge", { hasText: "applied" }).waitFor();
    await page.locator('[data-quadrant="urgent-important"]').getByText("Revisar proposta").waitFor();
    expect(await taskOverMcp(first.id)).toMatchObject({ quadrant: "urgent-important", version: 2, status: "active" });
  });

  it("when Reject is clicked, then the task stays where it was", async () => {
    await page.getByRole("button", { name: "Reject: Responder cliente" }).click();
    await suggestionRow("Responder cliente").locator(".badge", { hasText: "rejected" }).waitFor();
    expect(await taskOverMcp(second.id)).toMatchObject({ quadrant: "backlog", version: 1 });
  });

  it("when a stale suggestion is applied, then it shows as obsolete with the versions, and nothing moves", async () => {
    await page.getByRole("button", { name: "Apply: Atualizar site!" }).click();
    const row = suggestionRow("Atualizar site!");
    await row.locator(".badge", { hasText: "obsolete" }).waitFor();
    await expect(row.getByRole("status").textContent()).resolves.toMatch(/changed after the suggestion \(suggested at version 1, now 2\)/);
    expect(await taskOverMcp(third.id)).toMatchObject({ quadrant: "backlog", version: 2 });
    await page.getByRole("button", { name: "Close summary" }).click();
    await page.getByText(/Closed /).waitFor();
    await shot(page, "proposals");
  });

  it("when a task's menu is used, then it moves, completes and reopens through the REST routes, as the agent sees", async () => {
    await page.getByLabel("Actions for Responder cliente").click();
    await page.getByRole("button", { name: "Move to Schedule" }).click();
    await page.locator('[data-quadrant="not-urgent-important"]').getByText("Responder cliente").waitFor();
    expect(await taskOverMcp(second.id)).toMatchObject({ quadrant: "not-urgent-important", version: 2 });
    await page.getByLabel("Actions for Responder cliente").click();
    await page.getByRole("button", { name: "Complete" }).click();
    await page.locator('[data-quadrant="closed"]').getByText("Responder cliente").waitFor();
    expect(await taskOverMcp(second.id)).toMatchObject({ status: "completed" });
    await page.getByLabel("Actions for Responder cliente").click();
    await page.getByRole("button", { name: "Reopen" }).click();
    await page.locator('[data-quadrant="not-urgent-important"]').getByText("Responder cliente").waitFor();
    expect(await taskOverMcp(second.id)).toMatchObject({ status: "active", quadrant: "not-urgent-important", version: 4 });
  });

  it("when a task is edited from its menu, then its tags are set and its due date removed (the app may remove it), as the agent sees; tags rename and delete", async () => {
    await page.getByLabel("Tag name").fill("Cliente");
    await page.getByRole("button", { name: "Create tag" }).click();
    await page.locator(".tag-list .tag", { hasText: "Cliente" }).waitFor();
    await page.getByLabel("Actions for Revisar proposta").click();
    await page.getByRole("button", { name: "Edit" }).click();
    const form = page.getByRole("form", { name: "Edit Revisar proposta" });
    await form.getByLabel("Due date").fill("");
    await form.getByLabel("Cliente").check();
    await form.getByRole("button", { name: "Save task" }).click();
    await page
      .locator('[data-quadrant="urgent-important"] .task', { hasText: "Revisar proposta" })
      .locator(".tag", { hasText: "Cliente" })
      .waitFor();
    const task = (await taskOverMcp(first.id)) as Task & { due_date: string | null; tags: { name: string }[] };
    expect(task).toMatchObject({ due_date: null, version: 3, tags: [{ name: "Cliente" }] });
    await page.getByLabel("New name for Cliente").fill("Clientes");
    await page.getByRole("button", { name: "Rename" }).click();
    await page.locator('[data-quadrant="urgent-important"] .tag', { hasText: "Clientes" }).waitFor();
    await page.getByRole("button", { name: "Delete tag Clientes" }).click();
    await page.getByText("No tags.").waitFor();
    expect(((await taskOverMcp(first.id)) as Task & { tags: unknown[] }).tags).toEqual([]);
  });

  it("when the owner renames a quadrant, then the grid, the menus and the agent's list_boards show the new title as written; reset restores the default", async () => {
    await page.getByLabel("Customise Do now").click();
    await page.getByLabel("Quadrant title").first().fill("Agora");
    await page.getByRole("button", { name: "Save quadrant" }).first().click();
    await page.getByRole("heading", { name: "Agora", exact: true, level: 3 }).waitFor();
    const { boards } = await mcp<{ boards: { id: string; quadrants: { id: string; title: string; customized: boolean }[] }[] }>(
      "list_boards",
      {},
    );
    expect(boards.find((b) => b.id === boardId)!.quadrants[0]).toMatchObject({ id: "urgent-important", title: "Agora", customized: true });
    await page.getByLabel("Actions for Responder cliente").click();
    await page.getByRole("button", { name: "Move to Agora" }).waitFor();
    await page.getByLabel("Actions for Responder cliente").click();
    await page.getByLabel("Customise Agora").click();
    await page.getByRole("button", { name: "Reset to default" }).click();
    await page.getByRole("heading", { name: "Do now", level: 3 }).waitFor();
  });

  it("when another account has boards, then they never appear, and reaching one by id answers not found", async () => {
    const other = await stack.createKey({ accountId: "acct-b", personId: "ana", agentId: "b", scopes: allScopes, allowWrites: true });
    const created = await fetch(`${stack.baseUrl}/v1/boards`, {
      method: "POST",
      headers: { authorization: `Bearer ${other}`, "content-type": "application/json" },
      body: JSON.stringify({ requestId: randomUUID(), name: "Segredo da B" }),
    });
    expect(created.status).toBe(201);
    const foreign = ((await created.json()) as { board: { id: string } }).board.id;
    await page.getByRole("link", { name: "Boards", exact: true }).click();
    await page.getByRole("link", { name: "Produto" }).waitFor();
    expect(await page.getByText("Segredo da B").count()).toBe(0);
    await shot(page, "boards");
    await page.goto(`${stack.baseUrl}/#/boards/${foreign}`);
    await page.getByRole("alert").filter({ hasText: "Board not found or not accessible" }).waitFor();
    await shot(page, "foreign-board");
  });

  it("when the keys page is opened, then it lists the person's keys without a secret; a new key is shown once with an MCP configuration", async () => {
    await page.goto(`${stack.baseUrl}/#/keys`);
    await page.getByRole("heading", { name: "API keys" }).waitFor();
    await page.locator("tr", { hasText: "claude" }).waitFor();
    expect(await page.locator("tbody tr").count()).toBe(2);
    expect(await page.content()).not.toMatch(/bnc_[A-Za-z0-9_-]{20,}/);
    await page.getByLabel("Label").fill("laptop");
    await page.getByLabel("boards:read").check();
    await page.getByRole("button", { name: "Create key" }).click();
    const secret = await page.getByLabel("Secret").inputValue();
    expect(secret).toMatch(/^bnc_/);
    expect(JSON.parse(await page.getByLabel("MCP client configuration").inputValue())).toEqual({
      mcpServers: { bancada: { type: "http", url: `${stack.baseUrl}/mcp`, headers: { Authorization: `Bearer ${secret}` } } },
    });
    expect((await (await connectClient(stack.mcpUrl, secret)).listTools()).tools.map((tool) => tool.name)).toContain("list_boards");
    await shot(page, "keys");
    await page.getByRole("button", { name: "I have copied it" }).click();
    expect(await page.content()).not.toContain(secret);
    await expect(page.locator("tr", { hasText: "laptop" }).textContent()).resolves.toContain("boards:read");
  });

  it("when the activity page is opened, then the account's recent tool calls appear with agent and outcome, never their arguments", async () => {
    await page.getByRole("link", { name: "Activity" }).click();
    await page.getByRole("heading", { name: "Recent tool calls" }).waitFor();
    const proposal = page.locator("tr", { hasText: "submit_board_proposal" });
    await expect(proposal.textContent()).resolves.toMatch(/claude.*ok/);
    expect(await page.locator("tr", { hasText: "create_task" }).count()).toBe(3);
    expect(await page.locator("main").textContent()).not.toMatch(/prazo curto|Revisar proposta/);
    await shot(page, "activity");
  });

  it("when a workspace is created with New workspace and a draft is made, then the workspace shows its members and the draft's state", async () => {
    await page.getByRole("link", { name: "Drafts" }).click();
    await page.getByLabel("Workspace name").fill("Lançamento");
    await page.getByRole("button", { name: "Create workspace" }).click();
    await page.getByRole("link", { name: "Lançamento" }).click();
    await page.getByRole("heading", { name: "Lançamento", level: 1 }).waitFor();
    const workspaceId = decodeURIComponent(page.url().split("#/drafts/")[1]!);
    const made = await fetch(`${stack.baseUrl}/v1/workspaces/${workspaceId}/drafts`, {
      method: "POST",
      headers: { authorization: `Bearer ${anaKey}`, "content-type": "application/json" },
      body: JSON.stringify({ request_id: randomUUID(), caption: "Novidade chegando", account_ids: ["instagram:bancada"] }),
    });
    expect(made.status).toBe(201);
    await page.reload();
    await expect(page.locator("tr", { hasText: "Novidade chegando" }).textContent()).resolves.toMatch(/draft.*not submitted/);
    await expect(page.locator("tr", { hasText: "ana" }).first().textContent()).resolves.toContain("owner");
    await shot(page, "drafts");
  });

  it("when the signed-in key is revoked elsewhere, then the next step signs out and forgets it", async () => {
    const mine = (await stack.gateway.keys.list({ accountId: "acct-a", personId: "ana" })).find((key) => key.agentId === "console")!;
    await stack.gateway.keys.revoke(mine.id);
    await page.getByRole("link", { name: "Boards", exact: true }).click();
    await page.getByRole("status").filter({ hasText: "stopped working" }).waitFor();
    await page.getByLabel("API key").waitFor();
    expect(await page.evaluate(() => sessionStorage.length)).toBe(0);
  });

  it("when a key lacks a scope or writes, then that area is disabled with the reason", async () => {
    const reader = await stack.createKey({
      accountId: "acct-a",
      personId: "ana",
      agentId: "reader",
      scopes: ["boards:read"],
      allowWrites: false,
    });
    await page.getByLabel("API key").fill(reader);
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.getByRole("link", { name: "Produto" }).waitFor();
    await expect(page.getByRole("navigation").textContent()).resolves.toContain("Keys (Your key lacks the scope keys:read.)");
    expect(await page.getByRole("button", { name: "Create" }).isDisabled()).toBe(true);
    await page.getByText("Your key lacks the scope boards:write.").first().waitFor();
    await page.getByRole("link", { name: "Produto" }).click();
    expect(await page.getByRole("button", { name: "Apply" }).count()).toBe(0);
    await page.getByRole("button", { name: "Sign out" }).click();
    await page.getByLabel("API key").waitFor();
    expect(await page.evaluate(() => sessionStorage.length)).toBe(0);
  });

  it("when the browser's language is Portuguese, then the labels are Portuguese", async () => {
    const pt = await launchBrowser({ locale: "pt-BR" });
    try {
      const ptPage = await pt.context.newPage();
      await ptPage.goto(stack.baseUrl);
      await ptPage.getByLabel("Chave de API").waitFor({ timeout: 10_000 });
      expect(await ptPage.getByRole("button", { name: "Entrar" }).count()).toBe(1);
    } finally {
      await pt.close();
    }
  });

  it("then no page broke the CSP or threw", () => {
    expect(violations).toEqual([]);
  });
});
