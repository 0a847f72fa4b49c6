#!/usr/bin/env node
/**
 * Bundles the `bancada` command — cli/src/main.ts, the workspace packages and most of node_modules — into
 * one CommonJS file, cli/dist/bancada.cjs, so a start loads one script instead of transpiling and resolving
 * a thousand modules. bin/bancada.mjs runs it only while it is fresh (bancada.json lists the sources it
 * was built from), and the TypeScript sources through tsx otherwise.
 *
 *   node cli/scripts/bundle.mjs [--if-stale] [--out-dir <dir>]
 *
 * --if-stale builds only when the bundle is missing or stale, and never fails: at worst the sources run.
 * Runs after `pnpm install` (postinstall) and in `pnpm build`.
 */
import { randomUUID } from "node:crypto";
import { mkdir, readdir, readFile, rename, rm, stat, writeFile } from "node:fs/promises";
import { createRequire, isBuiltin } from "node:module";
import path from "node:path";
import { parseArgs } from "node:util";
import { bundleBanner, bundleName, freshBundle, importHook, manifestName } from "../bin/bundle-loader.mjs";

const cliDir = path.resolve(import.meta.dirname, "..");
const rootDir = path.resolve(cliDir, "..");

/**
 * Packages left in node_modules (required by path, not bundled): those that find files next to their own
 * code (pino's transports run a worker from its folder), Prisma's large runtime, and ssh2 (it tries optional native
 * addons — its own crypto binding, cpu-features — inside try/catch, which a bundler cannot resolve when they were not built).
 */
const unbundled = [/^pino(\/|$)/, /^thread-stream(\/|$)/, /^@prisma\/client(\/|$)/, /^ssh2(\/|$)/];
/** Files whose change makes a bundle stale besides its inputs: the recipe, the compiler settings, any install. */
const alsoWatched = [
  "cli/scripts/bundle.mjs",
  "cli/bin/bundle-loader.mjs",
  "tsconfig.base.json",
  "pnpm-lock.yaml",
  "node_modules/.modules.yaml",
];
const dynamicMarker = "bancada-dynamic-import:";

async function bundle(outDir) {
  // esbuild comes with tsx (a dependency of the cli): nothing more to install.
  const esbuild = createRequire(createRequire(import.meta.url).resolve("tsx/package.json"))("esbuild");
  const id = randomUUID();
  const builtAt = Date.now();
  const result = await esbuild.build({
    entryPoints: [path.join(cliDir, "src/main.ts")],
    outfile: path.join(outDir, bundleName),
    absWorkingDir: rootDir,
    bundle: true,
    write: false,
    platform: "node",
    format: "cjs",
    target: "node20",
    // resolve as Node does (no "module" condition or field): the same files as an unbundled run
    conditions: [],
    mainFields: ["main"],
    metafile: true,
    logLevel: "silent",
    banner: {
      js: [
        bundleBanner(id),
        'const { join: __bancadaJoin } = require("node:path");',
        'const { pathToFileURL: __bancadaFileUrl } = require("node:url");',
        "const __bancadaDir = (dir) => __bancadaJoin(__dirname, dir);",
        "const __bancadaUrl = (file) => __bancadaFileUrl(__bancadaJoin(__dirname, file)).href;",
      ].join("\n"),
    },
    plugins: [workspacePlugin(outDir)],
  });
  if (result.warnings.length) {
    const messages = await esbuild.formatMessages(result.warnings, { kind: "warning" });
    throw new Error(`esbuild warned; a bundle that might behave unlike the sources is not written:\n${messages.join("")}`);
  }
  const output = result.outputFiles[0];
  // ASCII only (esbuild escapes code, not the comments it keeps), so a start reads it without decoding UTF-8;
  // \uXXXX means the same character in a string, template, regular expression or identifier
  const code = output.text
    .replaceAll(`import("${dynamicMarker}`, `${importHook}("`)
    .replace(/[^\x00-\x7f]/g, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, "0")}`);
  if (code.includes(dynamicMarker)) throw new Error("a dynamic import() was left in an unexpected form");
  const stray = await strayDynamicImports(esbuild, code);
  if (stray.length) throw new Error(`import() with a computed specifier cannot run from the code cache:\n  ${stray.join("\n  ")}`);

  const files = {};
  const inputs = Object.keys(result.metafile.inputs).filter((input) => !input.split("/").includes("node_modules"));
  for (const file of [...inputs, ...alsoWatched]) {
    const stats = await stat(path.join(rootDir, file)).catch(() => undefined);
    if (stats) files[file] = stats.size;
  }
  const manifest = { id, builtAt, root: path.relative(outDir, rootDir).split(path.sep).join("/") || ".", files };

  // Written beside the final files and renamed over them; the manifest last, naming this build's id.
  await mkdir(outDir, { recursive: true });
  const bundleFile = path.join(outDir, bundleName);
  const manifestFile = path.join(outDir, manifestName);
  await writeFile(`${bundleFile}.${process.pid}.tmp`, code);
  await writeFile(`${manifestFile}.${process.pid}.tmp`, `${JSON.stringify(manifest, null, 1)}\n`);
  await rename(`${bundleFile}.${process.pid}.tmp`, bundleFile);
  await rename(`${manifestFile}.${process.pid}.tmp`, manifestFile);
  for (const name of await readdir(outDir)) {
    if (name.endsWith(".cache") && name !== `bancada.${id}.cache`) await rm(path.join(outDir, name), { force: true });
  }
  return { modules: Object.keys(result.metafile.inputs).length, workspace: inputs.length, bytes: Buffer.byteLength(code) };
}

function workspacePlugin(outDir) {
  const relative = (file) => {
    const text = path.relative(outDir, file).split(path.sep).join("/");
    return text.startsWith(".") ? text : `./${text}`;
  };
  return {
    name: "bancada-bundle",
    setup(build) {
      build.onResolve({ filter: /^[^./]/ }, async (args) => {
        if (args.pluginData?.resolving) return undefined;
        if (args.kind === "dynamic-import") {
          // kept as a real import() at run time (bin/bundle-loader.mjs), by the path Node would resolve
          if (isBuiltin(args.path)) return { path: `${dynamicMarker}${args.path}`, external: true };
          const resolved = await build.resolve(args.path, {
            kind: args.kind,
            resolveDir: args.resolveDir,
            pluginData: { resolving: true },
          });
          // a package absent here (another platform's PostgreSQL binaries) fails at run time, as it would unbundled
          return { path: `${dynamicMarker}${resolved.errors.length ? args.path : relative(resolved.path)}`, external: true };
        }
        if (!unbundled.some((pattern) => pattern.test(args.path))) return undefined;
        const resolved = await build.resolve(args.path, {
          kind: "require-call",
          resolveDir: args.resolveDir,
          pluginData: { resolving: true },
        });
        if (resolved.errors.length) return { errors: resolved.errors };
        return { path: relative(resolved.path), external: true };
      });
      // A workspace source keeps finding its own folder: migrations, the demo corpus, Prisma's generated client.
      build.onLoad({ filter: /\.ts$/ }, async (args) => {
        if (args.path.split(path.sep).includes("node_modules")) return undefined;
        const source = await readFile(args.path, "utf8");
        if (!source.includes("import.meta.")) return { contents: source, loader: "ts" };
        const dir = JSON.stringify(relative(path.dirname(args.path)));
        const file = JSON.stringify(relative(args.path));
        const contents = source
          .replaceAll("import.meta.dirname", `__bancadaDir(${dir})`)
          .replaceAll("import.meta.filename", `__bancadaJoin(__dirname, ${file})`)
          .replaceAll("import.meta.url", `__bancadaUrl(${file})`);
        if (/import\.meta\b/.test(contents))
          return { errors: [{ text: `import.meta is only bundled as import.meta.dirname, .filename or .url (${args.path})` }] };
        return { contents, loader: "ts" };
      });
    },
  };
}

/** The import() calls left once comments are gone: each would fail when the script comes from V8's code cache. */
async function strayDynamicImports(esbuild, code) {
  const { code: bare } = await esbuild.transform(code, {
    format: "cjs",
    legalComments: "none",
    minifyWhitespace: true,
    logLevel: "silent",
  });
  return [...bare.matchAll(/(?<![\w$.])import\(.{0,60}/g)].map((match) => match[0]);
}

{
  const { values } = parseArgs({ options: { "if-stale": { type: "boolean", default: false }, "out-dir": { type: "string" } } });
  const outDir = path.resolve(values["out-dir"] ?? path.join(cliDir, "dist"));
  if (values["if-stale"] && freshBundle(outDir)) process.exit(0);
  try {
    const built = await bundle(outDir);
    console.log(
      `bancada: bundled ${built.modules} modules (${built.workspace} of ours) into ${path.relative(process.cwd(), path.join(outDir, bundleName))}, ${Math.round(built.bytes / 1024)} KiB`,
    );
  } catch (error) {
    console.error(`bancada: no bundle (${error.message}); the command runs from the TypeScript sources.`);
    process.exitCode = values["if-stale"] ? 0 : 1;
  }
}
