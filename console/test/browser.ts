/**
 * Real Chromium for the console's tests, driven by playwright-core: the system's /usr/bin/chromium (CI installs
 * the Debian package), headless, with a fresh profile that is removed afterwards, and nothing that reaches out to
 * the network on its own. `close()` ends the browser and removes the profile even after a failed test.
 */
import { existsSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { chromium, type BrowserContext } from "playwright-core";

export const chromiumPath = process.env.BANCADA_CHROMIUM ?? "/usr/bin/chromium";

/** Why the browser tests cannot run here, or null. */
export const browserUnsupported = existsSync(chromiumPath) ? null : `no Chromium at ${chromiumPath} (apt-get install chromium)`;

export interface TestBrowser {
  context: BrowserContext;
  close(): Promise<void>;
}

export async function launchBrowser(options: { locale?: string } = {}): Promise<TestBrowser> {
  const profile = await mkdtemp(path.join(tmpdir(), "bancada-chromium-"));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: chromiumPath,
    headless: true,
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
    locale: options.locale ?? "en-GB",
    viewport: { width: 1280, height: 900 },
    timeout: 30_000,
  });
  return {
    context,
    async close() {
      await context.close().catch(() => {});
      await rm(profile, { recursive: true, force: true });
    },
  };
}

/** Where screenshots go when asked for (BANCADA_CONSOLE_SCREENSHOTS=<dir>); tests take none otherwise. */
export const screenshotDir = process.env.BANCADA_CONSOLE_SCREENSHOTS;
