#!/usr/bin/env node
/**
 * Makes a new service that works at once: `pnpm new-service <name>`.
 *
 *   node cli/scripts/new-service.mjs <name> [--root <repository>] [--no-install]
 *
 * Writes services/<name>/ (package with its "bancada" block on the next free port and its scopes, Prisma schema and first
 * migration, defineService declaration, one tool, one REST route, a test) and docs/<name>.md, then registers it:
 * the import and `served(...)` line in cli/src/services.ts (the one line a person would write by hand), the CLI's
 * dependency on the package, its Kubernetes manifest and lines (infra/k8s/services.mjs), the NATS users
 * (infra/nats/render.mjs) and its image's target (infra/images/render.mjs). Then `pnpm install` links the package and `prisma generate` makes its
 * client (`--no-install` leaves both to the caller). Nothing is overwritten: an existing name is refused.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { pathToFileURL } from "node:url";
import { skeletonFiles } from "./service-skeleton.mjs";

const reserved = new Set(["gateway", "cli", "console", "e2e", "bench", "infra", "contracts", "nats", "registry"]);

/** Why `name` cannot be a new service in `root`, or undefined. */
export function refusal(name, root, registered) {
  if (!/^[a-z][a-z0-9]{1,30}$/.test(name))
    return `a service's name is 2 to 31 lowercase letters and digits, starting with a letter (got "${name}")`;
  if (reserved.has(name)) return `"${name}" is taken by a component of the house; choose another name`;
  if (registered.some((service) => service.name === name) || existsSync(path.join(root, "services", name)))
    return `services/${name} already exists; choose another name`;
  return undefined;
}

/** The versions the workspace already uses for what a skeleton imports (one copy of each in the lockfile). */
function workspaceVersions(root) {
  const scripts = JSON.parse(readFileSync(path.join(root, "services/scripts/package.json"), "utf8"));
  const all = { ...scripts.dependencies, ...scripts.devDependencies };
  const names = ["@prisma/adapter-pg", "@prisma/client", "express", "zod", "@modelcontextprotocol/sdk", "@types/express", "prisma"];
  return Object.fromEntries(names.map((name) => [name, all[name]]));
}

const pascal = (name) => name[0].toUpperCase() + name.slice(1);

/** cli/src/services.ts with the service's imports and its `served(...)` line at the end of the list. */
export function registerInCli(source, name) {
  const imports = `import { ${name}Service } from "@bancada/${name}";\nimport ${name}Package from "@bancada/${name}/package.json" with { type: "json" };\n`;
  const anchor = 'import { migrationsDir as gatewayMigrations } from "@bancada/gateway";\n';
  const listEnd = "\n] as const;";
  if (!source.includes(anchor) || !source.includes(listEnd))
    throw new Error("cli/src/services.ts has changed shape: add the service's import and served(...) line by hand");
  return source.replace(anchor, `${imports}${anchor}`).replace(listEnd, `\n  served(${name}Service, ${name}Package),${listEnd}`);
}

/** A package.json with one more workspace dependency, kept in name order. */
export function addWorkspaceDependency(source, name) {
  const manifest = JSON.parse(source);
  const entries = Object.entries({ ...manifest.dependencies, [`@bancada/${name}`]: "workspace:*" }).sort(([a], [b]) => a.localeCompare(b));
  manifest.dependencies = Object.fromEntries(entries);
  return `${JSON.stringify(manifest, null, 2)}\n`;
}

/** A migration folder's stamp, as `prisma migrate dev` names one (UTC, to the second). */
const stampOf = (date) => date.toISOString().replace(/[-:T]/g, "").slice(0, 14);

export async function newService(name, { root, install = true, log = (line) => process.stdout.write(`${line}\n`), now = new Date() }) {
  const { registeredServices } = await import(pathToFileURL(path.join(root, "packages/service-registry/index.mjs")).href);
  const registered = registeredServices(path.join(root, "services"));
  const problem = refusal(name, root, registered);
  if (problem) throw new Error(problem);
  const port = Math.max(...registered.map((service) => service.port)) + 1;

  const made = skeletonFiles(name, { port, versions: workspaceVersions(root), migrationStamp: stampOf(now) });
  for (const [file, text] of Object.entries(made)) {
    mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    writeFileSync(path.join(root, file), text, { flag: "wx" });
  }
  const edit = (file, change) => writeFileSync(path.join(root, file), change(readFileSync(path.join(root, file), "utf8")));
  edit("cli/src/services.ts", (source) => registerInCli(source, name));
  edit("cli/package.json", (source) => addWorkspaceDependency(source, name));
  edit("docs/README.md", (source) =>
    source.replace(
      "| [tracing.md](tracing.md) |",
      `| [${name}.md](${name}.md) | the ${name} service (made by \`pnpm new-service\`: say what it keeps) |\n| [tracing.md](tracing.md) |`,
    ),
  );
  // the skeleton in the house's formatting, whatever the length of its name
  const prettier = path.join(root, "node_modules/prettier/bin/prettier.cjs");
  run(process.execPath, [prettier, "--log-level", "warn", "--write", `services/${name}`, "cli/src/services.ts", "cli/package.json"], root);
  const infra = (script, args) => run(process.execPath, [path.join(root, script), ...args], root);
  const k8s = infra("infra/k8s/services.mjs", [name]);
  infra("infra/nats/render.mjs", []);
  infra("infra/images/render.mjs", []);
  log(`made services/${name}/ (port ${port}, REST /v1/${name}) and docs/${name}.md`);
  log(`registered it in cli/src/services.ts, cli/package.json, docs/README.md, infra/k8s/base/nats/auth.conf, infra/images/Containerfile`);
  for (const line of k8s.trim().split("\n").filter(Boolean)) log(line);
  if (install) {
    run("pnpm", ["install", "--offline", "--ignore-scripts"], root);
    run("pnpm", ["--filter", `@bancada/${name}`, "exec", "prisma", "generate"], root);
    log(`linked @bancada/${name} and generated its Prisma client`);
  }
  log(`next: edit services/${name}/src (the domain's words in ${pascal(name)}'s tools and docs/${name}.md), then run its test:`);
  log(`  pnpm exec vitest run services/${name}/test`);
  return { port, files: Object.keys(made) };
}

function run(command, args, cwd) {
  const result = spawnSync(command, args, { cwd, encoding: "utf8", maxBuffer: 64 << 20 });
  if (result.status !== 0)
    throw new Error(`${command} ${args.join(" ")} failed:\n${result.stderr || result.stdout || result.error?.message}`);
  return result.stdout;
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: { root: { type: "string" }, "no-install": { type: "boolean" } },
  });
  const [name] = positionals;
  if (!name || positionals.length > 1) {
    process.stderr.write("usage: pnpm new-service <name>   (2 to 31 lowercase letters and digits)\n");
    process.exit(2);
  }
  try {
    await newService(name, { root: path.resolve(values.root ?? path.join(import.meta.dirname, "../..")), install: !values["no-install"] });
  } catch (error) {
    process.stderr.write(`bancada new-service: ${error.message}\n`);
    process.exit(1);
  }
}
