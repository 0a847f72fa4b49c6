/**
 * A service is a declaration: its name, its Postgres schema and migrations, and what its tools, prompts,
 * REST routes and periodic jobs are made from. Every service starts the same way — migrations, the Prisma
 * client, the service's own parts, the tools on the bus, the jobs — and stops in the reverse order: no new
 * calls, the jobs' rounds finished, the service's own parts, the client last (nothing may query it after).
 */
import type { Router } from "express";
import { noScope, type Vocabulary } from "@bancada/contracts";
import type { ResourceDefinition } from "./define-resource.js";
import type { Tool } from "./define-tool.js";
import type { Logger } from "./logger.js";
import { resourceChanges } from "./resource-changes.js";
import { applyMigrations } from "./migrations.js";
import { startPeriodicJob, type PeriodicJob } from "./periodic-job.js";
import type { ServiceOptions } from "./service-options.js";
import { hostTools, type PromptDefinition, type ToolHost } from "./tool-host.js";

/** What a service's Prisma client must offer to be started and stopped here. */
export interface ServiceDb {
  $disconnect(): Promise<void>;
}

/** What every hook is given: the service's client, the options it was started with, its logger. */
export interface ServiceScope<Db, Options extends ServiceOptions> {
  db: Db;
  options: Options;
  /** The service's own logger (`svc: <name>`). */
  log: Logger;
  /** Tells the gateways that one of this service's MCP resources changed (resource-changes.ts). */
  resourceChanged: (accountId: string, uri: string) => void;
}

/** One periodic upkeep task (service-kit's startPeriodicJob, with the service's logger). */
export interface JobDeclaration {
  name: string;
  intervalMs: number;
  run: () => Promise<unknown>;
  /** The first round at start instead of after one interval. */
  runNow?: boolean;
}

export interface ServiceDeclaration<
  Name extends string,
  Options extends ServiceOptions,
  Db extends ServiceDb,
  Context,
  Exposed extends object,
> {
  name: Name;
  version: string;
  instructions: string;
  /**
   * The scopes this service's tools and routes require (`<domain>:<action>`): the service owns them, and a tool of
   * its own may require only one of these (or `noScope`); a start with any other fails naming the tool. A service
   * reads them from the `"bancada"` block of its package.json, where the gateway learns every service's.
   */
  scopes: readonly string[];
  /** The service's words for its domain: the gateway's tool search reads questions with them (contracts' `vocabulary`). */
  vocabulary?: Vocabulary;
  prisma: {
    /** The Postgres schema that holds the service's tables and its `_prisma_migrations`. */
    schema: string;
    /** The committed Prisma migrations, applied at every start. */
    migrationsDir: string;
    createClient(connectionString: string, poolMax?: number): Db;
  };
  /**
   * What the tools, routes and jobs share, made once the client exists (a driver, a blob store, a worker).
   * Without it they are given the client itself.
   */
  context?(scope: ServiceScope<Db, Options>): Context | Promise<Context>;
  /** Work that must be done before the first call is taken (loading a corpus, recovering what a previous process left). */
  start?(context: Context, scope: ServiceScope<Db, Options>): Promise<void>;
  tools(context: Context, scope: ServiceScope<Db, Options>): Tool[];
  /**
   * Whether this process takes the tools' calls from the bus (default yes). A process that runs only a part of its
   * service says no (a boxes node agent: the control plane takes the calls); its REST routes still run them here.
   */
  servesBus?(context: Context): boolean;
  prompts?(context: Context, scope: ServiceScope<Db, Options>): PromptDefinition[];
  /** The MCP resource families the service serves (define-resource.ts). */
  resources?(context: Context, scope: ServiceScope<Db, Options>): ResourceDefinition[];
  routes(context: Context, scope: ServiceScope<Db, Options>): Router;
  /** The periodic upkeep; `false` leaves a job out of this start. They stop in this order. */
  jobs?(context: Context, scope: ServiceScope<Db, Options>): ReadonlyArray<JobDeclaration | false>;
  /** Stops what `context` started: after the tools and jobs have stopped, before the client is closed. */
  stop?(context: Context): Promise<void>;
  /** Fields added to the running service, for those who start it (tests reach a driver or a worker). */
  expose?(context: Context): Exposed;
}

/** A started service: its client, its tools on the bus, its REST routes (mounted by whoever serves HTTP). */
export type RunningService<Name extends string = string, Db = unknown, Exposed extends object = object> = {
  name: Name;
  db: Db;
  host: ToolHost;
  routes: Router;
  /** Stops taking calls, lets the running ones and the jobs' rounds end, then closes the client. */
  stop(): Promise<void>;
} & Exposed;

/** What defineService gives back: the declaration's identity, and a start. */
export interface ServiceDefinition<
  Name extends string = string,
  Options extends ServiceOptions = ServiceOptions,
  Db = unknown,
  Exposed extends object = object,
> {
  name: Name;
  /** The scopes it owns (its declaration's `scopes`). */
  scopes: readonly string[];
  prisma: { schema: string; migrationsDir: string };
  start(options: Options): Promise<RunningService<Name, Db, Exposed>>;
}

/**
 * `defineService<MyServiceOptions>()({ ... })`: the options type is given, the rest is read from the
 * declaration (TypeScript cannot infer one type argument and take another explicitly in one call).
 */
export function defineService<Options extends ServiceOptions = ServiceOptions>() {
  return <const Name extends string, Db extends ServiceDb, Context = Db, Exposed extends object = Record<never, never>>(
    declaration: ServiceDeclaration<Name, Options, Db, Context, Exposed>,
  ): ServiceDefinition<Name, Options, Db, Exposed> => ({
    name: declaration.name,
    scopes: declaration.scopes,
    prisma: { schema: declaration.prisma.schema, migrationsDir: declaration.prisma.migrationsDir },
    start: (options) => startService(declaration, options),
  });
}

async function startService<Name extends string, Options extends ServiceOptions, Db extends ServiceDb, Context, Exposed extends object>(
  declaration: ServiceDeclaration<Name, Options, Db, Context, Exposed>,
  options: Options,
): Promise<RunningService<Name, Db, Exposed>> {
  const log = options.log.child({ svc: declaration.name });
  const { schema, migrationsDir, createClient } = declaration.prisma;
  await applyMigrations({ connectionString: options.databaseUrl, schema, migrationsDir, log });
  const db = createClient(options.databaseUrl, options.poolMax);
  const resourceChanged = resourceChanges(options.bus, options.subjects, declaration.name);
  const scope: ServiceScope<Db, Options> = { db, options, log, resourceChanged };
  let context: Context | undefined;
  try {
    // without a context hook the parts are made from the client (Context defaults to Db)
    context = declaration.context ? await declaration.context(scope) : (db as unknown as Context);
    await declaration.start?.(context, scope);
    return serve(declaration, context, scope);
  } catch (error) {
    // a start that fails half-way leaves nothing running behind it
    if (context !== undefined) await declaration.stop?.(context).catch(() => {});
    await db.$disconnect().catch(() => {});
    throw error;
  }
}

/** The tools on the bus, the jobs, the routes, and the stop that undoes them in order. */
function serve<Name extends string, Options extends ServiceOptions, Db extends ServiceDb, Context, Exposed extends object>(
  declaration: ServiceDeclaration<Name, Options, Db, Context, Exposed>,
  context: Context,
  scope: ServiceScope<Db, Options>,
): RunningService<Name, Db, Exposed> {
  const { db, options, log } = scope;
  const tools = declaration.tools(context, scope);
  for (const tool of tools) {
    if (tool.scope !== noScope && !declaration.scopes.includes(tool.scope))
      throw new Error(
        `${declaration.name}: the tool ${tool.name} requires ${tool.scope}, which the service does not declare in its scopes`,
      );
  }
  const host = hostTools({
    bus: options.bus,
    subjects: options.subjects,
    service: declaration.name,
    version: declaration.version,
    instructions: declaration.instructions,
    ...(declaration.vocabulary ? { vocabulary: declaration.vocabulary } : {}),
    tools,
    prompts: declaration.prompts?.(context, scope),
    resources: declaration.resources?.(context, scope),
    log,
    ...(options.metrics ? { metrics: options.metrics } : {}),
    onBus: declaration.servesBus?.(context) ?? true,
  });
  const jobs: PeriodicJob[] = [];
  for (const job of declaration.jobs?.(context, scope) ?? []) if (job) jobs.push(startPeriodicJob({ ...job, log }));
  const running = {
    name: declaration.name,
    db,
    host,
    routes: declaration.routes(context, scope),
    async stop() {
      host.stop();
      for (const job of jobs) await job.stop();
      await declaration.stop?.(context);
      await db.$disconnect();
    },
  };
  return Object.assign(running, declaration.expose?.(context));
}
