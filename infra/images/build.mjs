#!/usr/bin/env node
// Builds Bancada's images with podman on a machine that reaches no image registry: the base image first (only
// when podman lacks it, infra/images/base.mjs), then every target of infra/images/Containerfile in one go (the
// build stage is shared: the later targets reuse its layers), and the NATS image of the rehearsal.
//
//   node infra/images/build.mjs [--tag dev] [--registry registry.example.com/bancada] [--only gateway,scripts]
//
// Prints one line per image with its size, and the time each build took. The machine's CA bundle
// (NODE_EXTRA_CA_CERTS, else /etc/ssl/certs/ca-certificates.crt) is the build secret `ca`.
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { ensureBase, imageExists, podmanEnv } from "./base.mjs";
import { createHash } from "node:crypto";
import { imageTargets } from "./render.mjs";

/** Every component's image: the gateway and each registered service (the Containerfile's targets, render.mjs). */
export const TARGETS = imageTargets().map((target) => target.name);
const repo = fileURLToPath(new URL("../..", import.meta.url));
const log = (line) => console.error(line);

function caBundle() {
  for (const file of [process.env.NODE_EXTRA_CA_CERTS, "/etc/ssl/certs/ca-certificates.crt"]) if (file && existsSync(file)) return file;
  // no bundle on this machine: an empty one, so the build's secret mount exists (node trusts its own CAs)
  const dir = mkdtempSync(path.join(tmpdir(), "bancada-ca-"));
  writeFileSync(path.join(dir, "ca.pem"), "");
  return path.join(dir, "ca.pem");
}

/**
 * The build context: the repository's files as git sees them (tracked, and new files not ignored), copied into a
 * folder of their own. buildah walks the whole context for every COPY, node_modules included, before the ignore
 * file applies (minutes on a working tree); this one holds only sources.
 */
function stageContext() {
  const listed = spawnSync("git", ["ls-files", "-z", "--cached", "--others", "--exclude-standard"], {
    cwd: repo,
    encoding: "utf8",
    maxBuffer: 64 << 20,
  });
  if (listed.status !== 0) throw new Error(`git ls-files failed: ${listed.stderr}`);
  const files = listed.stdout.split("\0").filter((file) => file && existsSync(path.join(repo, file)));
  const context = mkdtempSync(path.join(tmpdir(), "bancada-context-"));
  const packed = spawnSync("tar", ["-C", repo, "--null", "-T", "-", "-cf", "-"], { input: files.join("\0"), maxBuffer: 1 << 30 });
  if (packed.status !== 0) throw new Error(`tar failed: ${packed.stderr}`);
  const unpacked = spawnSync("tar", ["-C", context, "-xf", "-"], { input: packed.stdout });
  if (unpacked.status !== 0) throw new Error(`tar failed: ${unpacked.stderr}`);
  return context;
}

function podman(args, options = {}) {
  const result = spawnSync("podman", args, {
    cwd: repo,
    env: podmanEnv(),
    stdio: ["ignore", "pipe", "pipe"],
    encoding: "utf8",
    ...options,
  });
  if (result.status !== 0)
    throw new Error(`podman ${args.slice(0, 2).join(" ")} failed:\n${result.stderr ?? ""}${result.stdout ?? ""}`.slice(-4000));
  return result.stdout;
}

function natsContainerfile(base) {
  return [
    `FROM ${base}`,
    "RUN apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends nats-server && rm -rf /var/lib/apt/lists/* /var/cache/apt/*",
    'CMD ["nats-server"]',
    "",
  ].join("\n");
}

/** The NATS server of the rehearsal: Debian's nats-server on the same base (the manifests name nats:2.11-alpine). */
export function natsImage(base) {
  const hash = createHash("sha256").update(base).update(natsContainerfile(base)).digest("hex").slice(0, 12);
  return { name: `localhost/bancada-nats:${hash}`, base };
}

function buildNats(base) {
  const { name } = natsImage(base);
  if (imageExists(name)) return { name, seconds: 0, built: false };
  const started = Date.now();
  const dir = mkdtempSync(path.join(tmpdir(), "bancada-nats-image-"));
  try {
    writeFileSync(path.join(dir, "Containerfile"), natsContainerfile(base));
    podman(["build", "-t", name, dir], { stdio: ["ignore", process.stderr, "inherit"] });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return { name, seconds: (Date.now() - started) / 1000, built: true };
}

/** Builds the targets; returns each image's name, size and build time. */
export function buildImages({ tag = "dev", registry = "registry.example.com/bancada", only = TARGETS } = {}) {
  const started = Date.now();
  const { runtime: base, build: buildBase } = ensureBase({ log });
  const baseSeconds = (Date.now() - started) / 1000;
  const ca = caBundle();
  const context = stageContext();
  const images = [];
  try {
    for (const target of only) {
      const name = `${registry}/${target}:${tag}`;
      const at = Date.now();
      log(`building ${name}`);
      // the build's own output goes to stderr: a long build shows where it is
      podman(
        [
          "build",
          "-f",
          path.join(context, "infra/images/Containerfile"),
          "--ignorefile",
          path.join(context, "infra/images/Containerfile.dockerignore"),
          "--build-arg",
          `NODE_IMAGE=${base}`,
          "--build-arg",
          `BUILD_IMAGE=${buildBase}`,
          "--secret",
          `id=ca,src=${ca}`,
          "--target",
          target,
          "-t",
          name,
          context,
        ],
        { stdio: ["ignore", process.stderr, "inherit"] },
      );
      images.push({ name, target, seconds: (Date.now() - at) / 1000 });
    }
  } finally {
    rmSync(context, { recursive: true, force: true });
  }
  const nats = buildNats(base);
  images.push({ name: nats.name, target: "nats", seconds: nats.seconds });
  for (const image of images) image.bytes = Number(podman(["image", "inspect", "--format", "{{.Size}}", image.name]).trim());
  return { base, baseSeconds, images, seconds: (Date.now() - started) / 1000 };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { values } = parseArgs({ options: { tag: { type: "string" }, registry: { type: "string" }, only: { type: "string" } } });
  const result = buildImages({
    ...(values.tag ? { tag: values.tag } : {}),
    ...(values.registry ? { registry: values.registry } : {}),
    ...(values.only ? { only: values.only.split(",") } : {}),
  });
  console.log(`base ${result.base} (${result.baseSeconds.toFixed(0)} s)`);
  for (const image of result.images)
    console.log(`${image.name}  ${(image.bytes / 1e6).toFixed(0)} MB  built in ${image.seconds.toFixed(0)} s`);
  console.log(`all built in ${result.seconds.toFixed(0)} s`);
}
