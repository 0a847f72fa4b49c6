// The console's build: one bundle of our code and React into dist/, nothing fetched at run time, no inline script
// (the gateway serves it under a CSP that allows only same-origin files).
import { defineConfig } from "vite";

export default defineConfig({
  root: import.meta.dirname,
  base: "/",
  build: {
    outDir: "dist",
    emptyOutDir: true,
    target: "es2022",
    // the preload helper would be inlined as a data: module otherwise; with one entry chunk nothing needs preloading
    modulePreload: false,
    assetsInlineLimit: 0,
    sourcemap: false,
    reportCompressedSize: false,
  },
  logLevel: "warn",
});
