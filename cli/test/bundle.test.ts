/**
 * The bundle a start runs (cli/scripts/bundle.mjs, bin/bundle-loader.mjs): used only while every source
 * it was built from is unchanged, and, when used, the same Bancada as the sources — every service's tools,
 * migrations and the docs demo corpus found in the sources' folders, also from V8's code cache.
 */
import { execFile } from "node:child_process";
import { mkdtemp, readFile, readdir, rm, stat, utimes, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { callTool, connectClient, freshDatabase, type TestDatabase } from "@bancada/testkit";
import { bundleBanner, freshBundle, runBundle } from "../bin/bundle-loader.mjs";
import { startBancada } from "./start-bancada.js";

const run = promisify(execFile);
const bundleScript = path.join(import.meta.dirname, "../scripts/bundle.mjs");
const loader = path.join(import.meta.dirname, "../bin/bundle-loader.mjs");

describe("the freshness of a bundle", () => {
  let dir: string;
  const builtAt = Date.parse("2026-01-01T00:00:00Z");
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), "bancada-fresh-"));
  });
  afterAll(async () => rm(dir, { recursive: true, force: true }));

  async function manifestOver(files: Record<string, string>): Promise<void> {
    for (const [name, text] of Object.entries(files)) {
      await writeFile(path.join(dir, name), text);
      await utimes(path.join(dir, name), new Date(builtAt - 60_000), new Date(builtAt - 60_000));
    }
    const sizes = Object.fromEntries(Object.entries(files).map(([name, text]) => [name, Buffer.byteLength(text)]));
    await writeFile(path.join(dir, "bancada.json"), JSON.stringify({ id: "b1", builtAt, root: ".", files: sizes }));
  }

  it("when no source changed since the build, then it is fresh", async () => {
    await manifestOver({ "a.ts": "export const a = 1;", "b.ts": "export {};" });
    expect(freshBundle(dir)?.id).toBe("b1");
  });

  it("when a source was modified at the build's millisecond, then it is still fresh; one millisecond later, then it is stale", async () => {
    await manifestOver({ "a.ts": "export const a = 1;" });
    await utimes(path.join(dir, "a.ts"), new Date(builtAt), new Date(builtAt));
    expect(freshBundle(dir)).toBeDefined();
    await utimes(path.join(dir, "a.ts"), new Date(builtAt + 1), new Date(builtAt + 1));
    expect(freshBundle(dir)).toBeUndefined();
  });

  it("when a source changed size (an old modification time kept) or is gone, then it is stale", async () => {
    await manifestOver({ "a.ts": "export const a = 1;", "b.ts": "export {};" });
    await writeFile(path.join(dir, "a.ts"), "export const a = 12;");
    await utimes(path.join(dir, "a.ts"), new Date(builtAt - 60_000), new Date(builtAt - 60_000));
    expect(freshBundle(dir)).toBeUndefined();
    await manifestOver({ "a.ts": "export const a = 1;", "b.ts": "export {};" });
    await rm(path.join(dir, "b.ts"));
    expect(freshBundle(dir)).toBeUndefined();
  });

  it("when the manifest is missing or unreadable, then there is no bundle to run", async () => {
    await rm(path.join(dir, "bancada.json"), { force: true });
    expect(freshBundle(dir)).toBeUndefined();
    await writeFile(path.join(dir, "bancada.json"), "{ half a manif");
    expect(freshBundle(dir)).toBeUndefined();
  });

  it("when the bundle on disk is another build than the manifest names, then nothing runs", async () => {
    await writeFile(path.join(dir, "bancada.cjs"), `${bundleBanner("b2")}\nglobalThis.bancadaRan = true;\n`);
    expect(runBundle(dir, { id: "b1", builtAt, files: {} })).toBe(false);
    expect((globalThis as { bancadaRan?: boolean }).bancadaRan).toBeUndefined();
  });
});

// Builds a bundle of its own (another test run's edits never make it stale midway) and runs it as the bin would.
describe("a start from the bundle", { timeout: 240_000 }, () => {
  let dist: string;
  let database: TestDatabase;
  let env: NodeJS.ProcessEnv;
  let launcher: string;

  beforeAll(async () => {
    dist = await mkdtemp(path.join(tmpdir(), "bancada-bundle-"));
    await run(process.execPath, [bundleScript, "--out-dir", dist], { timeout: 120_000 });
    launcher = path.join(dist, "launch.mjs");
    await writeFile(
      launcher,
      [
        `import { readFileSync } from "node:fs";`,
        `import { runBundle } from ${JSON.stringify(loader)};`,
        `const dist = ${JSON.stringify(dist)};`,
        `if (!runBundle(dist, JSON.parse(readFileSync(dist + "/bancada.json", "utf8")))) throw new Error("the bundle did not run");`,
      ].join("\n"),
    );
    database = await freshDatabase("bancada_bundle");
    const { NATS_URL: _nats, ...rest } = process.env;
    env = {
      ...rest,
      DATABASE_URL: database.url,
      BANCADA_KEY_PEPPER: "bundle-test-pepper-not-a-secret",
      BOXES_SECRETS_KEY: Buffer.alloc(32, "bundle-test-secrets-key").toString("base64"),
      LOG_LEVEL: "warn",
      DOCS_DEMO_CORPUS: "1",
      PORT: "0",
    };
  }, 180_000);
  afterAll(async () => {
    await database?.drop();
    if (dist) await rm(dist, { recursive: true, force: true });
  });

  it("when built, then it is one ASCII script with no raw import() and its manifest lists our sources, not node_modules", async () => {
    const manifest = JSON.parse(await readFile(path.join(dist, "bancada.json"), "utf8")) as { id: string; files: Record<string, number> };
    const code = await readFile(path.join(dist, "bancada.cjs"), "utf8");
    expect(code.startsWith(bundleBanner(manifest.id))).toBe(true);
    expect(code).not.toMatch(/[^\x00-\x7f]/); // read without decoding UTF-8
    expect(Object.keys(manifest.files)).toEqual(
      expect.arrayContaining(["cli/src/main.ts", "gateway/src/gateway.ts", "services/docs/src/ingest/demo-corpus.ts"]),
    );
    expect(Object.keys(manifest.files).filter((file) => file.includes("node_modules/.pnpm"))).toEqual([]);
    expect(code).not.toMatch(/\bimport\("(node:|\.\.?\/|@)/);
    expect(code).toContain('__bancadaImport("node:buffer")');
  });

  it("when started from it, then every service's tools answer, with migrations and the demo corpus read from the sources' folders, and again from the code cache", async () => {
    const created = await run(
      process.execPath,
      [
        launcher,
        "keys",
        "create",
        "--account",
        "acme",
        "--person",
        "ana",
        "--agent",
        "bundle",
        "--scopes",
        "all",
        "--allow-writes",
        "--json",
      ],
      {
        env,
        timeout: 120_000,
      },
    );
    const { key } = JSON.parse(created.stdout) as { key: string };
    const cache = async () => (await readdir(dist)).filter((name) => name.endsWith(".cache"));
    expect(await cache()).toHaveLength(1); // written when `keys create` exited
    const cacheFile = path.join(dist, (await cache())[0]!);
    const thin = (await stat(cacheFile)).size;

    const started = await startBancada(env, launcher);
    const client = await connectClient(started.url, key);
    const names = (await client.listTools()).tools.map((tool) => tool.name);
    expect(names).toEqual(
      expect.arrayContaining(["create_script", "list_boards", "search_documents", "sosoapi_create_content_draft", "create_box"]),
    );
    const found = await callTool<{ results: { title: string }[] }>(client, "search_documents", { query: "Getting started" });
    expect(found.isError).toBe(false);
    expect(found.data.results.map((result) => result.title)).toContain("Getting started");
    const script = await callTool<{ script: { id: string; createdBy: string } }>(client, "create_script", {
      title: "from the bundle",
      text: "hi",
    });
    expect(script.data.script.createdBy).toBe("ana");
    await client.close();
    expect(await started.stop()).toBe(0);

    // the start compiled much more than `keys create`: its richer cache replaced the thin one
    expect((await stat(cacheFile)).size).toBeGreaterThan(thin * 1.1);
    const again = await startBancada(env, launcher);
    const second = await connectClient(again.url, key);
    const read = await callTool<{ script: { title: string } }>(second, "get_script", { id: script.data.script.id });
    expect(read.data.script.title).toBe("from the bundle");
    await second.close();
    expect(await again.stop()).toBe(0);
    expect(await cache()).toEqual([path.basename(cacheFile)]);
  });
});
