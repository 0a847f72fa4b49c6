#!/usr/bin/env node
// Writes the plain targets of infra/images/Containerfile from the service registry (@bancada/service-registry):
// the gateway, then every registered service that has no stage of its own further down (boxes has one), each
// exposing its port and starting `bancada start --only <name>`. A new service's image then needs no edit here:
// `pnpm new-service` runs this, and `--check` (infra/test/images.test.ts) fails when the file is stale.
//
//   node infra/images/render.mjs [--check]
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { registeredServices } from "@bancada/service-registry";

const containerfilePath = fileURLToPath(new URL("./Containerfile", import.meta.url));

const begin = "# The plain targets, made from the service registry by infra/images/render.mjs: do not edit them by hand.";
const end = "# End of the made targets.";
const gatewayPort = 8787;

/** Every component with an image: the gateway first, then the registered services in the registry's order. */
export function imageTargets(services = registeredServices()) {
  return [{ name: "gateway", port: gatewayPort }, ...services.map(({ name, port }) => ({ name, port }))];
}

/** The Containerfile with its block of plain targets rendered for `targets`; the hand-written stages are kept. */
function renderContainerfile(text, targets = imageTargets()) {
  const from = text.indexOf(begin);
  const to = text.indexOf(end);
  if (from < 0 || to < from) throw new Error(`infra/images/Containerfile has lost its markers ("${begin}" … "${end}")`);
  const outside = text.slice(0, from) + text.slice(to + end.length);
  const ownStage = (name) => new RegExp(`^FROM\\s+\\S+\\s+AS\\s+${name}\\s*$`, "im").test(outside);
  const block = targets
    .filter(({ name }) => !ownStage(name))
    .map(({ name, port }) => `FROM runtime AS ${name}\nEXPOSE ${port}\nCMD ["node", "cli/bin/bancada.mjs", "start", "--only", "${name}"]\n`)
    .join("\n");
  return `${text.slice(0, from)}${begin}\n${block}${end}${text.slice(to + end.length)}`;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const current = readFileSync(containerfilePath, "utf8");
  const rendered = renderContainerfile(current);
  if (process.argv.includes("--check")) {
    if (current !== rendered) {
      process.stderr.write("infra/images/Containerfile is stale: run `node infra/images/render.mjs`.\n");
      process.exit(1);
    }
  } else {
    writeFileSync(containerfilePath, rendered);
    process.stdout.write(`wrote ${path.relative(process.cwd(), containerfilePath)}\n`);
  }
}
