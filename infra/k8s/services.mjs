/**
 * Each service's place in the Kubernetes manifests, derived from the service registry
 * (@bancada/service-registry: the `"bancada"` block of services/<name>/package.json):
 *
 * - `serviceManifest(service)`: base/<name>.yaml from service-template.yaml, for a service with no needs of its own
 *   (docs, drafts and boxes have hand-made manifests: a volume, a flag, privileged nodes);
 * - `addService(files, service)`: the lines a service takes in the shared files — the base's resources and its
 *   Service URL (`<NAME>_INTERNAL_URL`), each overlay's image, and the dev overlay's bus key (derived from the dev
 *   master, as `pnpm bancada bus-keys create` derives it) and NATS password;
 * - `missingPieces(files, service)`: what of that a service lacks, one sentence each, so a check names the file
 *   and the line instead of failing somewhere in a render.
 *
 *   node infra/k8s/services.mjs <name>     writes a registered service's manifest and lines (skipping what exists)
 */
import { createHmac } from "node:crypto";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { registeredServices } from "@bancada/service-registry";

export const k8sDir = import.meta.dirname;

/** The shared files a service has lines in, relative to infra/k8s. */
export const sharedFiles = {
  kustomization: "base/kustomization.yaml",
  config: "base/config.yaml",
  devOverlay: "overlays/dev/kustomization.yaml",
  prodOverlay: "overlays/prod/kustomization.yaml",
};

export function serviceManifest({ name, port }, template = readFileSync(path.join(k8sDir, "service-template.yaml"), "utf8")) {
  const body = template.split("\n").slice(2).join("\n");
  return body.replaceAll("__name__", name).replaceAll("__NAME__", variablePrefix(name)).replaceAll("__port__", String(port));
}

const variablePrefix = (name) => name.toUpperCase().replaceAll("-", "_");

/** The lines of one service in each shared file (what `addService` inserts, what `missingPieces` looks for). */
function linesOf({ name, port }, files) {
  const tagOf = (overlay) => /newName: registry\.example\.com\/bancada\/gateway, newTag: ([^ }]+)/.exec(overlay)?.[1] ?? "dev";
  const image = (overlay) => `  - { name: bancada/${name}, newName: registry.example.com/bancada/${name}, newTag: ${tagOf(overlay)} }`;
  const master = /BANCADA_BUS_SIGNING_KEY=(\S+)/.exec(files.devOverlay)?.[1];
  const busKey = master
    ? createHmac("sha256", Buffer.from(master, "base64")).update(`bancada bus key v1\0${name}`).digest("base64")
    : undefined;
  return {
    kustomization: `  - ${name}.yaml`,
    config: `  ${variablePrefix(name)}_INTERNAL_URL: http://${name}:${port}`,
    devImage: image(files.devOverlay),
    prodImage: image(files.prodOverlay),
    devBusKey: `      - ${name}=${name}:${busKey}`,
    devPassword: `      - BANCADA_NATS_${variablePrefix(name)}_PASSWORD=dev-only-${name}-password`,
  };
}

/** `text` with `line` after the last line matching `after` (a file's list stays in the registry's order). */
function insertAfterLast(text, after, line) {
  const lines = text.split("\n");
  let at = -1;
  lines.forEach((candidate, index) => {
    if (after.test(candidate)) at = index;
  });
  if (at < 0) throw new Error(`no line matching ${after} to add ${line.trim()} after`);
  lines.splice(at + 1, 0, line);
  return lines.join("\n");
}

/** The shared files with a service's lines added (those already there are left as they are), after `services`' lines. */
export function addService(files, service, services = registeredServices()) {
  const lines = linesOf(service, files);
  const has = (text, line) => text.split("\n").includes(line);
  const out = { ...files };
  // after the other services' manifests, not after the shared ones listed below them
  const others = services.filter((other) => other.name !== service.name).map((other) => other.name);
  const serviceManifestLine = new RegExp(`^ {2}- (${others.join("|")})\\.yaml$`);
  if (!has(out.kustomization, lines.kustomization))
    out.kustomization = insertAfterLast(out.kustomization, serviceManifestLine, lines.kustomization);
  if (!has(out.config, lines.config)) out.config = insertAfterLast(out.config, /^ {2}[A-Z0-9_]+_INTERNAL_URL: /, lines.config);
  if (!has(out.devOverlay, lines.devImage)) out.devOverlay = insertAfterLast(out.devOverlay, /^ {2}- \{ name: bancada\//, lines.devImage);
  if (!has(out.prodOverlay, lines.prodImage))
    out.prodOverlay = insertAfterLast(out.prodOverlay, /^ {2}- \{ name: bancada\//, lines.prodImage);
  if (!has(out.devOverlay, lines.devBusKey))
    out.devOverlay = insertAfterLast(out.devOverlay, /^ {6}- [a-z0-9-]+=[a-z0-9-]+:/, lines.devBusKey);
  if (!has(out.devOverlay, lines.devPassword))
    out.devOverlay = insertAfterLast(out.devOverlay, /^ {6}- BANCADA_NATS_[A-Z0-9_]+_PASSWORD=/, lines.devPassword);
  return out;
}

/** What of its place in the manifests a registered service lacks: one sentence per piece, naming the file. */
export function missingPieces(files, service, manifestExists) {
  const lines = linesOf(service, files);
  const has = (text, line) => text.split("\n").includes(line);
  const missing = [];
  if (!manifestExists) missing.push(`infra/k8s/base/${service.name}.yaml does not exist`);
  const expect = (file, line, what) => {
    if (!has(files[file], line)) missing.push(`infra/k8s/${sharedFiles[file]} lacks ${what}: "${line.trim()}"`);
  };
  expect("kustomization", lines.kustomization, "its manifest among the resources");
  expect("config", lines.config, "its Service URL");
  expect("devOverlay", lines.devImage, "its image");
  expect("prodOverlay", lines.prodImage, "its image");
  expect("devOverlay", lines.devBusKey, "its bus key derived from the dev master");
  expect("devOverlay", lines.devPassword, "its NATS password");
  return missing.map((piece) => `${service.name}: ${piece}`);
}

export function readSharedFiles(dir = k8sDir) {
  return Object.fromEntries(Object.entries(sharedFiles).map(([key, file]) => [key, readFileSync(path.join(dir, file), "utf8")]));
}

/** Writes a registered service's manifest (unless it has one) and its lines in the shared files. */
export function writeService(name, { dir = k8sDir, services = registeredServices() } = {}) {
  const service = services.find((entry) => entry.name === name);
  if (!service) throw new Error(`${name} is not a registered service (no "bancada" block in services/${name}/package.json)`);
  const written = [];
  const manifest = path.join(dir, "base", `${name}.yaml`);
  if (!existsSync(manifest)) {
    writeFileSync(manifest, serviceManifest(service, readFileSync(path.join(dir, "service-template.yaml"), "utf8")));
    written.push(`infra/k8s/base/${name}.yaml`);
  }
  const before = readSharedFiles(dir);
  const after = addService(before, service, services);
  for (const [key, file] of Object.entries(sharedFiles)) {
    if (after[key] === before[key]) continue;
    writeFileSync(path.join(dir, file), after[key]);
    written.push(`infra/k8s/${file}`);
  }
  return written;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const name = process.argv[2];
  if (!name) {
    process.stderr.write("usage: node infra/k8s/services.mjs <service>\n");
    process.exit(2);
  }
  for (const file of writeService(name)) process.stdout.write(`wrote ${file}\n`);
}
