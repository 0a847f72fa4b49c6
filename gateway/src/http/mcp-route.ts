/**
 * `POST /mcp`: Streamable HTTP, stateless (a fresh Server and transport per request, so any replica
 * can answer any request). GET/DELETE answer 405: there is no session stream to open or close.
 */
import express, { type Request, type RequestHandler, type Router } from "express";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { DomainError, ErrorCode, type Principal } from "@bancada/contracts";
import { bearerToken, type Logger } from "@bancada/service-kit";
import type { KeyStore } from "../keys/api-keys.js";
import { createMcpServer, type McpServerOptions } from "../mcp/server.js";

export interface McpRouteOptions extends McpServerOptions {
  keys: KeyStore;
  log: Logger;
  bodyLimit: string;
}

const principals = new WeakMap<Request, Principal>();

export function mcpRoute(options: McpRouteOptions): Router {
  const router = express.Router();
  router.post("/mcp", express.json({ limit: options.bodyLimit }), authenticateKey(options.keys), async (req, res) => {
    const principal = principals.get(req)!;
    const server = createMcpServer(options, principal, "http");
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
    res.on("close", () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(req, res, req.body);
  });
  const notAllowed: RequestHandler = (_req, res) => {
    res.setHeader("Allow", "POST").status(405).json(jsonRpcError("Method not allowed: this server is stateless; use POST /mcp."));
  };
  router.get("/mcp", notAllowed);
  router.delete("/mcp", notAllowed);
  return router;
}

function authenticateKey(keys: KeyStore): RequestHandler {
  return async (req, res, next) => {
    const profile = req.query.profile ?? "full";
    if (profile !== "core" && profile !== "full") {
      return next(
        new DomainError(ErrorCode.invalidArgument, "profile must be 'core' or 'full' (?profile=core).", {
          issues: [{ path: "profile", message: "core or full" }],
        }),
      );
    }
    const token = bearerToken(req.headers.authorization);
    const principal = token ? await keys.resolve(token, profile) : null;
    if (!principal) {
      const base = `${req.protocol}://${req.get("host") ?? "localhost"}`;
      res.setHeader("WWW-Authenticate", `Bearer resource_metadata="${base}/.well-known/oauth-protected-resource"`);
      return next(
        new DomainError(
          ErrorCode.unauthenticated,
          token
            ? "The API key is unknown, revoked or expired. Create one with 'pnpm bancada keys create'."
            : "Send an API key as 'Authorization: Bearer <key>' (create one with 'pnpm bancada keys create').",
        ),
      );
    }
    principals.set(req, principal);
    next();
  };
}

function jsonRpcError(message: string) {
  return { jsonrpc: "2.0", error: { code: -32000, message }, id: null };
}
