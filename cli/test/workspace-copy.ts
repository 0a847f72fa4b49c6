/**
 * A throwaway copy of this workspace for a test that changes the sources (the generated-service test): the files
 * git knows (tracked and untracked, not ignored) and the Prisma clients generated from them, with the installed
 * packages shared, not copied: the copy's root node_modules links each entry of this one's, and each workspace
 * package's node_modules (pnpm's relative links into the root's store) is copied as links. Nothing the copy
 * does reaches this workspace's sources; it must not run pnpm (the store's own files are shared).
 */
import { spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

export const workspaceRoot = path.resolve(import.meta.dirname, "../..");

export interface WorkspaceCopy {
  root: string;
  remove(): void;
}

export function copyWorkspace(): WorkspaceCopy {
  const root = mkdtempSync(path.join(tmpdir(), "bancada-workspace-"));
  const listed = spawnSync("git", ["ls-files", "-z", "--cached", "--others", "--exclude-standard"], {
    cwd: workspaceRoot,
    encoding: "utf8",
    maxBuffer: 64 << 20,
  });
  if (listed.status !== 0) throw new Error(`git ls-files failed: ${listed.stderr}`);
  for (const file of listed.stdout.split("\0").filter(Boolean)) {
    const from = path.join(workspaceRoot, file);
    if (!existsSync(from)) continue; // deleted but not yet committed
    mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    cpSync(from, path.join(root, file), { verbatimSymlinks: true });
  }
  const packages = workspacePackages();
  for (const dir of packages) {
    const generated = path.join(dir, "src/db/generated");
    if (existsSync(path.join(workspaceRoot, generated)))
      cpSync(path.join(workspaceRoot, generated), path.join(root, generated), { recursive: true });
    const modules = path.join(dir, "node_modules");
    if (existsSync(path.join(workspaceRoot, modules)))
      cpSync(path.join(workspaceRoot, modules), path.join(root, modules), { recursive: true, verbatimSymlinks: true });
  }
  mkdirSync(path.join(root, "node_modules"));
  for (const entry of readdirSync(path.join(workspaceRoot, "node_modules")))
    symlinkSync(path.join(workspaceRoot, "node_modules", entry), path.join(root, "node_modules", entry));
  return { root, remove: () => rmSync(root, { recursive: true, force: true }) };
}

/** The workspace's package folders, relative to its root (pnpm-workspace.yaml's globs are one level deep). */
function workspacePackages(): string[] {
  const single = ["gateway", "console", "cli", "e2e", "bench", "infra"];
  const nested = ["packages", "services"].flatMap((parent) =>
    readdirSync(path.join(workspaceRoot, parent), { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => `${parent}/${entry.name}`),
  );
  return [...single, ...nested];
}

/**
 * What `pnpm install` would link for a new workspace package whose dependencies the workspace already has: its
 * node_modules gets the links `like` (an existing package with the same dependencies) has for each of them, and
 * `dependents` get a link to it. pnpm itself cannot run in a copy whose store is shared.
 */
export function linkNewPackage(root: string, dir: string, like: string, dependents: string[]): void {
  const manifest = JSON.parse(readFileSync(path.join(root, dir, "package.json"), "utf8")) as {
    name: string;
    dependencies?: Record<string, string>;
    devDependencies?: Record<string, string>;
  };
  const modules = path.join(root, dir, "node_modules");
  for (const dependency of Object.keys({ ...manifest.dependencies, ...manifest.devDependencies })) {
    const source = path.join(root, like, "node_modules", dependency);
    if (!existsSync(source)) throw new Error(`${like} does not depend on ${dependency}: cannot link it for ${dir}`);
    mkdirSync(path.dirname(path.join(modules, dependency)), { recursive: true });
    cpSync(source, path.join(modules, dependency), { verbatimSymlinks: true });
  }
  cpSync(path.join(root, like, "node_modules/.bin"), path.join(modules, ".bin"), { recursive: true, verbatimSymlinks: true });
  for (const dependent of dependents) {
    const link = path.join(root, dependent, "node_modules", manifest.name);
    mkdirSync(path.dirname(link), { recursive: true });
    symlinkSync(path.relative(path.dirname(link), path.join(root, dir)), link);
  }
}
