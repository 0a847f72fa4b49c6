/**
 * The console's draft page in Chromium against a real stack (gateway, drafts with its submission worker, Postgres):
 * a draft opens from its workspace; caption and accounts are saved through the REST API at the revision read, and a
 * stale revision shows a conflict that overwrites nothing; an uploaded image is listed with its preview; a submission
 * is followed until the worker's result (accepted or refused) reads as a sentence; another account's draft is never
 * reached; the page fits a 390 px wide phone; nothing logs an error.
 */
import { randomUUID } from "node:crypto";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import type { Stack } from "@bancada/e2e";
import { browserUnsupported, launchBrowser, screenshotDir, type TestBrowser } from "./browser.js";
import { buildConsole, startConsoleStack } from "./stack.js";

interface Draft {
  id: string;
  revision: number;
  state: string;
  caption: string;
  account_ids: string[];
  assets: { id: string; filename: string; mime: string }[];
  submit_error: string | null;
}

/** A 1×1 PNG: its first bytes make the service store it as image/png. */
const pixel = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==", "base64");

async function shot(page: Page, name: string): Promise<void> {
  if (screenshotDir) await page.screenshot({ path: path.join(screenshotDir, `console-${name}.png`), fullPage: true });
}

describe.skipIf(browserUnsupported !== null)("the console's draft page in Chromium", () => {
  let stack: Stack;
  let built: Awaited<ReturnType<typeof buildConsole>>;
  let browser: TestBrowser;
  let page: Page;
  let key: string;
  let workspaceId: string;
  let draftId: string;
  const problems: string[] = [];

  /** A REST call with a key, answering the status and the JSON body. */
  async function rest<T>(method: string, route: string, body?: unknown, as = key): Promise<{ status: number; body: T }> {
    const response = await fetch(`${stack.baseUrl}${route}`, {
      method,
      headers: { authorization: `Bearer ${as}`, ...(body === undefined ? {} : { "content-type": "application/json" }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return { status: response.status, body: (await response.json()) as T };
  }
  const readDraft = async (id = draftId) => (await rest<{ draft: Draft }>("GET", `/v1/workspaces/${workspaceId}/drafts/${id}`)).body.draft;
  async function makeDraft(as: string, workspace: string, fields: Record<string, unknown>): Promise<string> {
    const made = await rest<{ draft: Draft }>("POST", `/v1/workspaces/${workspace}/drafts`, { request_id: randomUUID(), ...fields }, as);
    expect(made.status).toBe(201);
    return made.body.draft.id;
  }
  async function makeWorkspace(as: string, name: string): Promise<string> {
    const made = await rest<{ workspace: { id: string } }>("POST", "/v1/workspaces", { name, request_id: randomUUID() }, as);
    expect(made.status).toBe(201);
    return made.body.workspace.id;
  }

  beforeAll(async () => {
    built = await buildConsole();
    stack = await startConsoleStack(built.dir);
    key = await stack.createKey({
      accountId: "acct-a",
      personId: "ana",
      agentId: "console",
      scopes: ["drafts:read", "drafts:write"],
      allowWrites: true,
    });
    workspaceId = await makeWorkspace(key, "Lançamento");
    draftId = await makeDraft(key, workspaceId, { caption: "Novidade chegando", account_ids: ["instagram:bancada"] });
    browser = await launchBrowser();
    page = await browser.context.newPage();
    page.setDefaultTimeout(10_000);
    page.on("console", (message) => {
      // Chromium logs every 4xx answer as "Failed to load resource"; the conflict and not-found ones are expected here
      if (/^Failed to load resource: the server responded with a status of 40[49]/.test(message.text())) return;
      if (message.type() === "error" || /Content Security Policy|Refused to/i.test(message.text())) problems.push(message.text());
    });
    page.on("pageerror", (error) => problems.push(error.message));
    await page.goto(stack.baseUrl);
    await page.getByLabel("API key").fill(key);
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.getByRole("link", { name: "Drafts", exact: true }).waitFor();
  });
  afterAll(async () => {
    await browser?.close();
    await stack?.stop();
    await built?.remove();
  });

  it("when a draft is opened from its workspace, then its page shows the caption, the accounts and that it is not submitted", async () => {
    await page.goto(`${stack.baseUrl}/#/drafts/${workspaceId}`);
    await page.getByRole("link", { name: "Novidade chegando" }).click();
    await page.getByRole("heading", { name: "Draft in Lançamento", level: 1 }).waitFor();
    expect(page.url()).toContain(`#/drafts/${workspaceId}/${draftId}`);
    expect(await page.getByLabel("Caption").inputValue()).toBe("Novidade chegando");
    await page.getByRole("button", { name: "Remove account instagram:bancada" }).waitFor();
    await page.getByRole("status").filter({ hasText: "Not submitted yet." }).waitFor();
    await page.getByText("No assets.").waitFor();
    await shot(page, "draft");
  });

  it("when the caption and accounts are saved, then REST reads them; when someone saved first, then the page says so, keeps the edits and overwrites nothing", async () => {
    await page.getByLabel("Caption").fill("Novidade chegando amanhã");
    await page.getByLabel("Network").selectOption("x");
    await page.getByLabel("Handle").fill("bancada br");
    await page.getByRole("button", { name: "Add account" }).click();
    await page.getByRole("alert").filter({ hasText: "A handle has 1 to 64 letters" }).waitFor();
    await page.getByLabel("Handle").fill("@bancada_br");
    await page.getByRole("button", { name: "Add account" }).click();
    await page.getByRole("button", { name: "Save draft" }).click();
    await page.getByText(/^revision 2,/).waitFor();
    expect(await readDraft()).toMatchObject({
      revision: 2,
      caption: "Novidade chegando amanhã",
      account_ids: ["instagram:bancada", "x:bancada_br"],
    });

    // someone else saves revision 3 while the page still holds revision 2
    const theirs = await rest("PATCH", `/v1/workspaces/${workspaceId}/drafts/${draftId}`, {
      expected_revision: 2,
      request_id: randomUUID(),
      caption: "A versão da outra pessoa",
    });
    expect(theirs.status).toBe(200);
    await page.getByLabel("Caption").fill("A minha versão");
    await page.getByRole("button", { name: "Save draft" }).click();
    await page.getByRole("alert").filter({ hasText: "you had revision 2; it is now at 3" }).waitFor();
    expect(await page.getByLabel("Caption").inputValue()).toBe("A minha versão");
    expect(await readDraft()).toMatchObject({ revision: 3, caption: "A versão da outra pessoa" });
    // saving again still refuses: the page never retries at the new revision on its own
    await page.getByRole("button", { name: "Save draft" }).click();
    await page.getByRole("alert").filter({ hasText: "Nothing was saved" }).waitFor();
    expect((await readDraft()).revision).toBe(3);
    await shot(page, "draft-conflict");
    await page.getByRole("button", { name: "Load the current version" }).click();
    await page.getByText(/^revision 3,/).waitFor();
    expect(await page.getByLabel("Caption").inputValue()).toBe("A versão da outra pessoa");
    expect(await page.getByRole("alert").count()).toBe(0);
  });

  it("when an image is uploaded, then the draft lists it with a preview read from the REST API's content URL", async () => {
    await page.getByLabel("Image or video file").setInputFiles({ name: "pixel.png", mimeType: "image/png", buffer: pixel });
    await page.getByRole("button", { name: "Upload" }).click();
    const preview = page.getByRole("img", { name: "Preview of pixel.png" });
    await preview.waitFor();
    await page.getByText(`image/png, ${pixel.length} B`).waitFor();
    const shown = await preview.evaluate((img: HTMLImageElement) => ({ src: img.src.slice(0, 22), width: img.naturalWidth }));
    expect(shown).toEqual({ src: "data:image/png;base64,", width: 1 });
    const draft = await readDraft();
    expect(draft.assets).toMatchObject([{ filename: "pixel.png", mime: "image/png" }]);
    expect(draft.revision).toBe(4);
  });

  it("when an asset is marked for removal and the draft saved, then it is gone from the page and from the draft", async () => {
    await page.getByLabel("Image or video file").setInputFiles({ name: "extra.png", mimeType: "image/png", buffer: pixel });
    await page.getByRole("button", { name: "Upload" }).click();
    await page.getByRole("img", { name: "Preview of extra.png" }).waitFor();
    await page.getByLabel("Remove extra.png").check();
    await page.getByRole("button", { name: "Save draft" }).click();
    await page.getByRole("img", { name: "Preview of extra.png" }).waitFor({ state: "detached" });
    expect((await readDraft()).assets.map((asset) => asset.filename)).toEqual(["pixel.png"]);
    await page.getByRole("img", { name: "Preview of pixel.png" }).waitFor();
  });

  it("when the draft is submitted, then the page follows the queue until the result: accepted in a sentence, and the draft read-only", async () => {
    await page.getByRole("button", { name: "Submit draft" }).click();
    await page
      .getByRole("status")
      .filter({ hasText: /^Submitted .*: the publishing pipeline accepted it\.$/ })
      .waitFor();
    expect((await readDraft()).state).toBe("submitted");
    await page.getByText("It was submitted: it cannot change any more.").waitFor();
    await page.getByText("A versão da outra pessoa").waitFor();
    expect(await page.getByRole("button", { name: /Save draft|Submit draft|Upload/ }).count()).toBe(0);
    await page.getByRole("img", { name: "Preview of pixel.png" }).waitFor();
    await shot(page, "draft-submitted");
  });

  it("when a draft the worker refuses is submitted, then the page shows the refusal in a sentence and the draft can change again", async () => {
    const refused = await makeDraft(key, workspaceId, { caption: "Sem contas" });
    await page.goto(`${stack.baseUrl}/#/drafts/${workspaceId}/${refused}`);
    await page.getByRole("button", { name: "Submit draft" }).click();
    await page
      .getByRole("status")
      .filter({ hasText: "The last submission failed: The draft has no social account to go to. Change the draft and submit it again." })
      .waitFor();
    expect(await readDraft(refused)).toMatchObject({ state: "draft", submit_error: "The draft has no social account to go to." });
    expect(await page.getByLabel("Caption").isDisabled()).toBe(false);
  });

  it("when New draft is clicked in a workspace, then an empty draft is made and its page opens for editing", async () => {
    await page.goto(`${stack.baseUrl}/#/drafts/${workspaceId}`);
    await page.getByRole("button", { name: "New draft" }).click();
    await page.getByRole("heading", { name: "Draft in Lançamento", level: 1 }).waitFor();
    const made = decodeURIComponent(page.url().split(`#/drafts/${workspaceId}/`)[1]!);
    expect(await readDraft(made)).toMatchObject({ revision: 1, state: "draft", caption: "", account_ids: [] });
    expect(await page.getByLabel("Caption").isDisabled()).toBe(false);
    await page.getByText("No accounts yet: add one below.").waitFor();
  });

  it("when a viewer of the workspace opens a draft, then they read it with its assets, with no control to change it and the reason why", async () => {
    const member = await rest("PUT", `/v1/workspaces/${workspaceId}/members/bia`, { role: "viewer" });
    expect(member.status).toBe(201);
    const bia = await stack.createKey({
      accountId: "acct-a",
      personId: "bia",
      agentId: "console",
      scopes: ["drafts:read", "drafts:write"],
      allowWrites: true,
    });
    const viewer = await browser.context.newPage();
    try {
      await viewer.goto(stack.baseUrl);
      await viewer.getByLabel("API key").fill(bia);
      await viewer.getByRole("button", { name: "Sign in" }).click();
      await viewer.getByRole("link", { name: "Drafts", exact: true }).waitFor();
      await viewer.goto(`${stack.baseUrl}/#/drafts/${workspaceId}/${draftId}`);
      await viewer.getByRole("heading", { name: "Draft in Lançamento", level: 1 }).waitFor();
      await viewer.getByText("Viewers can read drafts; editors and above change them.").waitFor();
      await viewer.getByText("A versão da outra pessoa").waitFor();
      await viewer.getByRole("img", { name: "Preview of pixel.png" }).waitFor();
      expect(await viewer.getByRole("button", { name: /Save draft|Submit draft|Upload/ }).count()).toBe(0);
      // the route refuses the viewer too, whatever the page shows
      const refused = await rest<{ error: { code: string } }>(
        "PATCH",
        `/v1/workspaces/${workspaceId}/drafts/${draftId}`,
        { expected_revision: 1, request_id: randomUUID(), caption: "x" },
        bia,
      );
      expect(refused.body.error.code).toBe("permission_denied");
    } finally {
      await viewer.close();
    }
  });

  it("when another account's draft is opened by its address, then the page answers not found and shows nothing of it", async () => {
    const other = await stack.createKey({
      accountId: "acct-b",
      personId: "ana",
      agentId: "b",
      scopes: ["drafts:read", "drafts:write"],
      allowWrites: true,
    });
    const foreignWorkspace = await makeWorkspace(other, "Segredo da B");
    const foreign = await makeDraft(other, foreignWorkspace, { caption: "Legenda secreta" });
    await page.goto(`${stack.baseUrl}/#/drafts/${foreignWorkspace}/${foreign}`);
    await page.getByRole("alert").filter({ hasText: "not_found" }).waitFor();
    expect(await page.locator("main").textContent()).not.toMatch(/Segredo da B|Legenda secreta/);
    // the console was refused, not the foreign draft changed: the other account still reads it intact
    expect(
      (await rest<{ draft: Draft }>("GET", `/v1/workspaces/${foreignWorkspace}/drafts/${foreign}`, undefined, other)).body.draft,
    ).toMatchObject({
      revision: 1,
      caption: "Legenda secreta",
    });
  });

  it("when the page is 390 px wide, then nothing is cut off horizontally", async () => {
    const wide = await makeDraft(key, workspaceId, {
      caption: "Uma legenda longa ".repeat(20),
      account_ids: ["instagram:uma_conta_com_um_nome_bem_comprido_de_verdade", "linkedin:bancada"],
    });
    await page.setViewportSize({ width: 390, height: 844 });
    try {
      await page.goto(`${stack.baseUrl}/#/drafts/${workspaceId}/${wide}`);
      await page.getByRole("heading", { name: "Draft in Lançamento" }).waitFor();
      expect(await page.evaluate(() => document.scrollingElement!.scrollWidth)).toBeLessThanOrEqual(390);
      await page.goto(`${stack.baseUrl}/#/drafts/${workspaceId}/${draftId}`);
      await page.getByRole("img", { name: "Preview of pixel.png" }).waitFor();
      expect(await page.evaluate(() => document.scrollingElement!.scrollWidth)).toBeLessThanOrEqual(390);
      await shot(page, "draft-phone");
    } finally {
      await page.setViewportSize({ width: 1280, height: 900 });
    }
  });

  it("when the browser's language is Portuguese, then the draft page and its result read in Portuguese", async () => {
    const pt = await launchBrowser({ locale: "pt-BR" });
    try {
      const ptPage = await pt.context.newPage();
      await ptPage.goto(stack.baseUrl);
      await ptPage.getByLabel("Chave de API").fill(key);
      await ptPage.getByRole("button", { name: "Entrar" }).click();
      await ptPage.getByRole("link", { name: "Rascunhos", exact: true }).waitFor();
      await ptPage.goto(`${stack.baseUrl}/#/drafts/${workspaceId}/${draftId}`);
      await ptPage.getByRole("heading", { name: "Rascunho em Lançamento", level: 1 }).waitFor();
      await ptPage
        .getByRole("status")
        .filter({ hasText: /^Enviado .*: o fluxo de publicação o aceitou\.$/ })
        .waitFor();
      await ptPage.getByRole("img", { name: "Pré-visualização de pixel.png" }).waitFor();
    } finally {
      await pt.close();
    }
  });

  it("then no page logged an error, broke the CSP or threw", () => {
    expect(problems).toEqual([]);
  });
});
