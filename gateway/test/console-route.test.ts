/** The web console at `/`: its built files under a strict CSP, or a clear message when it is not built. */
import { mkdtemp, mkdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startStack, type Stack } from "@bancada/e2e";
import { scriptsFactory } from "./fixtures.js";

describe("the web console route", () => {
  let built: Stack;
  let unbuilt: Stack;
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), "console-dist-"));
    await mkdir(path.join(dir, "assets"));
    await writeFile(path.join(dir, "index.html"), '<!doctype html><script type="module" src="/assets/app-1.js"></script>');
    await writeFile(path.join(dir, "assets", "app-1.js"), "console.log(1)");
    built = await startStack({ services: { scripts: scriptsFactory }, gateway: { consoleDir: dir } });
    unbuilt = await startStack({ services: { scripts: scriptsFactory }, gateway: { consoleDir: path.join(dir, "missing") } });
  });
  afterAll(async () => {
    await built?.stop();
    await unbuilt?.stop();
    await rm(dir, { recursive: true, force: true });
  });

  it("when / is fetched, then index.html answers with a CSP allowing only this origin, no inline script, and no framing", async () => {
    const response = await fetch(`${built.baseUrl}/`);
    expect(response.status).toBe(200);
    expect(await response.text()).toContain("/assets/app-1.js");
    const csp = response.headers.get("content-security-policy")!;
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toMatch(/unsafe-|\*/);
    expect(response.headers.get("x-frame-options")).toBe("DENY");
    expect(response.headers.get("cache-control")).toBe("no-store");
  });

  it("when an asset is fetched, then it is served immutable under the same headers; a missing one is a 404 envelope", async () => {
    const asset = await fetch(`${built.baseUrl}/assets/app-1.js`);
    expect(asset.status).toBe(200);
    expect(asset.headers.get("cache-control")).toContain("immutable");
    expect(asset.headers.get("content-security-policy")).toContain("frame-ancestors 'none'");
    const missing = await fetch(`${built.baseUrl}/assets/nope.js`);
    expect(missing.status).toBe(404);
    expect(((await missing.json()) as { error: { code: string } }).error.code).toBe("not_found");
  });

  it("when the console is not built, then / answers 503 saying how to build it", async () => {
    const response = await fetch(`${unbuilt.baseUrl}/`);
    expect(response.status).toBe(503);
    expect(await response.text()).toMatch(/not built.*pnpm install.*pnpm build/);
  });

  it("when the Host is not one served, then / is refused (DNS rebinding)", async () => {
    const { request } = await import("node:http");
    const status = await new Promise<number>((resolve, reject) => {
      const url = new URL(built.baseUrl);
      request({ host: url.hostname, port: url.port, path: "/", headers: { host: "evil.example" } }, (res) => {
        res.resume();
        resolve(res.statusCode!);
      })
        .on("error", reject)
        .end();
    });
    expect(status).toBe(403);
  });
});
