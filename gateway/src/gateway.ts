/** Wiring of the gateway: keys, catalog, routing, the HTTP app and the auth responder on the bus. */
import path from "node:path";
import { Gauge } from "prom-client";
import type { StdioLaunch, Subjects } from "@bancada/contracts";
import {
  RateLimiter,
  applyMigrations,
  createToolMetrics,
  routeTable,
  type Bus,
  type Logger,
  type MetricsAccess,
  type RouteEntry,
  type ToolMetrics,
} from "@bancada/service-kit";
import type { Express, RequestHandler } from "express";
import { AuditTrail } from "./audit.js";
import { CallRouter } from "./call-router.js";
import { Catalog } from "./catalog.js";
import { createGatewayDb, postgresSchema, type GatewayDb } from "./db/client.js";
import { createGatewayApp, routeSources } from "./http/app.js";
import { KeyStore } from "./keys/api-keys.js";
import { serveAuthResolve } from "./keys/serve-auth.js";
import { OAuthServer } from "./oauth/server.js";
import { ToolAnswers } from "./mcp/tool-answers.js";
import { Confirmations } from "./mcp/confirmations.js";
import { LegacySessions } from "./mcp/legacy-sessions.js";
import { ResourceSubscriptions } from "./mcp/resource-subscriptions.js";
import { TaskRunner, type TaskRunnerOptions } from "./mcp/tasks/task-runner.js";
import { TaskStore } from "./mcp/tasks/task-store.js";

export interface GatewayOptions {
  databaseUrl: string;
  bus: Bus;
  subjects: Subjects;
  services: readonly string[];
  /**
   * The scopes every service of the deployment owns, running in this process or not (each service's package.json
   * `"bancada".scopes`): with the gateway's own, what a key or a grant may hold.
   */
  scopes: readonly string[];
  log: Logger;
  keyPepper: string;
  bindHost: string;
  allowedHosts?: string[];
  allowedOrigins?: string[];
  outputSchemas?: boolean;
  rateLimit?: { burst: number; perSecond: number };
  /** Enables the admin REST API for keys with this bearer token. */
  adminToken?: string;
  /** Added to each tool's own maximum duration to make the call's deadline (default 5 s). */
  deadlineMarginMs?: number;
  metrics?: ToolMetrics;
  /** Who may read `/metrics` (a bearer token; refused in production without one). */
  metricsAccess?: MetricsAccess;
  /** The built web console (console/dist) served at `/`. */
  consoleDir?: string;
  /** Time a request's body may take to arrive (default 30 s). */
  bodyTimeoutMs?: number;
  /** Handlers mounted after the gateway's routes (the services' REST in single-process mode). */
  extra?: RequestHandler[];
  /** The REST routes of the services in other processes, relayed to their ports (`restRelay`). */
  relay?: RequestHandler;
  /** How a local MCP client starts this Bancada over stdio: a new key's answer then carries that configuration too. */
  stdioLaunch?: StdioLaunch;
  /** The secret a local stdio bridge shows to be served as stdio (the embedded `bancada start`; see mcp-route.ts). */
  stdioBridgeToken?: string;
  /** Tests only: false sends every MCP request through the SDK, to compare it with the fast path (docs/gateway.md#speed). */
  fastPath?: boolean;
  /** How often an SSE answer carries a keep-alive comment while its call runs (default 15 s). */
  sseKeepAliveMs?: number;
  /**
   * The public URL clients reach this gateway at (BANCADA_PUBLIC_URL): the OAuth issuer, and `<url>/mcp` the resource
   * tokens are bound to. Without it, the origin of the first OAuth request (the embedded default on 127.0.0.1).
   */
  publicUrl?: string;
  /** Development only (BANCADA_OAUTH_ALLOW_PRIVATE_CLIENT_DOCUMENTS=1): fetch client metadata documents from private addresses. */
  allowPrivateClientDocuments?: boolean;
  /** How this replica keeps its MCP tasks alive and finds dead replicas' ones (docs/gateway.md#tasks); tests shorten them. */
  tasks?: Pick<TaskRunnerOptions, "heartbeatMs" | "orphanAfterMs" | "sweepMs" | "maxWorkingPerKey">;
}

export interface Gateway {
  app: Express;
  db: GatewayDb;
  keys: KeyStore;
  /** The OAuth authorization server and its grants. */
  oauth: OAuthServer;
  catalog: Catalog;
  router: CallRouter;
  /** Runs tools/call as MCP tasks, for every transport of this gateway. */
  tasks: TaskRunner;
  /** Asks the person before a call that declares a confirmation, for every transport of this gateway. */
  confirmations: Confirmations;
  subscriptions: ResourceSubscriptions;
  outputSchemas: boolean;
  /** Every method and path the gateway's port answers, with each REST route's declaration (the OpenAPI document's source). */
  routeTable(): RouteEntry[];
  /** Ends the streams that only wait for news (resource updates), so a stop's drain waits for calls alone. */
  drain(): void;
  stop(): Promise<void>;
}

export const migrationsDir = path.join(import.meta.dirname, "../prisma/migrations");
export const gatewayVersion = "0.1.0";

export async function migrateGateway(databaseUrl: string, log?: Logger): Promise<void> {
  await applyMigrations({ connectionString: databaseUrl, schema: postgresSchema, migrationsDir, ...(log ? { log } : {}) });
}

export async function createGateway(options: GatewayOptions): Promise<Gateway> {
  const log = options.log.child({ svc: "gateway" });
  // services run only calls tagged with their key, which the gateway derives from the master secret
  if (!options.bus.keys.holdsMaster)
    throw new Error("The gateway needs the bus master secret (BANCADA_BUS_SIGNING_KEY): its bus holds only services' keys.");
  await migrateGateway(options.databaseUrl, log);
  const db = createGatewayDb(options.databaseUrl);
  const keys = new KeyStore(db, { pepper: options.keyPepper, serviceScopes: options.scopes });
  const metrics = options.metrics ?? createToolMetrics("gateway");
  options.bus.metrics.registerIn(metrics.registry);
  const catalog = new Catalog({ bus: options.bus, subjects: options.subjects, services: options.services, log });
  await catalog.start();
  registerCatalogGauge(metrics, catalog);
  const audit = new AuditTrail(db, log);
  const rateLimit = options.rateLimit ?? { burst: 200, perSecond: 100 };
  const router = new CallRouter({
    bus: options.bus,
    subjects: options.subjects,
    catalog,
    log,
    audit,
    metrics: knownToolsOnly(metrics, catalog),
    rateLimiter: new RateLimiter(rateLimit),
    ...(options.deadlineMarginMs !== undefined ? { deadlineMarginMs: options.deadlineMarginMs } : {}),
  });
  const oauth = new OAuthServer({
    db,
    scopes: keys.scopes,
    secret: options.keyPepper,
    ...(options.publicUrl ? { publicUrl: options.publicUrl } : {}),
    ...(options.allowPrivateClientDocuments ? { allowPrivateClientDocuments: true } : {}),
  });
  const stopSweeping = oauth.sweepExpired();
  const authResponder = serveAuthResolve(options.bus, options.subjects, keys, log);
  const cancellations = router.listenForCancellations();
  const outputSchemas = options.outputSchemas ?? false;
  const tasks = new TaskRunner({
    store: new TaskStore(db),
    answers: new ToolAnswers({ catalog, router, outputSchemas }),
    router,
    log,
    ...options.tasks,
  });
  // sealed with the gateway secret, so an answer may come back to any replica
  const confirmations = new Confirmations(options.keyPepper);
  // 2025-era HTTP clients' answers to questions, heard from any replica
  const sessions = new LegacySessions(options.keyPepper, options.bus, options.subjects, log);
  const answers = sessions.listen();
  // 2025-era resource subscriptions, kept in the gateway schema; changes heard from every service
  const subscriptions = new ResourceSubscriptions({ db, catalog, bus: options.bus, subjects: options.subjects, log });
  const changes = subscriptions.listen();
  const app = createGatewayApp({
    tasks,
    confirmations,
    sessions,
    subscriptions,
    catalog,
    router,
    keys,
    oauth,
    db,
    audit,
    restLimiter: new RateLimiter(rateLimit),
    ...(options.bodyTimeoutMs !== undefined ? { bodyTimeoutMs: options.bodyTimeoutMs } : {}),
    log,
    metrics,
    ...(options.metricsAccess ? { metricsAccess: options.metricsAccess } : {}),
    outputSchemas,
    version: gatewayVersion,
    bodyLimit: "4mb",
    ...(options.adminToken ? { adminToken: options.adminToken } : {}),
    bindHost: options.bindHost,
    allowedHosts: options.allowedHosts ?? [],
    allowedOrigins: options.allowedOrigins ?? [],
    ...(options.extra ? { extra: options.extra } : {}),
    ...(options.relay ? { relay: options.relay } : {}),
    ...(options.consoleDir ? { consoleDir: options.consoleDir } : {}),
    ...(options.stdioLaunch ? { stdioLaunch: options.stdioLaunch } : {}),
    ...(options.stdioBridgeToken ? { stdioBridgeToken: options.stdioBridgeToken } : {}),
    ...(options.fastPath !== undefined ? { fastPath: options.fastPath } : {}),
    ...(options.sseKeepAliveMs !== undefined ? { sseKeepAliveMs: options.sseKeepAliveMs } : {}),
  });
  return {
    app,
    routeTable: () => routeTable(routeSources(app, options.extra)),
    db,
    keys,
    oauth,
    catalog,
    router,
    tasks,
    confirmations,
    subscriptions,
    outputSchemas,
    drain() {
      subscriptions.endStreams();
    },
    async stop() {
      stopSweeping();
      await tasks.stop();
      authResponder.unsubscribe();
      cancellations.unsubscribe();
      answers.unsubscribe();
      changes.unsubscribe();
      catalog.stop();
      await audit.stop();
      await db.$disconnect();
    },
  };
}

/** The label of calls to a tool the catalog does not know: names a client makes up would each add series without bound. */
const unknownToolLabel = "<unknown>";

function knownToolsOnly(metrics: ToolMetrics, catalog: Catalog): ToolMetrics {
  return {
    registry: metrics.registry,
    observe: (tool, outcome, durationMs, service) =>
      metrics.observe(catalog.tool(tool) ? tool : unknownToolLabel, outcome, durationMs, service),
  };
}

function registerCatalogGauge(metrics: ToolMetrics, catalog: Catalog): void {
  if (metrics.registry.getSingleMetric("bancada_catalog_tools")) return;
  new Gauge({
    name: "bancada_catalog_tools",
    help: "Tools in the merged catalog.",
    registers: [metrics.registry],
    collect() {
      this.set(catalog.tools().length);
    },
  });
}
