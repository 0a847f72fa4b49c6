/**
 * A service's own HTTP app: health, metrics, and its REST routes behind the Host/Origin guards (browsers will
 * call them from a console), bearer auth and the one error handler. `/healthz` answers while the process runs and
 * reports its file descriptors; `/readyz` fails (503) while they are at 90 % of the limit (descriptors.ts).
 */
import express, { type Express, type Router } from "express";
import { hostGuard, originGuard, type GuardOptions } from "./http-guards.js";
import type { KeyResolver } from "./key-resolver.js";
import type { Logger } from "./logger.js";
import type { ToolMetrics } from "./metrics.js";
import { metricsPath, metricsRoute, type MetricsAccess } from "./metrics-route.js";
import { utf8BodyGuard } from "./body-charset.js";
import { bodyTimeout, defaultBodyTimeoutMs } from "./http-limits.js";
import { descriptorPressure, descriptorUse } from "./descriptors.js";
import { RateLimiter, type RateLimitOptions } from "./rate-limit.js";
import { requestLog } from "./request-log.js";
import { requestPathGuard } from "./request-path.js";
import { openApiDeclaration, openApiPath, openApiRoute, type OpenApiInfo } from "./openapi.js";
import { mountRoutes, restRoutes } from "./rest-routes.js";
import { authenticate, jsonBody, notFoundRoute, restErrorHandler } from "./rest.js";

export interface ServiceAppOptions {
  routes: Router[];
  resolver: KeyResolver;
  log: Logger;
  metrics?: ToolMetrics;
  /** Who may read `/metrics` (a bearer token; refused in production without one). */
  metricsAccess?: MetricsAccess;
  /** Which Host and Origin values the REST routes accept (the gateway's `/mcp` applies the same rules). */
  guards: GuardOptions;
  /** When false, the app answers only its own paths and passes the rest on (mounted in another app). */
  terminal?: boolean;
  /** A token bucket per API key for the REST requests (none when omitted). */
  rateLimit?: RateLimitOptions;
  /** Time a request's body may take to arrive (default 30 s). */
  bodyTimeoutMs?: number;
  /** The title and version of the OpenAPI document at `GET /v1/openapi.json` (of the routes given here). */
  api?: OpenApiInfo;
}

export function createServiceApp(options: ServiceAppOptions): Express {
  const app = express();
  app.disable("x-powered-by");
  app.use(requestPathGuard());
  app.get("/healthz", (_req, res) => void res.json({ status: "ok", descriptors: descriptorUse() }));
  app.get("/readyz", (_req, res) => {
    const descriptors = descriptorUse();
    const pressure = descriptorPressure(descriptors);
    res
      .status(pressure ? 503 : 200)
      .json(pressure ? { status: "unready", reason: pressure, descriptors } : { status: "ready", descriptors });
  });
  if (options.metrics) app.get(metricsPath, ...metricsRoute(options.metrics, options.guards, options.metricsAccess));
  app.use("/v1", requestLog(options.log));
  // the document describes the API, not anyone's data: served without a key, like most public API docs
  const info = options.api ?? { title: "Bancada REST API", version: "1" };
  restRoutes(app).get(
    openApiPath,
    openApiDeclaration,
    openApiRoute(info, () => [app]),
  );
  const limiter = options.rateLimit ? new RateLimiter(options.rateLimit) : undefined;
  // who is calling is known before any body is read: an anonymous client never costs a parse
  app.use(
    "/v1",
    bodyTimeout(options.bodyTimeoutMs ?? defaultBodyTimeoutMs),
    hostGuard(options.guards),
    originGuard(options.guards),
    utf8BodyGuard(),
    authenticate(options.resolver, limiter),
    jsonBody(),
  );
  for (const router of options.routes) mountRoutes(app, router);
  if (options.terminal !== false) app.use(notFoundRoute());
  app.use(restErrorHandler(options.log));
  return app;
}
