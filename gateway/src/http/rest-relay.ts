/**
 * The REST routes of services that run in other processes (`--only`), served on the gateway's port: each request
 * under a service's path prefix is carried to that service's own port over one internal HTTP hop, and its answer
 * back, both as streams (an upload or a download of gigabytes is never held whole here, and back-pressure runs end
 * to end). The request goes unchanged — method, path, query, `Authorization`, `Host`, `Origin` — so the service
 * judges it exactly as it judges a direct one: it resolves the key itself over the bus (tagged with its own key,
 * `key-resolver.ts`), applies its rate limit, body limits and guards. No principal crosses this hop, so there is
 * nothing a service would have to take on the gateway's word.
 */
import { Agent, request as httpRequest, type IncomingHttpHeaders, type IncomingMessage } from "node:http";
import type { RequestHandler } from "express";
import { ErrorCode } from "@bancada/contracts";
import { noteErrorCode, type Logger } from "@bancada/service-kit";

export interface RelayedService {
  name: string;
  /** The prefixes of its REST paths (`/v1/boards` serves `/v1/boards` and `/v1/boards/…`). */
  paths: readonly string[];
  /** Where its own port is reached from the gateway (`http://scripts:8788`). */
  url: string;
}

/** Headers of one connection (RFC 9110 §7.6.1), never carried across a hop. */
const hopByHop = new Set([
  "connection",
  "keep-alive",
  "proxy-connection",
  "proxy-authenticate",
  "proxy-authorization",
  "te",
  "trailer",
  "transfer-encoding",
  "upgrade",
]);

export function restRelay(services: readonly RelayedService[], log: Logger): RequestHandler {
  const routes = services.flatMap((service) => service.paths.map((prefix) => ({ prefix, service, target: new URL(service.url) })));
  // connections to the services are kept and reused: a hop costs a request, not a TCP handshake
  const agent = new Agent({ keepAlive: true, maxSockets: 256, noDelay: true });
  return (req, res, next) => {
    const route = routes.find(({ prefix }) => req.path === prefix || req.path.startsWith(`${prefix}/`));
    if (!route) return next();
    let answered = false;
    const upstream = httpRequest(
      {
        agent,
        protocol: route.target.protocol,
        hostname: route.target.hostname,
        port: route.target.port,
        method: req.method,
        path: req.originalUrl,
        headers: relayedHeaders(req.headers, req.socket.remoteAddress, req.protocol),
      },
      (answer) => {
        answered = true;
        relayAnswer(answer, res);
      },
    );
    upstream.on("error", (err) => {
      // the service answered, then closed before reading the whole body (a refusal): that answer stands, whole or cut
      if (answered) return;
      if (res.headersSent) return void res.destroy();
      log.warn({ err, service: route.service.name, url: route.service.url }, "a relayed REST request found no service");
      noteErrorCode(res, ErrorCode.unavailable);
      res.setHeader("Connection", "close");
      res.status(503).json({
        error: {
          code: ErrorCode.unavailable,
          message: `The ${route.service.name} service did not answer (${(err as NodeJS.ErrnoException).code ?? err.message}); try again shortly.`,
          details: { service: route.service.name, retryable: true },
        },
      });
    });
    // a client that leaves ends the hop: the service stops reading or writing for nobody
    res.once("close", () => {
      if (!res.writableFinished) upstream.destroy();
    });
    req.pipe(upstream);
  };
}

function relayedHeaders(headers: IncomingHttpHeaders, remoteAddress: string | undefined, protocol: string): IncomingHttpHeaders {
  const relayed: IncomingHttpHeaders = {};
  for (const [name, value] of Object.entries(headers)) if (!hopByHop.has(name)) relayed[name] = value;
  const forwardedFor = headers["x-forwarded-for"];
  relayed["x-forwarded-for"] = [forwardedFor, remoteAddress].filter(Boolean).join(", ");
  relayed["x-forwarded-proto"] ??= protocol;
  // a body announced without a length is still chunked on the hop (Node picks chunked when no length is set)
  return relayed;
}

function relayAnswer(answer: IncomingMessage, res: Parameters<RequestHandler>[1]): void {
  for (const [name, value] of Object.entries(answer.headers)) if (value !== undefined && !hopByHop.has(name)) res.setHeader(name, value);
  // the service's refusal of an unread body closes its connection: the client's goes too, rather than send it all here
  if (answer.headers.connection === "close") res.setHeader("Connection", "close");
  res.status(answer.statusCode ?? 502);
  answer.pipe(res);
  // an answer cut short by the service is cut short for the client too, never ended as if whole
  answer.once("close", () => {
    if (!answer.complete) res.destroy();
  });
}
