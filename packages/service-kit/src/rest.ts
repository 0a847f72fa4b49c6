/** What every service's REST API shares: bearer auth through the gateway, `authorize` before each route, one error handler. */
import { randomUUID } from "node:crypto";
import express, { type ErrorRequestHandler, type Request, type RequestHandler, type Response } from "express";
import { DomainError, ErrorCode, authorize, httpStatusOf, type Access, type Principal } from "@bancada/contracts";
import { BusRequestError } from "./bus/bus.js";
import { toErrorBody } from "./error-body.js";
import type { KeyResolver } from "./key-resolver.js";
import type { Logger } from "./logger.js";
import type { RateLimiter } from "./rate-limit.js";

const principalKey = Symbol("principal");

export function bearerToken(header: string | undefined): string | undefined {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header ?? "");
  return match?.[1];
}

/** Resolves the bearer key to the caller; with a limiter, each request also takes a token of its key's bucket (429 when empty). */
export function authenticate(resolver: KeyResolver, limiter?: RateLimiter): RequestHandler {
  return async (req, res, next) => {
    const token = bearerToken(req.headers.authorization);
    let principal: Principal | null;
    try {
      principal = token ? await resolver.resolve(token) : null;
    } catch (error) {
      if (error instanceof BusRequestError) {
        return next(new DomainError(ErrorCode.unavailable, "The key service (gateway) did not answer; retry shortly."));
      }
      return next(error);
    }
    if (!principal) {
      res.setHeader("WWW-Authenticate", 'Bearer realm="bancada"');
      return next(
        new DomainError(
          ErrorCode.unauthenticated,
          token ? "The API key is unknown, revoked or expired." : "Send an API key as 'Authorization: Bearer <key>'.",
        ),
      );
    }
    (req as unknown as Record<symbol, Principal>)[principalKey] = { ...principal, profile: "full" };
    const waitMs = limiter?.take(principal.keyId) ?? 0;
    if (waitMs > 0) {
      res.setHeader("Retry-After", String(Math.ceil(waitMs / 1000)));
      return next(
        new DomainError(ErrorCode.rateLimited, `Too many requests for this API key; retry in ${waitMs} ms.`, { retryAfterMs: waitMs }),
      );
    }
    next();
  };
}

/** The caller, when `authenticate` let one in (for logging: never throws). */
export function maybePrincipalOf(req: Request): Principal | undefined {
  return (req as unknown as Record<symbol, Principal | undefined>)[principalKey];
}

export function principalOf(req: Request): Principal {
  const principal = (req as unknown as Record<symbol, Principal | undefined>)[principalKey];
  if (!principal) throw new DomainError(ErrorCode.unauthenticated, "Not authenticated.");
  return principal;
}

/**
 * The caller of a REST route once `authorize` lets it in. `access` is the declaration of the tool whose use
 * case the route runs (its scope and write flag, never restated by the route), or the route's own `restAccess`
 * when no tool stands behind it. Else 403 `permission_denied`, with `insufficient_scope` in WWW-Authenticate
 * when a scope is missing (restErrorHandler).
 */
export function authorizedPrincipal(req: Request, access: Access): Principal {
  const principal = principalOf(req);
  const verdict = authorize(access, principal, "rest");
  if (!verdict.allowed) throw verdict.error;
  return principal;
}

const errorCodeKey = "bancadaErrorCode";

/** Records the code of an answer made outside the error handler, for the request's log line. */
export function noteErrorCode(res: Response, code: string): void {
  res.locals[errorCodeKey] = code;
}

/** The error code the error handler answered with (for the request's log line), if any. */
export function errorCodeOf(res: Response): string | undefined {
  return res.locals[errorCodeKey] as string | undefined;
}

export function restErrorHandler(log: Logger): ErrorRequestHandler {
  return (error: unknown, _req, res, _next) => {
    // the answer is out already (a body timeout, a client gone): nothing more can be said on this request
    if (res.headersSent) return void res.destroy();
    const refused = bodyParserError(error);
    const body = toErrorBody(refused?.error ?? error, log, randomUUID());
    res.locals[errorCodeKey] = body.code;
    if (body.code === ErrorCode.permissionDenied && body.details?.requiredScope) {
      res.setHeader("WWW-Authenticate", `Bearer error="insufficient_scope", scope="${String(body.details.requiredScope)}"`);
    }
    res.status(refused?.status ?? httpStatusOf[body.code]).json({ error: body });
  };
}

/** What the JSON body parser refuses is the client's doing: a 4xx saying what to send, never `internal`. */
function bodyParserError(error: unknown): { error: DomainError; status?: number } | undefined {
  const { type, charset, encoding } = (error ?? {}) as { type?: string; charset?: string; encoding?: string };
  const invalid = (message: string, status?: number) => ({
    error: new DomainError(ErrorCode.invalidArgument, message),
    ...(status ? { status } : {}),
  });
  switch (type) {
    case "entity.too.large":
      return { error: new DomainError(ErrorCode.payloadTooLarge, "The request body is too large.") };
    case "entity.parse.failed":
      return invalid("The request body is not valid JSON.");
    case "charset.unsupported":
      return invalid(`The body's charset '${charset ?? ""}' is not supported: send JSON in UTF-8 (Content-Type: application/json).`, 415);
    case "encoding.unsupported":
      return invalid(`Content-Encoding '${encoding ?? ""}' is not supported: send the body as identity, gzip, deflate or br.`, 415);
    case undefined:
      return clientDecodingError(error);
    case "request.aborted":
    case "request.size.invalid":
      return invalid("The request body ended before its Content-Length; send it whole.");
    default:
      return undefined;
  }
}

/**
 * Express throws a URIError (status 400) for a route parameter that is not valid percent-encoding, and the body
 * parser a zlib or brotli error (status 400) for a body whose Content-Encoding does not match its bytes: both are
 * the client's doing.
 */
function clientDecodingError(error: unknown): { error: DomainError } | undefined {
  if (error instanceof URIError)
    return {
      error: new DomainError(ErrorCode.invalidArgument, "A path segment is not valid percent-encoding; encode it with encodeURIComponent."),
    };
  const { status, code } = (error ?? {}) as { status?: number; code?: unknown };
  if (status !== 400 || typeof code !== "string" || !/^(Z_|ERR__ERROR_|ERR_BROTLI)/.test(code)) return undefined;
  return {
    error: new DomainError(
      ErrorCode.invalidArgument,
      "The request body is not what its Content-Encoding says (gzip, deflate or br data could not be decompressed): send it compressed, or without Content-Encoding.",
    ),
  };
}

export function notFoundRoute(): RequestHandler {
  return (req, _res, next) => next(new DomainError(ErrorCode.notFound, `No route ${req.method} ${req.path}.`));
}

export function jsonBody(limit = "2mb"): RequestHandler {
  return express.json({ limit });
}
