/**
 * DNS-rebinding and cross-origin protection for every HTTP API of ours (`/mcp` and the REST routes alike):
 * the Host must be one we serve, and a browser's Origin must be allowed (403 with the error envelope
 * otherwise). A request without Origin is not from a browser page and passes. Hosts are compared after
 * parsing, exactly: `127.0.0.1.evil.com` and `localhost.evil.com` are not loopback.
 */
import { isIPv4 } from "node:net";
import type { RequestHandler, Response } from "express";
import { ErrorCode } from "@bancada/contracts";

export interface GuardOptions {
  /** The address the server listens on: on a loopback address only loopback names are accepted. */
  bindHost: string;
  /** Host names (no port) the server answers to, e.g. behind a load balancer; empty: see bindHost. */
  allowedHosts: string[];
  /** Browser origins allowed besides the server's own (`*` for any). */
  allowedOrigins: string[];
}

/** A loopback host name as a URL parser gives it (`[::1]` with brackets), or a bind address. */
export function isLoopback(hostname: string): boolean {
  const host = hostname.toLowerCase();
  if (host === "localhost" || host === "[::1]" || host === "::1") return true;
  return isIPv4(host) && host.startsWith("127.");
}

export function hostGuard(options: GuardOptions): RequestHandler {
  const allowed = new Set(options.allowedHosts.map((host) => host.toLowerCase()));
  const loopbackOnly = allowed.size === 0 && isLoopback(options.bindHost);
  return (req, res, next) => {
    if (allowed.size === 0 && !loopbackOnly) return next();
    const hostname = hostnameOf(req.headers.host);
    if (hostname && (loopbackOnly ? isLoopback(hostname) : allowed.has(hostname))) return next();
    refuse(
      res,
      `Host ${req.headers.host ?? "(none)"} is not served here${loopbackOnly ? " (loopback names only)" : ""}; add it to BANCADA_ALLOWED_HOSTS.`,
    );
  };
}

export function originGuard(options: GuardOptions): RequestHandler {
  const allowed = new Set(options.allowedOrigins.map(normalOrigin));
  return (req, res, next) => {
    const origin = req.headers.origin;
    if (origin === undefined || allowed.has("*") || allowed.has(normalOrigin(origin))) return next();
    const hostname = hostnameOf(safeUrl(origin)?.host);
    const own = isLoopback(options.bindHost)
      ? hostname !== undefined && isLoopback(hostname)
      : hostname !== undefined && hostname === hostnameOf(req.headers.host);
    if (own) return next();
    refuse(res, `Origin ${origin} is not allowed; add it to BANCADA_ALLOWED_ORIGINS.`);
  };
}

function refuse(res: Response, message: string): void {
  res.status(403).json({ error: { code: ErrorCode.permissionDenied, message } });
}

/** The host name of a `host[:port]` value, lower-cased, IPv6 in brackets; undefined when it does not parse. */
function hostnameOf(host: string | undefined): string | undefined {
  if (!host) return undefined;
  return safeUrl(`http://${host}`)?.hostname || undefined;
}

function safeUrl(text: string): URL | undefined {
  try {
    return new URL(text);
  } catch {
    return undefined;
  }
}

function normalOrigin(origin: string): string {
  if (origin === "*") return origin;
  const url = safeUrl(origin);
  return url && url.origin !== "null" ? url.origin : origin;
}
