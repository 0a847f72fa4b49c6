#!/usr/bin/env node
// Writes infra/k8s/base/nats/auth.conf from infra/nats/permissions.mjs (`--check` only compares).
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import path from "node:path";
import { renderK8sAuth } from "./permissions.mjs";

export const authConfPath = fileURLToPath(new URL("../k8s/base/nats/auth.conf", import.meta.url));

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const rendered = renderK8sAuth({ root: process.env.BANCADA_SUBJECT_ROOT || undefined });
  if (process.argv.includes("--check")) {
    const current = (() => {
      try {
        return readFileSync(authConfPath, "utf8");
      } catch {
        return "";
      }
    })();
    if (current !== rendered) {
      process.stderr.write("infra/k8s/base/nats/auth.conf is stale: run `node infra/nats/render.mjs`.\n");
      process.exit(1);
    }
  } else {
    mkdirSync(path.dirname(authConfPath), { recursive: true });
    writeFileSync(authConfPath, rendered);
    process.stdout.write(`wrote ${path.relative(process.cwd(), authConfPath)}\n`);
  }
}
