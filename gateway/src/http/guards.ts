/**
 * DNS-rebinding and cross-origin protection for `/mcp`: the Host must be one we serve, and a browser's
 * Origin must be allowed (403 otherwise). On a loopback bind only loopback names are accepted.
 */
import type { RequestHandler } from "express";
import { hostHeaderValidation, localhostHostValidation } from "@modelcontextprotocol/sdk/server/middleware/hostHeaderValidation.js";

export interface GuardOptions {
  bindHost: string;
  allowedHosts: string[];
  allowedOrigins: string[];
}

const loopbackNames = new Set(["localhost", "127.0.0.1", "[::1]", "::1"]);

export function isLoopback(host: string): boolean {
  return loopbackNames.has(host) || host.startsWith("127.");
}

export function hostGuard(options: GuardOptions): RequestHandler {
  if (options.allowedHosts.length > 0) return hostHeaderValidation(options.allowedHosts);
  if (isLoopback(options.bindHost)) return localhostHostValidation();
  return (_req, _res, next) => next();
}

export function originGuard(options: GuardOptions): RequestHandler {
  const allowed = new Set(options.allowedOrigins);
  return (req, res, next) => {
    const origin = req.headers.origin;
    if (!origin || allowed.has(origin) || allowed.has("*")) return next();
    let hostname = "";
    try {
      hostname = new URL(origin).hostname;
    } catch {
      // an unparsable Origin is refused below
    }
    const sameHost = hostname !== "" && hostname === (req.hostname ?? "");
    if (isLoopback(options.bindHost) ? isLoopback(hostname) || isLoopback(`[${hostname}]`) : sameHost) return next();
    res.status(403).json({ error: { code: "permission_denied", message: `Origin ${origin} is not allowed; add it to BANCADA_ALLOWED_ORIGINS.` } });
  };
}
