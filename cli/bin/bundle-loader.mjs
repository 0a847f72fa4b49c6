/**
 * Runs the bundle of the `bancada` command (cli/dist/bancada.cjs, made by cli/scripts/bundle.mjs) when it
 * is fresh: every source it was built from is unchanged since (same size, not modified after the build).
 * The bundle is compiled with V8's code cache, written at the first run's exit, so later starts skip most
 * of the parsing and compiling. Anything unexpected means "not fresh": the caller runs the sources instead.
 */
import { isAscii } from "node:buffer";
import { readFileSync, renameSync, statSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { pathToFileURL } from "node:url";
import vm from "node:vm";

export const bundleName = "bancada.cjs";
export const manifestName = "bancada.json";
/** The bundle's first line, naming its build: a manifest never vouches for another build's bundle. */
export const bundleBanner = (id) => `/* bancada bundle ${id} */`;
/** The bundle calls this instead of `import()`: V8 drops a script's dynamic-import hook when it comes from the code cache. */
export const importHook = "__bancadaImport";

/**
 * The manifest of the bundle in `distDir` when every file it lists is as it was at build time;
 * undefined when the bundle is missing, unreadable, or older than any of its sources.
 */
export function freshBundle(distDir) {
  let manifest;
  try {
    manifest = JSON.parse(readFileSync(path.join(distDir, manifestName), "utf8"));
  } catch {
    return undefined;
  }
  if (typeof manifest?.id !== "string" || typeof manifest.builtAt !== "number" || typeof manifest.files !== "object") return undefined;
  const root = path.resolve(distDir, manifest.root ?? ".");
  for (const [file, size] of Object.entries(manifest.files)) {
    const stats = statSync(path.join(root, file), { throwIfNoEntry: false });
    if (!stats || stats.size !== size || stats.mtimeMs > manifest.builtAt) return undefined;
  }
  return manifest;
}

/** Runs the fresh bundle; false (nothing run) when the bundle on disk is not the build the manifest describes. */
export function runBundle(distDir, manifest) {
  const file = path.join(distDir, bundleName);
  let source;
  try {
    const bytes = readFileSync(file);
    // the bundle is ASCII (cli/scripts/bundle.mjs): read as such, it skips a UTF-8 decode of megabytes
    source = bytes.toString(isAscii(bytes) ? "latin1" : "utf8");
  } catch {
    return false;
  }
  if (!source.startsWith(bundleBanner(manifest.id))) return false;
  // V8 checks a cache against the source's length only: the build id in the name ties it to this build.
  const cacheFile = path.join(distDir, `bancada.${manifest.id}.cache`);
  let cachedData;
  try {
    cachedData = readFileSync(cacheFile);
  } catch {}
  const script = new vm.Script(`(function (exports, require, module, __filename, __dirname, ${importHook}) {${source}\n})`, {
    filename: file,
    ...(cachedData ? { cachedData } : {}),
  });
  // Written at exit, so it covers the functions this run compiled, not only the top level; replaced when a
  // later run compiled clearly more (a first `keys list` must not leave `start` a thin cache for good).
  const usable = cachedData && !script.cachedDataRejected ? cachedData.length : 0;
  process.once("exit", () => saveCache(script, cacheFile, usable));
  const base = pathToFileURL(file);
  const importFromBundle = (specifier) => import(specifier.startsWith(".") ? new URL(specifier, base).href : specifier);
  const module = { exports: {} };
  script.runInThisContext()(module.exports, createRequire(file), module, file, distDir, importFromBundle);
  return true;
}

function saveCache(script, cacheFile, usable) {
  try {
    const data = script.createCachedData();
    if (data.length <= usable * 1.1) return;
    const temp = `${cacheFile}.${process.pid}.tmp`;
    writeFileSync(temp, data);
    renameSync(temp, cacheFile); // whole or absent: a concurrent start never reads half a cache
  } catch {
    // a read-only install runs without the cache
  }
}
