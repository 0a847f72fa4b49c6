/**
 * `POST /mcp`: Streamable HTTP for both protocol eras on one URL (the SDK's `createMcpHandler`: 2026-07-28
 * requests carry their version in `_meta`, 2025-era requests are served statelessly), so any replica answers
 * any request. The route authenticates the key, reads the body once, refuses duplicate keys and malformed
 * tool/prompt params with a readable -32602, answers a plain tools/call or tools/list itself (mcp-fast-path.ts)
 * and hands any other parsed message to the SDK. GET/DELETE answer 405:
 * there is no session stream to open or close.
 */
import { timingSafeEqual } from "node:crypto";
import express, { type Request, type RequestHandler, type Response, type Router } from "express";
import { createMcpHandler, type McpHttpHandler } from "@modelcontextprotocol/server";
import { DomainError, ErrorCode, noScope } from "@bancada/contracts";
import { bearerToken, type Logger } from "@bancada/service-kit";
import type { KeyStore } from "../keys/api-keys.js";
import type { OAuthServer } from "../oauth/server.js";
import { messageProblem, requestIdOf } from "../mcp/request-shape.js";
import type { Caller, View } from "../mcp/caller.js";
import { mcpServerFactory, type CallerAuthInfo, type McpServerOptions } from "../mcp/server.js";
import { ToolAnswers } from "../mcp/tool-answers.js";
import { Confirmations } from "../mcp/confirmations.js";
import { answersIn, type LegacySessions } from "../mcp/legacy-sessions.js";
import { ResourceSubscriptions } from "../mcp/resource-subscriptions.js";
import { fastRequestOf, serveFast, type FastAnswers } from "./mcp-fast-path.js";
import { sendWebResponse, webRequestOf } from "./web-bridge.js";

export interface McpRouteOptions extends McpServerOptions {
  keys: KeyStore;
  log: Logger;
  bodyLimit: string;
  /** Answer single tools/call and tools/list without the SDK (default); false only in tests that compare both. */
  fastPath?: boolean;
  /** How often an SSE answer carries a keep-alive comment while its call runs (default 15 s, the SDK's), on both paths. */
  sseKeepAliveMs?: number;
  /**
   * The secret a local stdio bridge shows in `bancada-stdio-bridge` (kept in the data folder, mode 600): a request
   * with it is the stdio client it carries, and may call stdio-only tools. Without the option the header counts for nothing.
   */
  stdioBridgeToken?: string;
  /** The authorization server whose access tokens `/mcp` takes beside API keys (oauth/server.ts). */
  oauth?: OAuthServer;
}

/** The header a stdio bridge's requests carry the instance's bridge token in. */
export const stdioBridgeHeader = "bancada-stdio-bridge";

const views: readonly View[] = ["core", "full", "search"];
/** The SDK's own default interval of SSE keep-alive comments. */
const defaultSseKeepAliveMs = 15_000;
const callers = new WeakMap<Request, Caller>();

export function mcpRoute(options: McpRouteOptions): Router {
  const router = express.Router();
  const log = options.log.child({ route: "/mcp" });
  const answers = new ToolAnswers(options);
  const fastPath = options.fastPath ?? true;
  const keepAliveMs = options.sseKeepAliveMs ?? defaultSseKeepAliveMs;
  const taskSupportOf = options.tasks ? (tool: string) => options.catalog.tool(tool)?.descriptor.taskSupport : undefined;
  const confirmations = options.confirmations;
  const mayAsk = confirmations
    ? (tool: string, args: Record<string, unknown> | undefined) => Confirmations.asksFor(options.catalog, tool, args)
    : undefined;
  const talks = (tool: string, args: Record<string, unknown> | undefined) => {
    const called = tool === "call_tool" && typeof args?.name === "string" ? args.name : tool;
    const descriptor = options.catalog.tool(called)?.descriptor;
    return descriptor?.asks === true || descriptor?.logs === true;
  };
  const handler = createMcpHandler(mcpServerFactory(options, undefined, answers), {
    legacy: "stateless",
    keepAliveMs,
    onerror: (error) => log.debug({ err: error }, "MCP request refused by the SDK"),
  });
  router.post(
    "/mcp",
    authenticateKey(options.keys, options.stdioBridgeToken, options.oauth),
    express.raw({ type: () => true, limit: options.bodyLimit }),
    (req, res, next) => (lacksScope(options, req, res) ? undefined : next()),
    (req, res) =>
      void serve(
        handler,
        fastPath ? { answers, version: options.version, keepAliveMs, taskSupportOf, mayAsk, talks, sessions: options.sessions } : undefined,
        req,
        res,
        log,
      ),
  );
  const notAllowed: RequestHandler = (_req, res) => {
    res.setHeader("Allow", "POST").status(405).json(jsonRpcError(-32000, "Method not allowed: this server is stateless; use POST /mcp."));
  };
  // a 2025-era client's stream of resource updates, under its sealed session (any other GET: there is no stream)
  const { sessions: sealed, subscriptions } = options;
  router.get(
    "/mcp",
    (req, res, next) =>
      sealed && subscriptions && typeof req.headers["mcp-session-id"] === "string" ? next() : notAllowed(req, res, next),
    authenticateKey(options.keys, options.stdioBridgeToken, options.oauth),
    (req, res, next) => (updatesStream(req, res, sealed!, subscriptions!, keepAliveMs) ? undefined : notAllowed(req, res, next)),
  );
  router.delete("/mcp", notAllowed);
  return router;
}

async function serve(handler: McpHttpHandler, fast: FastAnswers | undefined, req: Request, res: Response, log: Logger): Promise<void> {
  const caller = callers.get(req)!;
  const text = Buffer.isBuffer(req.body) ? req.body.toString("utf8") : "";
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    // not JSON at all: the SDK answers it (-32700, or 415 for a wrong content type)
  }
  const sessions = fast?.sessions;
  if (parsed !== undefined && sessions) {
    // a 2025-era client's answers to a question asked on a call's stream: to the replica that asked (legacy-sessions.ts)
    const answers = answersIn(parsed);
    const session = req.headers["mcp-session-id"];
    if (answers && typeof session === "string" && sessions.capabilities(session, caller.principal.keyId)) {
      sessions.answer(caller.principal.keyId, answers);
      res.status(202).end();
      return;
    }
  }
  if (parsed !== undefined) {
    const problem = messageProblem(text, parsed);
    if (problem) {
      res.status(200).json(jsonRpcError(problem.code, problem.message, requestIdOf(parsed)));
      return;
    }
    const request = fast && fastRequestOf(req.headers, parsed, fast.taskSupportOf, fast.mayAsk, fast.talks);
    if (request) {
      await serveFast(fast, caller, request, req, res).catch((error: unknown) => failed(error, res, log, parsed));
      return;
    }
  }
  const aborted = new AbortController();
  // only a client that left before its answer was written aborts the call (an abort builds a DOMException with a stack)
  res.on("close", () => {
    if (!res.writableFinished) aborted.abort();
  });
  const authInfo: CallerAuthInfo = { token: "", clientId: caller.principal.keyId, scopes: caller.principal.scopes, extra: { caller } };
  try {
    const response = await handler.fetch(webRequestOf(req, aborted.signal, parsed === undefined ? text : undefined), {
      authInfo,
      ...(parsed !== undefined ? { parsedBody: parsed } : {}),
    });
    const opened = sessions && response.ok ? sessionOf(parsed, sessions, caller) : undefined;
    if (opened) res.setHeader("mcp-session-id", opened);
    await sendWebResponse(response, res);
  } catch (error) {
    failed(error, res, log, parsed);
  }
}

/**
 * `GET /mcp` with a valid 2025 session id: an SSE stream of `notifications/resources/updated` for the URIs the
 * session subscribed to (resource-subscriptions.ts), from whichever replica hears of the change. False when the
 * session does not verify for this key.
 */
function updatesStream(
  req: Request,
  res: Response,
  sessions: LegacySessions,
  subscriptions: ResourceSubscriptions,
  keepAliveMs: number,
): boolean {
  const caller = callers.get(req)!;
  const sessionId = req.headers["mcp-session-id"] as string;
  if (!sessions.capabilities(sessionId, caller.principal.keyId)) return false;
  res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache", connection: "keep-alive" });
  res.flushHeaders();
  const send = (message: unknown) => res.write(`event: message\ndata: ${JSON.stringify(message)}\n\n`);
  const close = subscriptions.open(ResourceSubscriptions.sessionOf(sessionId), caller.principal.accountId, {
    notify: (uri) => send({ jsonrpc: "2.0", method: "notifications/resources/updated", params: { uri } }),
    end: () => res.end(),
  });
  const keepAlive = setInterval(() => res.write(": keep-alive\n\n"), keepAliveMs);
  // the subscriptions stay: the client may open its stream again on another replica
  res.on("close", () => {
    clearInterval(keepAlive);
    close();
  });
  return true;
}

/** A 2025-era `initialize` is answered with a session id that seals what the client can be asked (legacy-sessions.ts). */
function sessionOf(parsed: unknown, sessions: LegacySessions, caller: Caller): string | undefined {
  const message = parsed as { method?: unknown; params?: { capabilities?: unknown } } | undefined;
  if (message?.method !== "initialize" || caller.transport !== "http") return undefined;
  const capabilities = message.params?.capabilities;
  return sessions.open(caller.principal.keyId, typeof capabilities === "object" && capabilities !== null ? capabilities : {});
}

function failed(error: unknown, res: Response, log: Logger, parsed: unknown): void {
  log.error({ err: error }, "MCP request failed");
  if (!res.headersSent) res.status(500).json(jsonRpcError(-32603, "Internal error; retry shortly.", requestIdOf(parsed)));
  else res.end();
}

function authenticateKey(keys: KeyStore, bridgeToken: string | undefined, oauth: OAuthServer | undefined): RequestHandler {
  return async (req, res, next) => {
    const profile = req.query.profile ?? "full";
    if (typeof profile !== "string" || !views.includes(profile as View)) {
      return next(
        new DomainError(ErrorCode.invalidArgument, "profile must be 'core', 'full' or 'search' (?profile=core).", {
          issues: [{ path: "profile", message: "core, full or search" }],
        }),
      );
    }
    const view = profile as View;
    const token = bearerToken(req.headers.authorization);
    // the search view lists two tools but may find and call everything the key allows: the full profile
    const wanted = view === "core" ? "core" : "full";
    const viaOAuth = token !== undefined && oauth !== undefined && !token.startsWith("bnc_");
    const principal = !token ? null : viaOAuth ? await oauth.resolve(req, token, wanted) : await keys.resolve(token, wanted);
    if (!principal) {
      const metadata = oauth
        ? oauth.resourceMetadataUrl(req)
        : `${req.protocol}://${req.get("host") ?? "localhost"}/.well-known/oauth-protected-resource`;
      res.setHeader("WWW-Authenticate", `Bearer ${token ? 'error="invalid_token", ' : ""}resource_metadata="${metadata}"`);
      return next(
        new DomainError(
          ErrorCode.unauthenticated,
          viaOAuth
            ? "The access token is unknown, expired, revoked or for another server: authorize again from your MCP client."
            : token
              ? "The API key is unknown, revoked or expired. Create one with 'pnpm bancada keys create'."
              : "Send an API key as 'Authorization: Bearer <key>' (create one with 'pnpm bancada keys create'), or connect through OAuth.",
        ),
      );
    }
    const bridged = bridgeToken !== undefined && sameSecret(req.headers[stdioBridgeHeader], bridgeToken);
    callers.set(
      req,
      bridged
        ? { principal, view, transport: "stdio", bridged }
        : { principal, view, transport: "http", ...(viaOAuth ? { oauth: true } : {}) },
    );
    next();
  };
}

/**
 * An OAuth grant calling a tool whose scope it lacks gets HTTP 403 `insufficient_scope` naming that scope, so the
 * client can ask the person for more (the MCP specification's step-up); an API key gets the tool's
 * permission_denied result as always.
 */
function lacksScope(options: McpRouteOptions, req: Request, res: Response): boolean {
  const caller = callers.get(req)!;
  if (!caller.oauth || !options.oauth || !Buffer.isBuffer(req.body)) return false;
  let message: unknown;
  try {
    message = JSON.parse(req.body.toString("utf8"));
  } catch {
    return false;
  }
  const { method, params, id } = (message ?? {}) as { method?: unknown; params?: { name?: unknown }; id?: string | number };
  if (method !== "tools/call" || typeof params?.name !== "string") return false;
  const scope = options.catalog.tool(params.name)?.descriptor.scope;
  if (!scope || scope === noScope || caller.principal.scopes.includes(scope)) return false;
  res.setHeader(
    "WWW-Authenticate",
    `Bearer error="insufficient_scope", scope="${scope}", resource_metadata="${options.oauth.resourceMetadataUrl(req)}"`,
  );
  res
    .status(403)
    .json(jsonRpcError(-32001, `This grant does not hold ${scope}: approve it for this client in Bancada's console.`, id ?? null));
  return true;
}

function jsonRpcError(code: number, message: string, id: string | number | null = null) {
  return { jsonrpc: "2.0", error: { code, message }, id };
}

function sameSecret(shown: string | string[] | undefined, secret: string): boolean {
  if (typeof shown !== "string") return false;
  const a = Buffer.from(shown);
  const b = Buffer.from(secret);
  return a.length === b.length && timingSafeEqual(a, b);
}
