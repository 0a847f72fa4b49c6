/** Help and usage mistakes answer at once and start nothing: no embedded PostgreSQL, no data folder. */
import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bin } from "./start-bancada.js";

const run = promisify(execFile);

describe("bancada help and usage errors", { timeout: 120_000 }, () => {
  let dir: string;
  let env: NodeJS.ProcessEnv;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), "bancada-usage-"));
    const { DATABASE_URL: _db, NATS_URL: _nats, ...rest } = process.env;
    env = { ...rest, BANCADA_DATA_DIR: path.join(dir, "data"), LOG_LEVEL: "warn" };
  });
  afterAll(async () => rm(dir, { recursive: true, force: true }));
  const bancada = (...args: string[]) =>
    run(process.execPath, [bin, ...args], { env, timeout: 60_000 }).then(
      ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
      (error: { code: number; stdout: string; stderr: string }) => error,
    );

  it("when help is asked or a subcommand is missing, then the usage is printed and no data folder is made", async () => {
    for (const args of [["keys"], ["keys", "--help"], ["keys", "create", "--help"], ["docs", "--help"], ["audit", "--help"]]) {
      const { code, stdout } = await bancada(...args);
      expect(code, args.join(" ")).toBe(0);
      expect(stdout, args.join(" ")).toContain("Usage:");
    }
    expect(existsSync(path.join(dir, "data"))).toBe(false);
  });

  it("when a scope is misspelled, then one line lists the valid scopes, exit 1, and nothing is started", async () => {
    const { code, stderr } = await bancada("keys", "create", "--account", "a", "--person", "p", "--agent", "x", "--scopes", "scripts:reed");
    expect(code).toBe(1);
    const lines = stderr.split("\n").filter((line) => line && !line.includes("cli/dist"));
    expect(lines).toEqual([
      expect.stringMatching(/^Unknown scope\(s\): scripts:reed\. Valid scopes: scripts:read scripts:write .* \(or all\)\.$/),
    ]);
    const unknown = await bancada("keys", "rotate");
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain("Unknown keys command 'rotate'.");
    expect(existsSync(path.join(dir, "data"))).toBe(false);
  });

  it("when something unexpected fails, then one line says what, without a stack; DEBUG=1 shows the stack", async () => {
    // a data folder that is a file: the embedded PostgreSQL cannot make its folder there
    const file = path.join(dir, "a-file");
    await writeFile(file, "not a folder");
    const failed = await run(process.execPath, [bin, "keys", "list"], { env: { ...env, BANCADA_DATA_DIR: file }, timeout: 60_000 }).catch(
      (error: { code: number; stderr: string }) => error,
    );
    expect((failed as { code: number }).code).toBe(1);
    const lines = (failed as { stderr: string }).stderr.split("\n").filter((line) => line && !line.includes("cli/dist"));
    expect(lines).toEqual([expect.stringMatching(/^bancada: .*a-file.* \(set DEBUG=1 for the stack\)$/)]);
    const debug = await run(process.execPath, [bin, "keys", "list"], {
      env: { ...env, BANCADA_DATA_DIR: file, DEBUG: "1" },
      timeout: 60_000,
    }).catch((error: { code: number; stderr: string }) => error);
    expect((debug as { code: number }).code).toBe(1);
    expect((debug as { stderr: string }).stderr).toMatch(/\n\s+at /);
  });

  it("when a usage error is made, then it is said without a stack, and exit 1", async () => {
    const { code, stderr } = await bancada("audit", "--limit", "0");
    expect(code).toBe(1);
    expect(stderr.split("\n").filter((line) => line && !line.includes("cli/dist"))).toEqual([
      "--limit takes a whole number from 1 to 500.",
    ]);
  });
});
