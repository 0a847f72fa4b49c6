/**
 * The proxy of published ports: one listener per published port, on its own host port — so each port is its own
 * web origin and a page served by one box can never read another port's answers (nor the REST API's). Every
 * request or connection reads the port's row again (visibility, token, still published), checks the token of a
 * private port, wakes the box and reaches 127.0.0.1:<port> inside it through the driver (the box keeps no host
 * network). http: requests and WebSocket upgrades pass through; tcp: bytes pass through, a private port wants its
 * token as the first line. The service's own cookies and a matching bearer token never reach the box, and a box
 * never sets the service's cookies (port-cookies.ts). http requests and WebSocket upgrades are relayed by
 * http-proxy-3 over the connection the driver opened; tcp bytes are piped as they come.
 *
 * Connections are capped (config.ts, connection-gate.ts): per port, per address and port, and for all ports of
 * the node; an http connection that sends no request within 10 s (a tcp one without its token line) is dropped.
 * Each connection that reaches a box costs a bridge process in the box's own limits (driver/local/port-bridges.ts).
 */
import { Agent, createServer as createHttpServer, type ClientRequest, type IncomingMessage, type ServerResponse } from "node:http";
import { createServer as createTcpServer, type Server as NetServer, type Socket } from "node:net";
import type { Duplex } from "node:stream";
import { createProxyServer } from "http-proxy-3";
import { DomainError, ErrorCode, httpStatusOf } from "@bancada/contracts";
import type { BoxesRuntime } from "../domain/context.js";
import { boxHandle } from "../domain/find-box.js";
import type { BoxPortRow, PortListeners } from "../domain/ports/port-listeners.js";
import { portBox, publishedPort } from "../domain/ports/port-target.js";
import { portTokenMatches } from "../domain/ports/port-token.js";
import { keepAwake } from "../domain/transfers/open-transfer.js";
import { ConnectionGate, type Settle } from "./connection-gate.js";
import { boxCookies, setsServiceCookie, tokenCookie, tokenCookies } from "./port-cookies.js";

export class PortProxy implements PortListeners {
  readonly #rt: BoxesRuntime;
  readonly #servers = new Map<string, { server: NetServer; sockets: Set<Socket> }>();
  /** Every published port's connections together. */
  readonly #all: ConnectionGate;
  /**
   * The http and WebSocket relay. Every call brings its own agent (one connection into the box) and has headers
   * already rewritten (forwardedHeaders); the box's answer loses Set-Cookie lines of the service's cookies here.
   */
  readonly #relay = createProxyServer({ ws: true, xfwd: false });

  constructor(rt: BoxesRuntime) {
    this.#rt = rt;
    this.#all = new ConnectionGate({ perAddress: Number.POSITIVE_INFINITY, total: rt.portSettings.connections.total });
    this.#relay.on("proxyRes", (answer) => dropServiceCookies(answer));
    // registered ahead of the library's own listener, which writes the 101's head as soon as it runs
    this.#relay.on("proxyReqWs", (request: ClientRequest) => request.prependListener("upgrade", (answer) => dropServiceCookies(answer)));
  }

  /** One port's own gate: its caps, and the deadline of a connection's first request (or token line). */
  #portGate(): ConnectionGate {
    const { perPort, perAddress, firstRequestMs } = this.#rt.portSettings.connections;
    return new ConnectionGate({ perAddress, total: perPort, pendingMs: firstRequestMs });
  }

  /** Admits a connection to a port through the node's gate and the port's; null: refused (and closed). */
  #admit(gate: ConnectionGate, socket: Socket): Settle | null {
    const node = this.#all.admit(socket);
    node?.();
    return node ? gate.admit(socket) : null;
  }

  listen(row: BoxPortRow): Promise<boolean> {
    const server = row.protocol === "tcp" ? this.#tcpServer(row.id) : this.#httpServer(row.id);
    // closing a port ends its connections too: a held one would keep it (and unpublishing it) open for ever
    const sockets = new Set<Socket>();
    server.on("connection", (socket: Socket) => {
      sockets.add(socket);
      socket.once("close", () => sockets.delete(socket));
    });
    return new Promise((resolve) => {
      server.once("error", () => resolve(false));
      // a deep accept queue: a burst is accepted (and what is over the caps closed) rather than left half-open by the kernel
      server.listen({ port: row.hostPort, host: this.#rt.portSettings.bindHost, backlog: 4096 }, () => {
        server.removeAllListeners("error");
        server.on("error", (err) => this.#rt.log.warn({ err, portId: row.id }, "published port listener"));
        this.#servers.set(row.id, { server, sockets });
        resolve(true);
      });
    });
  }

  async close(portId: string): Promise<void> {
    const served = this.#servers.get(portId);
    this.#servers.delete(portId);
    if (!served) return;
    await new Promise<void>((resolve) => {
      served.server.close(() => resolve());
      for (const socket of served.sockets) socket.destroy();
    });
  }

  async closeAll(): Promise<void> {
    await Promise.all([...this.#servers.keys()].map((id) => this.close(id)));
  }

  /** The box's end of one connection, after the checks of domain/ports/port-target.ts. */
  async #reach(row: BoxPortRow): Promise<{ upstream: Duplex; done: () => void }> {
    const box = await portBox(this.#rt, row);
    const upstream = await this.#rt.driver.connectPort(boxHandle(box), row.port);
    const awake = keepAwake(this.#rt, box.id);
    upstream.once("close", awake);
    return { upstream, done: awake };
  }

  #httpServer(portId: string): NetServer {
    const gate = this.#portGate();
    const pending = new WeakMap<Socket, Settle>();
    const settle = (socket: Socket) => pending.get(socket)?.();
    const server = createHttpServer((req, res) => {
      settle(req.socket);
      void this.#request(portId, req, res).catch((error: unknown) => fail(res, error));
    });
    server.on("connection", (socket: Socket) => {
      const admitted = this.#admit(gate, socket);
      if (admitted) pending.set(socket, admitted);
    });
    server.on("upgrade", (req: IncomingMessage, socket: Socket, head: Buffer) => {
      settle(socket);
      void this.#upgrade(portId, req, socket, head).catch((error: unknown) => failRaw(socket, error));
    });
    return server;
  }

  async #request(portId: string, req: IncomingMessage, res: ServerResponse): Promise<void> {
    const row = await publishedPort(this.#rt, portId);
    const url = new URL(req.url ?? "/", "http://port.invalid");
    const given = url.searchParams.get("accessToken");
    if (given !== null && row.visibility === "private") {
      // The browser way in: a first visit with ?accessToken= sets a cookie and comes back without the token in the URL.
      if (!portTokenMatches(row.tokenHash, given)) throw refused(row, "The access token in the URL is not this port's.");
      url.searchParams.delete("accessToken");
      const cookie = tokenCookie(row, given);
      res.writeHead(302, { Location: url.pathname + url.search, "Set-Cookie": cookie, "Cache-Control": "no-store" }).end();
      return;
    }
    check(row, req);
    const { upstream } = await this.#reach(row);
    res.once("close", () => upstream.destroy());
    req.headers = forwardedHeaders(row, req);
    this.#relay.web(req, res, { target: boxTarget(row), agent: new OneConnection(upstream) }, () => {
      if (!res.headersSent) fail(res, nothingListens(row));
      else res.destroy();
    });
  }

  async #upgrade(portId: string, req: IncomingMessage, client: Socket, head: Buffer): Promise<void> {
    const row = await publishedPort(this.#rt, portId);
    check(row, req);
    const { upstream } = await this.#reach(row);
    client.once("close", () => upstream.destroy());
    req.headers = forwardedHeaders(row, req);
    this.#relay.ws(req, client, head, { target: boxTarget(row), agent: new OneConnection(upstream) }, () =>
      failRaw(client, nothingListens(row)),
    );
  }

  #tcpServer(portId: string): NetServer {
    const gate = this.#portGate();
    return createTcpServer((client) => {
      client.on("error", () => {});
      const settle = this.#admit(gate, client);
      if (!settle) return;
      void this.#tcpConnection(portId, client, settle).catch((error: unknown) => {
        endSoon(client, `bancada: ${error instanceof DomainError ? error.message : "the port could not be reached"}\n`);
      });
    });
  }

  async #tcpConnection(portId: string, client: Socket, settle: Settle): Promise<void> {
    const row = await publishedPort(this.#rt, portId);
    let rest: Buffer = Buffer.alloc(0);
    if (row.visibility === "public") settle();
    else {
      const first = await firstLine(client);
      if (!portTokenMatches(row.tokenHash, first.line))
        throw refused(row, "This tcp port is private: send its access token and a newline first.");
      rest = first.rest;
      settle();
    }
    const { upstream } = await this.#reach(row);
    upstream.on("error", () => client.destroy());
    client.once("close", () => upstream.destroy());
    if (rest.length) upstream.write(rest);
    upstream.pipe(client);
    client.pipe(upstream);
  }
}

/** An agent whose one connection is the one the driver opened into the box (it keeps no host network to dial). */
class OneConnection extends Agent {
  readonly #upstream: Duplex;
  constructor(upstream: Duplex) {
    super({ keepAlive: false });
    this.#upstream = upstream;
  }
  override createConnection(): Socket {
    return this.#upstream as Socket;
  }
}

/** Where the relay says it goes: the box's own loopback (the agent's connection is what really reaches it). */
function boxTarget(row: BoxPortRow): string {
  return `http://127.0.0.1:${row.port}`;
}

/** A box's answer without Set-Cookie of the service's cookies. */
function dropServiceCookies(answer: IncomingMessage): void {
  const cookies = answer.headers["set-cookie"];
  if (!cookies) return;
  const kept = cookies.filter((cookie) => !setsServiceCookie(cookie));
  if (kept.length) answer.headers["set-cookie"] = kept;
  else delete answer.headers["set-cookie"];
}

/** A private port lets in the bearer token or its cookie; a public one lets anyone in. */
function check(row: BoxPortRow, req: IncomingMessage): void {
  if (row.visibility === "public") return;
  const bearer = /^Bearer\s+(\S+)$/i.exec(req.headers.authorization ?? "")?.[1];
  const cookies = tokenCookies(row, req);
  if (portTokenMatches(row.tokenHash, bearer) || cookies.some((cookie) => portTokenMatches(row.tokenHash, cookie))) return;
  if (bearer || cookies.length) throw refused(row, "The access token is not this port's (publishing the port again made a new one).");
  throw new DomainError(
    ErrorCode.unauthenticated,
    "This port is private: send 'Authorization: Bearer <accessToken>' (the token publish_port returned), or open the URL once with ?accessToken=<accessToken>.",
  );
}

function refused(row: BoxPortRow, message: string): DomainError {
  return new DomainError(ErrorCode.permissionDenied, message, { portId: row.id });
}

function nothingListens(row: BoxPortRow): DomainError {
  return new DomainError(
    ErrorCode.unavailable,
    `Nothing answers on port ${row.port} in box ${row.boxId}: start a server there listening on 127.0.0.1:${row.port} or 0.0.0.0:${row.port}.`,
    { boxId: row.boxId, port: row.port, status: 502 },
  );
}

/** The request's headers for the box: without the service's cookies or this port's token, with X-Forwarded-*. */
function forwardedHeaders(row: BoxPortRow, req: IncomingMessage): Record<string, string | string[]> {
  const headers: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(req.headers)) if (value !== undefined) headers[name] = value;
  const cookie = boxCookies(req);
  if (cookie) headers.cookie = cookie;
  else delete headers.cookie;
  const bearer = /^Bearer\s+(\S+)$/i.exec(req.headers.authorization ?? "")?.[1];
  if (bearer && portTokenMatches(row.tokenHash, bearer)) delete headers.authorization;
  const from = req.socket.remoteAddress ?? "";
  headers["x-forwarded-for"] = req.headers["x-forwarded-for"] ? `${String(req.headers["x-forwarded-for"])}, ${from}` : from;
  headers["x-forwarded-proto"] = "http";
  if (req.headers.host) headers["x-forwarded-host"] = req.headers.host;
  return headers;
}

function statusOf(error: unknown): { status: number; body: { error: { code: string; message: string } } } {
  if (!(error instanceof DomainError))
    return { status: 502, body: { error: { code: ErrorCode.unavailable, message: "The box could not be reached." } } };
  const status = typeof error.details?.status === "number" ? error.details.status : httpStatusOf[error.code];
  return { status, body: { error: { code: error.code, message: error.message } } };
}

function fail(res: ServerResponse, error: unknown): void {
  if (res.headersSent) return void res.destroy();
  const { status, body } = statusOf(error);
  const headers: Record<string, string> = { "Content-Type": "application/json", "Cache-Control": "no-store" };
  if (status === 401) headers["WWW-Authenticate"] = 'Bearer realm="bancada-port"';
  res.writeHead(status, headers).end(JSON.stringify(body));
}

function failRaw(socket: Socket, error: unknown): void {
  if (socket.destroyed) return;
  const { status, body } = statusOf(error);
  const text = JSON.stringify(body);
  endSoon(
    socket,
    `HTTP/1.1 ${status} ${status === 401 ? "Unauthorized" : "Error"}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(text)}\r\nConnection: close\r\n\r\n${text}`,
  );
}

/** Ends the connection with a last word, and closes it for good soon after (a client that never reads holds nothing). */
function endSoon(socket: Socket, text: string): void {
  socket.end(text);
  setTimeout(() => socket.destroy(), 2_000).unref();
}

/** The first line a tcp client sends (the token), within 10 s and 512 bytes; what came after it is kept. */
function firstLine(socket: Socket): Promise<{ line: string; rest: Buffer }> {
  return new Promise((resolve, reject) => {
    let seen = Buffer.alloc(0);
    const timer = setTimeout(() => done(new Error("no access token within 10 s")), 10_000);
    const done = (error: Error | null, value?: { line: string; rest: Buffer }) => {
      clearTimeout(timer);
      socket.removeListener("data", onData);
      socket.pause();
      if (error) reject(new DomainError(ErrorCode.unauthenticated, `This tcp port is private: ${error.message}.`));
      else resolve(value!);
    };
    const onData = (chunk: Buffer) => {
      seen = Buffer.concat([seen, chunk]);
      const at = seen.indexOf(10);
      if (at >= 0) return done(null, { line: seen.subarray(0, at).toString("utf8").trim(), rest: seen.subarray(at + 1) });
      if (seen.length > 512) done(new Error("the first line is longer than an access token"));
    };
    socket.on("data", onData);
    socket.once("end", () => done(new Error("the connection ended before the access token")));
  });
}
