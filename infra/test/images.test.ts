// The Containerfile builds from files that exist, and each target's command starts a real component through the
// real entry point. The components are read from cli/src/services.ts (the one list) plus the gateway.
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const root = path.resolve(import.meta.dirname, "../..");
const containerfile = path.join(root, "infra/images/Containerfile");
const text = readFileSync(containerfile, "utf8");
// instructions, with continuation lines joined and comments dropped
const instructions = text
  .replace(/\\\n/g, " ")
  .split("\n")
  .map((line) => line.trim())
  .filter((line) => line && !line.startsWith("#"))
  .map((line) => {
    const [keyword = "", ...rest] = line.split(/\s+/);
    return { keyword: keyword.toUpperCase(), args: rest.join(" ") };
  });

/** The stage each instruction belongs to (its FROM … AS name). */
const stageOf: string[] = [];
for (const [index, { keyword, args }] of instructions.entries())
  stageOf[index] = keyword === "FROM" ? (/\bAS\s+(\S+)$/i.exec(args)?.[1] ?? "") : (stageOf[index - 1] ?? "");
/** Stages only other stages copy from: no image is run from them. */
const buildOnly = new Set(["build", "enter-helper"]);
const imageInstructions = instructions.filter((_, index) => !buildOnly.has(stageOf[index]!));

function components(): string[] {
  const services = readFileSync(path.join(root, "cli/src/services.ts"), "utf8");
  const names = [...services.matchAll(/served\(\s*([a-z]+)Service\b/g)].map((match) => match[1]!);
  return ["gateway", ...names];
}

/** Each target (FROM … AS name) with the CMD and ENTRYPOINT given in it. */
function targets(): Map<string, { cmd?: string[]; entrypoint?: string[] }> {
  const found = new Map<string, { cmd?: string[]; entrypoint?: string[] }>();
  let current: { cmd?: string[]; entrypoint?: string[] } | undefined;
  for (const { keyword, args } of instructions) {
    if (keyword === "FROM") {
      const name = /\bAS\s+(\S+)$/i.exec(args)?.[1];
      current = {};
      if (name) found.set(name, current);
    } else if ((keyword === "CMD" || keyword === "ENTRYPOINT") && current) {
      // the exec form only: a shell form would not forward SIGTERM to node
      const value = JSON.parse(args) as string[];
      if (keyword === "CMD") current.cmd = value;
      else current.entrypoint = value;
    }
  }
  return found;
}

describe("infra/images/Containerfile", () => {
  it("finds the services of cli/src/services.ts", () => {
    expect(components()).toEqual(["gateway", "scripts", "boards", "docs", "drafts", "boxes"]);
  });

  it("has the plain targets infra/images/render.mjs makes from the service registry (a new service's image needs no edit here)", () => {
    const check = spawnSync(process.execPath, [path.join(root, "infra/images/render.mjs"), "--check"], { encoding: "utf8" });
    expect(check.stderr).toBe("");
    expect(check.status).toBe(0);
  });

  it("copies only files and folders that exist in the repository", () => {
    const copies = instructions.filter((line) => line.keyword === "COPY" || line.keyword === "ADD");
    expect(copies.length).toBeGreaterThan(0);
    for (const { keyword, args } of copies) {
      expect(keyword, "ADD fetches URLs and unpacks archives: COPY only").toBe("COPY");
      if (/--from=/.test(args)) continue;
      const parts = args.split(/\s+/).filter((part) => !part.startsWith("--"));
      for (const source of parts.slice(0, -1)) expect(existsSync(path.join(root, source)), `COPY ${source}`).toBe(true);
    }
  });

  it("has one target per component, each starting that component through cli/bin/bancada.mjs", () => {
    const found = targets();
    for (const component of components()) {
      const target = found.get(component);
      expect(target, `target ${component}`).toBeDefined();
      expect(target!.entrypoint).toBeUndefined();
      const [node, entry, command, flag, only, ...rest] = target!.cmd ?? [];
      expect(node).toBe("node");
      expect(existsSync(path.join(root, entry!)), `${entry} exists`).toBe(true);
      expect([command, flag, only, ...rest]).toEqual(["start", "--only", component]);
    }
    const main = readFileSync(path.join(root, "cli/src/main.ts"), "utf8");
    expect(main).toContain('case "start"');
    expect(main).toContain('only: { type: "string" }');
  });

  it("runs every component as uid 10001 except boxes, and bakes no secret in", () => {
    const users = imageInstructions.filter((line) => line.keyword === "USER").map((line) => line.args);
    expect(users[0]).toBe("10001:10001");
    expect(text).toMatch(/useradd --uid 10001/);
    // boxes alone switches back to root (it hands each box its own host uid)
    expect(users.slice(1)).toEqual(["0:0"]);
    const boxesAt = instructions.findIndex((line) => line.keyword === "FROM" && /\bAS boxes$/.test(line.args));
    expect(
      instructions.findIndex((line, index) => line.keyword === "USER" && line.args === "0:0" && !buildOnly.has(stageOf[index]!)),
    ).toBeGreaterThan(boxesAt);
    for (const { keyword, args } of instructions.filter((line) => line.keyword === "ENV" || line.keyword === "ARG")) {
      expect(`${keyword} ${args}`).not.toMatch(/PEPPER|SIGNING|VERIFY_KEY|PASSWORD|DATABASE_URL|TOKEN|CREDS/);
    }
  });

  it("installs the sandbox tools in the boxes image only", () => {
    const installs = imageInstructions.filter((line) => line.keyword === "RUN" && /apt-get install/.test(line.args));
    expect(installs).toHaveLength(1);
    for (const tool of ["bubblewrap", "util-linux", "e2fsprogs", "mount"]) expect(installs[0]!.args).toContain(tool);
  });

  it("builds the boxes' enter helper in a stage of its own: the compiler stays there, the boxes image gets the program, root's", () => {
    const helperStage = instructions.filter((_, index) => stageOf[index] === "enter-helper");
    expect(helperStage.some((line) => line.keyword === "RUN" && /apt-get install .*gcc/.test(line.args))).toBe(true);
    expect(helperStage.some((line) => line.keyword === "RUN" && /gcc -static .*bancada-enter\.c/.test(line.args))).toBe(true);
    const copies = instructions.filter((line) => line.keyword === "COPY" && /--from=enter-helper/.test(line.args));
    expect(copies).toHaveLength(1);
    expect(stageOf[instructions.indexOf(copies[0]!)]).toBe("boxes");
    expect(copies[0]!.args).toMatch(/--chown=0:0 --chmod=0700 \/bancada-enter \/usr\/local\/libexec\/bancada-enter/);
    const env = instructions.find(
      (line, index) => line.keyword === "ENV" && stageOf[index] === "boxes" && /BOXES_ENTER_HELPER=/.test(line.args),
    );
    expect(env?.args).toBe("BOXES_ENTER_HELPER=/usr/local/libexec/bancada-enter");
  });
});
