/**
 * Asset bytes on the host: the data folder and every folder in it are 0700, every blob 0600, so no other
 * user of the machine can list or read a workspace's media; a folder left world-readable by an earlier
 * version is tightened when the service starts. The "other user" is `nobody`, which needs root to become.
 */
import { randomUUID } from "node:crypto";
import { execFile } from "node:child_process";
import { chmod, mkdir, mkdtemp, readdir, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Stack } from "@bancada/e2e";
import { draftsFactory, startDraftsStack } from "./stack.js";
import { closeAll, createDraft, person, png, workspace, type Asset, type Person } from "./helpers.js";

const run = promisify(execFile);
const isRoot = process.getuid?.() === 0;

/** Every folder and file under `root` with its permission bits, as paths relative to it ("." for the root). */
async function modes(root: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  const walk = async (folder: string) => {
    out[path.relative(root, folder) || "."] = ((await stat(folder)).mode & 0o777).toString(8);
    for (const entry of await readdir(folder, { withFileTypes: true })) {
      const target = path.join(folder, entry.name);
      if (entry.isDirectory()) await walk(target);
      else out[path.relative(root, target)] = ((await stat(target)).mode & 0o777).toString(8);
    }
  };
  await walk(root);
  return out;
}

/** Runs `command` as the unprivileged user nobody; resolves with its exit code and output. */
async function asNobody(...command: string[]): Promise<{ code: number; output: string }> {
  return run("setpriv", ["--reuid=nobody", "--regid=nogroup", "--clear-groups", ...command]).then(
    ({ stdout, stderr }) => ({ code: 0, output: stdout + stderr }),
    (error: { code?: number; stdout?: string; stderr?: string }) => ({
      code: error.code ?? 1,
      output: `${error.stdout ?? ""}${error.stderr ?? ""}`,
    }),
  );
}

describe("asset files on the host", () => {
  let stack: Stack;
  let parent: string;
  let dataDir: string;
  let ana: Person;
  const oldBlob = path.join("sha256", "ab", "ab".padEnd(64, "0"));

  beforeAll(async () => {
    parent = await mkdtemp(path.join(tmpdir(), "drafts-files-"));
    await chmod(parent, 0o755); // so that only the data folder's own modes stand between nobody and the bytes
    dataDir = path.join(parent, "assets");
    // A store as an earlier version left it: world-readable folders and blob.
    await mkdir(path.join(dataDir, "sha256", "ab"), { recursive: true, mode: 0o755 });
    await mkdir(path.join(dataDir, "tmp"), { mode: 0o755 });
    await writeFile(path.join(dataDir, oldBlob), "old bytes", { mode: 0o644 });
    for (const folder of [".", "sha256", "sha256/ab", "tmp"]) await chmod(path.join(dataDir, folder), 0o755);
    stack = await startDraftsStack({ services: { drafts: draftsFactory({ dataDir }) } });
    ana = await person(stack);
  });
  afterAll(async () => {
    await closeAll(ana);
    await stack?.stop();
    if (parent) await rm(parent, { recursive: true, force: true });
  });

  it("when the service starts on a world-readable store, then every folder becomes 0700 and every blob 0600", async () => {
    expect(await modes(dataDir)).toEqual({ ".": "700", sha256: "700", "sha256/ab": "700", [oldBlob]: "600", tmp: "700" });
  });

  it("when an asset is uploaded, then its blob is 0600 in 0700 folders, and another user can neither read nor list it", async () => {
    const ws = await workspace(ana);
    const draft = await createDraft(ana.client, ws);
    const uploaded = await ana.rest<{ asset: Asset }>("POST", `/v1/workspaces/${ws}/drafts/${draft.id}/assets?filename=foto.png`, {
      raw: png(),
      headers: { "If-Match": `"${draft.revision}"`, "Idempotency-Key": randomUUID() },
    });
    expect(uploaded.status, JSON.stringify(uploaded.body)).toBe(201);
    const sha = uploaded.body.asset.sha256;
    const blob = path.join("sha256", sha.slice(0, 2), sha);
    const after = await modes(dataDir);
    expect(after[blob]).toBe("600");
    for (const [entry, mode] of Object.entries(after))
      expect(`${entry} ${mode}`).toBe(`${entry} ${entry.startsWith("sha256/") && entry.split("/").length === 3 ? "600" : "700"}`);
    if (!isRoot) return; // becoming nobody needs root; the modes above already say the same
    const read = await asNobody("cat", path.join(dataDir, blob));
    expect(read.code).not.toBe(0);
    expect(read.output).toMatch(/Permission denied/);
    const list = await asNobody("ls", dataDir);
    expect(list.code).not.toBe(0);
    expect(list.output).toMatch(/Permission denied/);
  });
});
