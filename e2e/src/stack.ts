/**
 * A real stack for a test file: a fresh database, a bus (real NATS unless BANCADA_TEST_BUS=memory), a
 * private subject root so parallel test files never hear each other, the services under test, and the
 * gateway listening on a free loopback port. No layer of ours is mocked.
 */
import { randomBytes, randomUUID } from "node:crypto";
import { Writable } from "node:stream";
import type { AddressInfo } from "node:net";
import { createServer, type Server } from "node:http";
import type { Router } from "express";
import {
  Header,
  subjects as makeSubjects,
  type CallReply,
  type CallRequest,
  type Principal,
  type Subjects,
  type Transport,
} from "@bancada/contracts";
import {
  BusKeys,
  MemoryBus,
  busKeyResolver,
  connectNatsBus,
  createLogger,
  createServiceApp,
  decodeJson,
  encodeJson,
  createLimitedServer,
  signBusMessage,
  type Bus,
  type Logger,
  type RateLimitOptions,
  type ServerLimits,
} from "@bancada/service-kit";
import { createGateway, type CreateKeyInput, type Gateway, type GatewayOptions } from "@bancada/gateway";
import { freshDatabase, type TestDatabase } from "@bancada/testkit";
import { registeredScopes } from "@bancada/service-registry";

export interface StackService {
  name: string;
  routes: Router;
  stop(): Promise<void>;
}

export interface ServiceDeps {
  databaseUrl: string;
  bus: Bus;
  subjects: Subjects;
  log: Logger;
}

export type ServiceFactory = (deps: ServiceDeps) => Promise<StackService>;

export interface Stack {
  baseUrl: string;
  mcpUrl: string;
  database: TestDatabase;
  bus: Bus;
  subjects: Subjects;
  gateway: Gateway;
  createKey(input?: Partial<CreateKeyInput>): Promise<string>;
  stopService(name: string): Promise<void>;
  startService(name: string): Promise<void>;
  stop(): Promise<void>;
}

export const natsUrl = process.env.NATS_URL;

/**
 * The one rule for which bus a stack gets: a NATS server the test started itself (`url`) always; else real NATS
 * when NATS_URL is set (CI) and BANCADA_TEST_BUS is not `memory`; else the in-process bus. Either holds a bus key
 * pair made for it: the stack's gateway signs, its services verify, as in production.
 */
export async function testBus(url?: string, log?: Logger): Promise<Bus> {
  const target = url ?? (process.env.BANCADA_TEST_BUS === "memory" ? undefined : natsUrl);
  if (!target) return new MemoryBus();
  return connectNatsBus({
    url: target,
    name: "bancada-test",
    keys: BusKeys.generate(),
    ...(log ? { log: log.child({ component: "nats" }) } : {}),
  });
}

export interface StackOptions {
  services: Record<string, ServiceFactory>;
  gateway?: Partial<GatewayOptions>;
  /** Where the stack logs (silent unless LOG_LEVEL is set); `captureLogs()` gives one a test can read. */
  log?: Logger;
  /** The services' REST app: a per-key rate limit (none by default) and the body timeout. */
  rest?: { rateLimit?: RateLimitOptions; bodyTimeoutMs?: number };
  /** Connection cap and header timeout of the stack's HTTP server (Node's defaults when omitted). */
  serverLimits?: ServerLimits;
  /** A NATS server of the test's own (one it stops or kills) instead of NATS_URL's. */
  natsUrl?: string;
}

export async function startStack(options: StackOptions): Promise<Stack> {
  const database = await freshDatabase();
  const log = options.log ?? createLogger("test", (process.env.LOG_LEVEL as "info" | undefined) ?? "silent");
  const bus = await testBus(options.natsUrl, log);
  const subjects = makeSubjects(`t${randomBytes(4).toString("hex")}`);
  const deps: ServiceDeps = { databaseUrl: database.url, bus, subjects, log };
  const running = new Map<string, StackService>();
  for (const [name, factory] of Object.entries(options.services)) running.set(name, await factory(deps));

  const serviceApp = createServiceApp({
    routes: [...running.values()].map((service) => service.routes),
    // the REST routes' key resolutions go out as the first service (the test bus holds the master: any would do)
    resolver: busKeyResolver(bus, subjects, Object.keys(options.services)[0] ?? "rest", 500, log),
    log,
    guards: { bindHost: "127.0.0.1", allowedHosts: [], allowedOrigins: [] },
    terminal: false,
    ...options.rest,
  });
  const gateway = await createGateway({
    databaseUrl: database.url,
    bus,
    subjects,
    services: Object.keys(options.services),
    // every service's scopes, whichever run here: a test's key may hold any
    scopes: registeredScopes(),
    log,
    keyPepper: "test-pepper",
    bindHost: "127.0.0.1",
    extra: [serviceApp],
    ...options.gateway,
  });
  // On a loaded machine the first catalog request can go unanswered; wait for every service's tools.
  for (const name of Object.keys(options.services)) {
    const until = Date.now() + 30_000;
    while (!gateway.catalog.tools().some((tool) => tool.service === name) && Date.now() < until) await gateway.catalog.refresh(name);
  }
  const server = await listen(gateway.app, options.serverLimits);
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    baseUrl,
    mcpUrl: `${baseUrl}/mcp`,
    database,
    bus,
    subjects,
    gateway,
    async createKey(input = {}) {
      const { key } = await gateway.keys.create({
        accountId: "acct-a",
        personId: "person-a",
        agentId: "test-agent",
        scopes: ["scripts:read", "scripts:write"],
        allowWrites: true,
        allowedBoardIds: null,
        ...input,
      });
      return key;
    },
    async stopService(name) {
      await running.get(name)?.stop();
      running.delete(name);
    },
    async startService(name) {
      const factory = options.services[name];
      if (!factory) throw new Error(`unknown service ${name}`);
      running.set(name, await factory(deps));
    },
    async stop() {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      for (const service of running.values()) await service.stop();
      await gateway.stop();
      await bus.close();
      await database.drop();
    },
  };
}

function listen(app: Gateway["app"], limits?: ServerLimits): Promise<Server> {
  return new Promise((resolve, reject) => {
    const server = limits ? createLimitedServer(app, limits) : createServer(app);
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve(server));
  });
}

/** A logger whose lines (parsed JSON) a test can read, e.g. to check that a refusal was logged and what it held. */
export function captureLogs(level: "warn" | "info" | "debug" = "warn"): {
  log: Logger;
  lines: () => Record<string, unknown>[];
  text: () => string;
} {
  let text = "";
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      text += chunk.toString();
      done();
    },
  });
  return {
    log: createLogger("test", level, sink),
    lines: () =>
      text
        .split("\n")
        .filter(Boolean)
        .map((line) => JSON.parse(line) as Record<string, unknown>),
    text: () => text,
  };
}

/**
 * One call sent straight to a service over the stack's bus, tagged as the gateway's call router tags it (the
 * gateway's own checks skipped): for tests of a service's own checks. An unsigned call is refused by the service.
 */
export async function callServiceOverBus(
  stack: Pick<Stack, "bus" | "subjects">,
  service: string,
  principal: Principal,
  request: CallRequest,
  transport: Transport = "http",
): Promise<CallReply> {
  const subject = stack.subjects.call(service);
  const data = encodeJson(request);
  const plain = {
    [Header.principal]: JSON.stringify(principal),
    [Header.callId]: randomUUID(),
    [Header.deadline]: String(Date.now() + 60_000),
    [Header.transport]: transport,
  };
  const reply = await stack.bus.request(subject, data, {
    timeoutMs: 60_000,
    headers: signBusMessage(stack.bus.keys.for(service), subject, plain, data),
  });
  return decodeJson(reply.data) as CallReply;
}
