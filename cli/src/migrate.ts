/**
 * `bancada migrate`: applies the pending migrations of some components (all by default) and exits. A component
 * also applies its own at start, so this is for deployments that migrate before they serve (a Kubernetes init
 * container or Job): the same code, the same advisory lock, the same `_prisma_migrations` bookkeeping.
 */
import { parseArgs } from "node:util";
import { applyMigrations, type Logger } from "@bancada/service-kit";
import { openDatabases, type Databases } from "./database.js";
import { UsageError, type Env } from "./env.js";
import { migrationSets } from "./services.js";

export const migrateUsage = `Usage:
  bancada migrate [--only gateway,scripts]   apply pending migrations, then exit`;

export async function runMigrate(env: Env, args: string[], print: (line: string) => void): Promise<void> {
  const { values } = parseArgs({ args, options: { only: { type: "string" } } });
  const known = migrationSets.map((set) => set.component);
  const wanted = values.only ? values.only.split(",").map((name) => name.trim()) : known;
  const unknown = wanted.filter((name) => !known.includes(name));
  if (unknown.length) throw new UsageError(`Unknown component(s) ${unknown.join(", ")}; choose from ${known.join(", ")}.`);
  const databases = await openDatabases(env);
  try {
    for (const set of migrationSets.filter((candidate) => wanted.includes(candidate.component))) {
      const applied = await applyMigrations({
        connectionString: await databases.urlFor(set.component),
        schema: set.schema,
        migrationsDir: set.dir,
      });
      print(`${set.component}: ${applied.length ? `applied ${applied.join(", ")}` : "up to date"}`);
    }
  } finally {
    await databases.stop();
  }
}

/**
 * The embedded start applies every component's migrations before starting them: each at debug, then one summary line
 * at info (a first start printed some twenty "migration applied" lines before its banner). The components find
 * nothing left to apply.
 */
export async function migrateBeforeStart(databases: Databases, components: string[], log: Logger): Promise<void> {
  const applied: string[] = [];
  for (const set of migrationSets.filter((candidate) => components.includes(candidate.component))) {
    const names = await applyMigrations({
      connectionString: await databases.urlFor(set.component),
      schema: set.schema,
      migrationsDir: set.dir,
      log: log.child({ svc: set.component }),
      appliedLevel: "debug",
    });
    applied.push(...names);
  }
  log.info({ applied: applied.length }, applied.length ? `${applied.length} database migrations applied` : "database schemas up to date");
}
