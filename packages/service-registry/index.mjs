/**
 * The services of this repository, each read from the `"bancada"` block of its own `services/<name>/package.json`:
 * plain data that the `bancada` command (cli/src/services.ts), the NATS permissions (infra/nats/permissions.mjs)
 * and the Kubernetes checks (infra/test/k8s.test.ts) all read, so a service is declared in its own folder and
 * nothing else keeps a copy of its name, port or REST prefixes.
 *
 *   "bancada": {
 *     "port": 8788,                        // its REST port when it runs in its own process (<NAME>_PORT)
 *     "paths": ["/v1/scripts"],            // the prefixes of its REST paths (the gateway relays them)
 *     "scopes": ["scripts:read"],          // the scopes it owns: its tools and routes require these (or none),
 *                                          //   and a key may hold any service's (the gateway reads them all here)
 *     "bus": {                             // optional: what it does on NATS beyond every service's subjects
 *       "publishes": ["events.>"],         //   subjects under `<root>.<name>.` it publishes to
 *       "nodeRouted": true                 //   its replicas forward calls to the node that owns what they act on
 *     }
 *   }
 *
 * The list is ordered by port, so a new service (the next free port) comes last. Its service.ts reads its own
 * block's scopes (`defineService({ scopes })`), so they are written once.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";

export const servicesDir = path.resolve(import.meta.dirname, "../../services");

const namePattern = /^[a-z][a-z0-9]*$/;
const scopePattern = /^[a-z][a-z0-9-]*:[a-z][a-z0-9-]*$/;

/** Every service folder whose package.json declares a `"bancada"` block, ordered by port. */
export function registeredServices(dir = servicesDir) {
  const services = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (!entry.isDirectory()) continue;
    const file = path.join(dir, entry.name, "package.json");
    if (!existsSync(file)) continue;
    const manifest = JSON.parse(readFileSync(file, "utf8"));
    if (manifest.bancada === undefined) continue;
    services.push(parseDeclaration(entry.name, manifest, file));
  }
  services.sort((a, b) => a.port - b.port);
  for (let i = 1; i < services.length; i++) {
    if (services[i].port === services[i - 1].port)
      throw new Error(
        `services ${services[i - 1].name} and ${services[i].name} declare the same port ${services[i].port}: give one the next free port`,
      );
  }
  const owners = new Map();
  for (const service of services)
    for (const scope of service.scopes ?? []) {
      if (owners.has(scope))
        throw new Error(`services ${owners.get(scope)} and ${service.name} both declare the scope ${scope}: a scope has one owner`);
      owners.set(scope, service.name);
    }
  return services;
}

/** Every scope the services own, in the registry's order (the gateway adds its own: audit and keys). */
export function registeredScopes(dir = servicesDir) {
  return registeredServices(dir).flatMap((service) => service.scopes ?? []);
}

/** The names of the registered services, in the registry's order. */
export function registeredServiceNames(dir = servicesDir) {
  return registeredServices(dir).map((service) => service.name);
}

/** One package.json's block, checked: a wrong field fails here naming its file, not later in a deployment. */
export function parseDeclaration(name, manifest, file = `${name}/package.json`) {
  const fail = (message) => {
    throw new Error(`${file}: "bancada".${message}`);
  };
  if (!namePattern.test(name))
    throw new Error(`${file}: the service folder's name must be lowercase letters and digits, starting with a letter (got ${name})`);
  if (manifest.name !== `@bancada/${name}`) throw new Error(`${file}: the package must be named @bancada/${name} (got ${manifest.name})`);
  const block = manifest.bancada;
  if (typeof block !== "object" || block === null) fail(" must be an object");
  const { port, paths, scopes = [], bus = {} } = block;
  if (!Number.isInteger(port) || port < 1024 || port > 65_535) fail("port must be an integer from 1024 to 65535");
  if (!Array.isArray(paths) || paths.length === 0) fail("paths must list its REST path prefixes");
  for (const prefix of paths)
    if (typeof prefix !== "string" || !/^\/[a-z0-9/-]+$/.test(prefix))
      fail(`paths: ${JSON.stringify(prefix)} is not a path prefix such as /v1/${name}`);
  if (!Array.isArray(scopes) || scopes.some((scope) => typeof scope !== "string" || !scopePattern.test(scope)))
    fail(`scopes must list the scopes it owns, each <domain>:<action> in lowercase, such as ${name}:read`);
  const publishes = bus.publishes ?? [];
  if (
    !Array.isArray(publishes) ||
    publishes.some((subject) => typeof subject !== "string" || !/^[A-Za-z0-9_*>-]+(\.[A-Za-z0-9_*>-]+)*$/.test(subject))
  )
    fail("bus.publishes must list NATS subjects under the service's own (events.>)");
  const nodeRouted = bus.nodeRouted ?? false;
  if (typeof nodeRouted !== "boolean") fail("bus.nodeRouted must be true or false");
  const unknown = Object.keys(block).filter((key) => !["port", "paths", "scopes", "bus"].includes(key));
  if (unknown.length) fail(`${unknown[0]} is not a field this repository reads (port, paths, scopes, bus)`);
  // a service that owns no scope has no `scopes` field
  const owned = scopes.length ? { scopes: [...new Set(scopes)] } : {};
  return { name, port, paths: [...paths], ...owned, bus: { publishes: [...publishes], nodeRouted } };
}
