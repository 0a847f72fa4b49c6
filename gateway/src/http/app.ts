/** The gateway's HTTP surface: /mcp, health, readiness, metrics, OAuth (discovery, authorization server, consent), the caller's keys and the web console. */
import express, { type Express, type RequestHandler } from "express";
import {
  authenticate,
  bodyTimeout,
  defaultBodyTimeoutMs,
  hostGuard,
  metricsPath,
  metricsRoute,
  mountRoutes,
  notFoundRoute,
  openApiDeclaration,
  openApiPath,
  openApiRoute,
  originGuard,
  requestLog,
  requestPathGuard,
  restErrorHandler,
  restRoutes,
  utf8BodyGuard,
  type GuardOptions,
  type Logger,
  type MetricsAccess,
  type RateLimiter,
  type RouteSource,
  type ToolMetrics,
} from "@bancada/service-kit";
import type { StdioLaunch } from "@bancada/contracts";
import type { AuditTrail } from "../audit.js";
import type { Catalog } from "../catalog.js";
import type { GatewayDb } from "../db/client.js";
import { adminRoutes } from "./admin-routes.js";
import { auditRoute } from "./audit-route.js";
import { consolePage, consoleRoute } from "./console-route.js";
import { keyRoutes } from "./key-routes.js";
import { mcpRoute, type McpRouteOptions } from "./mcp-route.js";
import { oauthRoutes } from "./oauth-routes.js";

export interface GatewayAppOptions extends McpRouteOptions, GuardOptions {
  catalog: Catalog;
  metrics: ToolMetrics;
  /** Who may read `/metrics` (a bearer token; refused in production without one). */
  metricsAccess?: MetricsAccess;
  log: Logger;
  /** The gateway's database and audit trail, for `GET /v1/audit`. */
  db: GatewayDb;
  audit?: AuditTrail;
  /** The per-key token bucket of the gateway's own REST routes (audit, keys). */
  restLimiter?: RateLimiter;
  /** Time a request's body may take to arrive (default 30 s). */
  bodyTimeoutMs?: number;
  /** Enables the admin REST API for keys (`/admin/keys`) with this bearer token. */
  adminToken?: string;
  /** The built web console served at `/` (console/dist); without it `/` says how to build it. */
  consoleDir?: string;
  /** Mounted after the gateway's own routes (the single-process mode serves the services' REST here too). */
  extra?: RequestHandler[];
  /**
   * The REST routes of services in other processes (`restRelay`), ahead of every route of the gateway's own: the
   * service logs, guards and limits each request itself, so the gateway's own request log and guards would only
   * repeat that work (its prefixes are none of the gateway's).
   */
  relay?: RequestHandler;
  /** How a local MCP client starts this Bancada over stdio (shown with a new key). */
  stdioLaunch?: StdioLaunch;
}

export function createGatewayApp(options: GatewayAppOptions): Express {
  const app = express();
  app.disable("x-powered-by");
  app.set("trust proxy", "loopback");
  app.use(requestPathGuard());
  // /mcp first: the hot route's requests meet no other route's path test on their way (about 10 µs a call)
  const bodyGuards = [bodyTimeout(options.bodyTimeoutMs ?? defaultBodyTimeoutMs), utf8BodyGuard()];
  app.use("/mcp", hostGuard(options), originGuard(options), ...bodyGuards);
  app.use(mcpRoute(options));
  if (options.relay) app.use(options.relay);
  app.use(["/v1", "/admin"], requestLog(options.log));
  app.get("/healthz", (_req, res) => void res.json({ status: "ok" }));
  app.get("/readyz", readiness(options.catalog));
  app.get(metricsPath, ...metricsRoute(options.metrics, options, options.metricsAccess));
  // one document for all this port serves: the gateway's routes and, in one process, the services' (`extra`)
  restRoutes(app).get(
    openApiPath,
    openApiDeclaration,
    openApiRoute({ title: "Bancada REST API", version: "1" }, () => [app]),
  );
  app.use("/admin", hostGuard(options), originGuard(options));
  app.use(["/v1", "/admin"], ...bodyGuards);
  mountRoutes(app, adminRoutes(options.keys, options.adminToken));
  app.use(
    "/v1/audit",
    hostGuard(options),
    originGuard(options),
    authenticate({ resolve: (token) => options.keys.resolve(token, "full") }, options.restLimiter),
  );
  mountRoutes(app, auditRoute(options.db, options.audit));
  mountRoutes(app, keyRoutes(options.keys, options, options.restLimiter, options.stdioLaunch));
  if (options.oauth)
    mountRoutes(
      app,
      oauthRoutes({
        oauth: options.oauth,
        keys: options.keys,
        guards: options,
        consolePage: consolePage(options.consoleDir),
        ...(options.restLimiter ? { limiter: options.restLimiter } : {}),
      }),
    );
  app.use(consoleRoute(options.consoleDir, options));
  for (const handler of options.extra ?? []) mountRoutes(app, handler);
  app.use(notFoundRoute());
  app.use(restErrorHandler(options.log));
  return app;
}

/** What the gateway's port answers from: its own routes, then the apps mounted after them (express hides a mounted app's routes). */
export function routeSources(app: Express, extra: readonly RequestHandler[] = []): RouteSource[] {
  return [app, ...(extra as unknown as RouteSource[])];
}

function readiness(catalog: Catalog): RequestHandler {
  let lastCheck = 0;
  return async (_req, res) => {
    if (Date.now() - lastCheck > 2_000) {
      lastCheck = Date.now();
      await catalog.refresh();
    }
    const services = catalog.healthy(60_000);
    const ready = Object.values(services).every(Boolean);
    res.status(ready ? 200 : 503).json({ status: ready ? "ready" : "degraded", services });
  };
}
