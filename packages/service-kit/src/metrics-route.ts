/**
 * `GET /metrics` on every HTTP port: behind the Host check like every API of ours, and behind a bearer token when
 * one is set (BANCADA_METRICS_TOKEN). The metrics name every tool, service and error rate of the instance, so in
 * production (NODE_ENV=production) they are not served at all without a token: a scraper sends
 * `Authorization: Bearer <token>`.
 */
import { createHash, timingSafeEqual } from "node:crypto";
import type { RequestHandler } from "express";
import { DomainError, ErrorCode } from "@bancada/contracts";
import { hostGuard, type GuardOptions } from "./http-guards.js";
import type { ToolMetrics } from "./metrics.js";
import { bearerToken } from "./rest.js";

export interface MetricsAccess {
  /** The bearer token a scrape must send; without one, /metrics is open to any allowed Host (outside production). */
  token?: string;
  /** NODE_ENV=production: without a token, /metrics is refused. */
  production?: boolean;
}

export const metricsPath = "/metrics";

export function metricsRoute(metrics: ToolMetrics, guards: GuardOptions, access: MetricsAccess = {}): RequestHandler[] {
  const expected = access.token ? digest(access.token) : undefined;
  const allowed: RequestHandler = (req, _res, next) => {
    if (expected) {
      const sent = bearerToken(req.headers.authorization);
      if (sent && timingSafeEqual(digest(sent), expected)) return next();
      return next(new DomainError(ErrorCode.unauthenticated, "Send the metrics token as 'Authorization: Bearer <BANCADA_METRICS_TOKEN>'."));
    }
    if (access.production)
      return next(
        new DomainError(
          ErrorCode.permissionDenied,
          "Metrics are not served in production without BANCADA_METRICS_TOKEN; set it and scrape with that bearer token.",
        ),
      );
    next();
  };
  const serve: RequestHandler = async (_req, res) => {
    res.type(metrics.registry.contentType).send(await metrics.registry.metrics());
  };
  return [hostGuard(guards), allowed, serve];
}

/** Both sides hashed: equal lengths for timingSafeEqual, whatever the client sends. */
function digest(text: string): Buffer {
  return createHash("sha256").update(text).digest();
}
