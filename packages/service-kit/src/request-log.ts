/**
 * One log line per REST request, when it ends: route, key id, agent, outcome (`ok` or the error code),
 * status, duration and trace id. Never the query, the body or a header's value: they carry users' data.
 */
import type { Request, RequestHandler } from "express";
import type { Logger } from "./logger.js";
import { errorCodeOf, maybePrincipalOf } from "./rest.js";
import { activeTraceId } from "./telemetry.js";
import { newTraceparent, traceIdOf } from "./trace-context.js";

const logged = Symbol("request logged");
export function requestLog(log: Logger): RequestHandler {
  return (req, res, next) => {
    // an app mounted inside another (the services' REST in the gateway) logs a request once
    const marked = req as unknown as Record<symbol, boolean>;
    if (marked[logged]) return next();
    marked[logged] = true;
    const started = performance.now();
    // the HTTP span's trace when tracing (it read the same header), so that the line and the spans match
    const traceId = activeTraceId() ?? traceIdOf(req.headers.traceparent) ?? traceIdOf(newTraceparent())!;
    res.once("close", () => {
      const principal = maybePrincipalOf(req);
      const code = errorCodeOf(res);
      log.info(
        {
          route: `${req.method} ${routeOf(req)}`,
          status: res.statusCode,
          outcome: code ?? (res.statusCode < 400 ? (res.writableFinished ? "ok" : "aborted") : String(res.statusCode)),
          keyId: principal?.keyId,
          agentId: principal?.agentId,
          durationMs: Math.round(performance.now() - started),
          traceId,
        },
        "rest request",
      );
    });
    next();
  };
}

/** The route's pattern (`/v1/scripts/:id`) when one matched, else the path. */
function routeOf(req: Request): string {
  const pattern = (req.route as { path?: unknown } | undefined)?.path;
  return typeof pattern === "string" ? `${req.baseUrl}${pattern}` : req.originalUrl.split("?")[0]!;
}
