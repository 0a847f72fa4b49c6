/**
 * The services this build contains — the one list of what the command starts: each service's declaration
 * (`defineService`) and the `"bancada"` block of its package.json (its REST port when it runs alone, its REST
 * prefixes: @bancada/service-registry reads the same block for the NATS permissions and the Kubernetes checks), and
 * from them the migration sets, the `<SERVICE>_DATABASE_URL` and `<SERVICE>_PORT` variables (env.ts) and the
 * services the gateway routes to. A new service is one more import and one more line here;
 * `cli/test/service-registry.test.ts` checks this list is the registry's.
 */
import path from "node:path";
import type { z } from "zod";
import type { Subjects } from "@bancada/contracts";
import type { Bus, Logger, RunningService, ServiceDefinition, ServiceOptions, ToolMetrics } from "@bancada/service-kit";
import { boardsService } from "@bancada/boards";
import boardsPackage from "@bancada/boards/package.json" with { type: "json" };
import { boxesCommandOptions, boxesEnvFields, boxesEnvRefusal, boxesService } from "@bancada/boxes";
import boxesPackage from "@bancada/boxes/package.json" with { type: "json" };
import { docsCommandOptions, docsEnvFields, docsService } from "@bancada/docs";
import docsPackage from "@bancada/docs/package.json" with { type: "json" };
import { draftsService } from "@bancada/drafts";
import draftsPackage from "@bancada/drafts/package.json" with { type: "json" };
import { scriptsService } from "@bancada/scripts";
import scriptsPackage from "@bancada/scripts/package.json" with { type: "json" };
import { migrationsDir as gatewayMigrations } from "@bancada/gateway";

export type { RunningService };

/** What the services read of the environment (env.ts parses it; it also builds its per-service variables from the list below). */
interface ServiceEnv {
  BANCADA_DATA_DIR: string;
  NATS_URL?: string | undefined;
  BANCADA_PUBLIC_URL?: string | undefined;
  DATABASE_URL?: string | undefined;
  /** And every service's own variables (`envFields`), validated with the rest; a service reads its own. */
  [variable: string]: unknown;
}

export interface ServiceDeps {
  databaseUrl: string;
  bus: Bus;
  subjects: Subjects;
  log: Logger;
  metrics: ToolMetrics;
  env: ServiceEnv;
  /** True when the embedded PostgreSQL serves this process (the zero-configuration mode). */
  embedded: boolean;
}

/** A service as this command runs it. */
export interface ServedService<Name extends string = string> {
  name: Name;
  /** The scopes the service owns (its declaration's). */
  scopes: readonly string[];
  prisma: { schema: string; migrationsDir: string };
  /** The default of `<NAME>_PORT`, its REST port when it runs without the gateway (`--only <name>`). */
  port: number;
  /** The prefixes of its REST paths: a gateway without this service in its process relays them to its port. */
  paths: readonly string[];
  /** Variables of its own the command validates at start with every other (env.ts). */
  envFields: Readonly<Record<string, z.ZodType>>;
  /** Why this process must not start it with this environment (one line for the user), or undefined. */
  refusal(env: ServiceEnv): string | undefined;
  start(deps: ServiceDeps): Promise<RunningService>;
}

/** What a service adds to how this command runs it: its variables, its refusal, its options beyond every service's. */
interface CommandDeclaration<Options extends ServiceOptions> {
  envFields?: Readonly<Record<string, z.ZodType>>;
  refusal?: (env: ServiceEnv) => string | undefined;
  options?: (deps: ServiceDeps) => Omit<Options, keyof ServiceOptions>;
}

/** The block of a service's package.json this command reads (@bancada/service-registry checks all of it). */
interface ServicePackage {
  bancada: { port: number; paths: readonly string[] };
}

/** A service as this command runs it: its declaration, its package's block, and what `command` adds. */
function served<const Name extends string, Options extends ServiceOptions>(
  service: ServiceDefinition<Name, Options, unknown, object>,
  { bancada: { port, paths } }: ServicePackage,
  { envFields = {}, refusal = () => undefined, options }: CommandDeclaration<Options> = {},
): ServedService<Name> {
  const start = (deps: ServiceDeps) => {
    const given: ServiceOptions = { ...deps, ...options?.(deps) };
    // deps hold every service's options and `options` the rest of this one's: TypeScript cannot join the two
    return service.start(given as Options);
  };
  return { name: service.name, scopes: service.scopes, prisma: service.prisma, port, paths, envFields, refusal, start };
}

const dataDirOf = (deps: ServiceDeps, folder: string): string => path.join(path.resolve(deps.env.BANCADA_DATA_DIR), folder);

export const services = [
  served(scriptsService, scriptsPackage),
  served(boardsService, boardsPackage, { options: (deps) => ({ consoleUrl: deps.env.BANCADA_PUBLIC_URL }) }),
  served(docsService, docsPackage, { envFields: docsEnvFields, options: (deps) => docsCommandOptions(deps.env, deps) }),
  served(draftsService, draftsPackage, {
    options: (deps) => ({
      dataDir: dataDirOf(deps, "drafts-assets"),
      // a local path is the caller's own file only when no separate deployment is in play
      localFileUploads: deps.embedded || !deps.env.NATS_URL,
    }),
  }),
  served(boxesService, boxesPackage, {
    envFields: boxesEnvFields,
    refusal: boxesEnvRefusal,
    options: (deps) => boxesCommandOptions(deps.env, deps),
  }),
] as const;

export type ServiceName = (typeof services)[number]["name"];
export const serviceNames: ServiceName[] = services.map((service) => service.name);

/** The scopes the services own, each declared once in its package.json (the gateway adds its own). */
export const serviceScopes: readonly string[] = services.flatMap((service) => service.scopes);

export function serviceNamed(name: string): ServedService | undefined {
  return services.find((service) => service.name === name);
}

/** Every component's Postgres schema and committed Prisma migrations. */
export const migrationSets = [
  { component: "gateway", schema: "gateway", dir: gatewayMigrations },
  ...services.map((service) => ({ component: service.name, schema: service.prisma.schema, dir: service.prisma.migrationsDir })),
];
