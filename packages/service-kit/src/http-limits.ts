/**
 * What an anonymous client may hold of a server: a bounded number of connections, a few seconds to send its
 * first request's headers, and a few seconds to send its body. A body that has not arrived in time is answered
 * 408 and its connection closed; so is a request answered (401, 413, 415…) before its body was read, so that
 * nobody keeps a connection by trickling a body nobody will read.
 *
 * A connection that never sends a byte is invisible to Node's own header timeout (it only watches a request
 * once its first byte arrived), so each connection gets its own timer until its first request. At the
 * connection cap the oldest idle connection (no request being answered: silent, trickling headers or kept
 * alive between requests) is closed to make room: connections nobody uses cannot lock new clients out.
 */
import { createServer, type IncomingMessage, type RequestListener, type Server, type ServerResponse } from "node:http";
import type { Socket } from "node:net";
import type { RequestHandler } from "express";
import { ErrorCode } from "@bancada/contracts";
import { noteErrorCode } from "./rest.js";

export interface ServerLimits {
  /** Connections open at once; a new one past it closes the oldest idle connection (or itself, when none is idle). */
  maxConnections: number;
  /** Time to send the request line and headers, counted from the connection's opening for its first request. */
  headersTimeoutMs: number;
}

export const defaultBodyTimeoutMs = 30_000;
const keepAliveTimeoutMs = 65_000;
export const defaultServerLimits: ServerLimits = { maxConnections: 1_024, headersTimeoutMs: 10_000 };

/** An HTTP server for `handler` under these limits (`listen` it as usual). */
export function createLimitedServer(handler: RequestListener, limits: ServerLimits = defaultServerLimits): Server {
  // Node checks the header timeout on this interval (30 s by default): a second makes the timeout mean what it says
  // requestTimeout: Node's 5 minutes would cut a signed box upload (up to 5 GB) on a slower link; JSON bodies
  // are bounded by bodyTimeout instead, and slow headers by headersTimeout
  const server = createServer(
    { headersTimeout: limits.headersTimeoutMs, requestTimeout: 2 * 3_600_000, connectionsCheckingInterval: 1_000 },
    handler,
  );
  // An idle keep-alive connection is closed by the client first: clients that ignore the Keep-Alive hint expire
  // idle connections after about 5 s (httpx, Node's agent), exactly Node's default here, and a request sent on a
  // connection the server is closing at that moment fails with a reset (seen in bench/README.md#mcp-vs-relay).
  // 65 s outlasts them and a load balancer's usual 60 s; an idle connection is the first closed at the cap.
  server.keepAliveTimeout = keepAliveTimeoutMs;
  capConnections(server, limits);
  return server;
}

/**
 * Tracks every connection: idle ones in the order they became idle (a Map keeps insertion order), busy ones
 * with the number of their requests being answered. Node's own `maxConnections` would refuse the newcomer.
 */
function capConnections(server: Server, limits: ServerLimits): void {
  const idle = new Map<Socket, NodeJS.Timeout | undefined>();
  const busy = new Map<Socket, number>();
  server.on("connection", (socket: Socket) => {
    if (idle.size + busy.size >= limits.maxConnections) {
      const oldest = idle.keys().next();
      if (oldest.done) return void socket.destroy();
      closeIdle(oldest.value);
    }
    // until its first request, the connection has headersTimeoutMs; afterwards Node's timeouts apply
    const firstRequest = setTimeout(() => socket.destroy(), limits.headersTimeoutMs).unref();
    idle.set(socket, firstRequest);
    socket.once("close", () => {
      clearTimeout(idle.get(socket));
      idle.delete(socket);
      busy.delete(socket);
    });
  });
  server.on("request", (req: IncomingMessage, res: ServerResponse) => {
    const { socket } = req;
    if (socket.destroyed) return;
    clearTimeout(idle.get(socket));
    idle.delete(socket);
    busy.set(socket, (busy.get(socket) ?? 0) + 1);
    res.once("close", () => {
      const left = (busy.get(socket) ?? 1) - 1;
      if (left > 0) return void busy.set(socket, left);
      busy.delete(socket);
      if (!socket.destroyed) idle.set(socket, undefined);
    });
  });
  function closeIdle(socket: Socket): void {
    clearTimeout(idle.get(socket));
    idle.delete(socket);
    socket.destroy();
  }
}

export function bodyTimeout(ms: number): RequestHandler {
  return (req, res, next) => {
    const hasBody = Number(req.headers["content-length"] ?? 0) > 0 || req.headers["transfer-encoding"] !== undefined;
    if (!hasBody || req.complete) return next();
    const closeUnread = () => {
      if (req.complete) return;
      // the rest of the body would be read and thrown away: close instead, after the answer is out
      req.socket.end();
      setTimeout(() => req.socket.destroy(), 1_000).unref();
    };
    const timer = setTimeout(() => {
      if (req.complete || res.headersSent) return;
      noteErrorCode(res, ErrorCode.invalidArgument);
      res.setHeader("Connection", "close");
      res.status(408).json({
        error: {
          code: ErrorCode.invalidArgument,
          message: `The request body did not arrive within ${Math.round(ms / 1000)} s; send it whole, promptly.`,
        },
      });
      res.once("finish", closeUnread);
    }, ms);
    timer.unref();
    req.once("end", () => clearTimeout(timer));
    res.once("close", () => clearTimeout(timer));
    res.once("finish", closeUnread);
    next();
  };
}
