#!/usr/bin/env node
// Runs the bundle of the TypeScript sources (cli/dist, made by `pnpm install` and `pnpm bundle`) while it is
// fresh, and the sources themselves through tsx's loader otherwise: no build step is ever required, and an
// edited source is never shadowed by an older bundle. BANCADA_FROM_SOURCE=1 always runs the sources.
import path from "node:path";
import { freshBundle, runBundle } from "./bundle-loader.mjs";

// oidc-provider (the gateway's OAuth) warns on import that Node 20 is not a runtime it supports; it runs on 20.19+,
// which Bancada requires (and every OAuth test passes on 20.20): that one line is held back, every other warning passes
const warn = console.warn;
console.warn = (...args) => {
  if (typeof args[0] === "string" && args[0].includes("oidc-provider WARNING: Unsupported runtime")) return;
  warn(...args);
};

const dist = path.join(import.meta.dirname, "../dist");
const fromSource = process.env.BANCADA_FROM_SOURCE === "1";
const bundle = fromSource ? undefined : freshBundle(dist);
if (!bundle || !runBundle(dist, bundle)) {
  if (!fromSource)
    process.stderr.write(
      "bancada: cli/dist is missing or older than the sources, so they are compiled at start (slower); 'pnpm bundle' refreshes it.\n",
    );
  const { register } = await import("tsx/esm/api");
  register();
  await import("../src/main.ts");
}
