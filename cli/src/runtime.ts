/**
 * Starts Bancada: every component in one process (the default), or only some of them (`--only`),
 * which then find each other over NATS. Pending migrations are applied first by each component.
 */
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { randomBytes } from "node:crypto";
import path from "node:path";
import express from "express";
import { subjects as makeSubjects } from "@bancada/contracts";
import {
  MemoryBus,
  NatsAuthError,
  busKeyResolver,
  serviceKeyCacheMs,
  connectNatsBus,
  createLogger,
  createServiceApp,
  createLimitedServer,
  defaultServerLimits,
  createToolMetrics,
  isLoopback,
  raiseDescriptorLimit,
  startTelemetry,
  type Bus,
  type Logger,
  type Telemetry,
} from "@bancada/service-kit";
import { consoleDistDir } from "@bancada/console";
import { createGateway, restRelay, type Gateway, type RelayedService } from "@bancada/gateway";
import { openDatabases } from "./database.js";
import { stdioLaunchFor } from "./instance.js";
import { busKeysFor } from "./bus-keys.js";
import { requireSecrets } from "./secrets.js";
import { migrateBeforeStart } from "./migrate.js";
import { UsageError, internalUrlVariable, keyPepper, servicePortVariable, type Env } from "./env.js";
import { serviceNamed, serviceNames, serviceScopes, services, type RunningService } from "./services.js";

/** How long a process waits at start for a NATS server that refuses connections (not one that refuses its credentials). */
const natsStartupWaitMs = 10_000;

export interface RuntimeOptions {
  env: Env;
  only?: string[];
  /** Logs to stderr (stdio transport: stdout carries the protocol). */
  logToStderr?: boolean;
  /** Serve HTTP (false for the stdio transport). */
  http?: boolean;
}

export interface Runtime {
  log: Logger;
  bus: Bus;
  /** True when the embedded PostgreSQL serves this process. */
  embedded: boolean;
  gateway: Gateway | undefined;
  mcpUrl: string | undefined;
  /** The secret a stdio bridge of this data folder shows (embedded mode; kept in instance.json, mode 600). */
  stdioBridgeToken: string | undefined;
  stop(): Promise<void>;
}

export async function startRuntime(options: RuntimeOptions): Promise<Runtime> {
  const { env } = options;
  const components = options.only?.length ? options.only : ["gateway", ...serviceNames];
  const unknown = components.filter((name) => name !== "gateway" && !serviceNamed(name));
  if (unknown.length) throw new UsageError(`Unknown component(s) ${unknown.join(", ")}; choose from gateway, ${serviceNames.join(", ")}.`);
  const allInOne = components.length === serviceNames.length + 1;
  if (!allInOne && !env.NATS_URL) throw new UsageError("--only needs NATS_URL: separate processes find each other over NATS.");

  const log = createLogger("bancada", env.LOG_LEVEL, options.logToStderr ? 2 : 1, env.LOG_FORMAT);
  const subjects = makeSubjects(env.BANCADA_SUBJECT_ROOT);
  // configuration problems first: nothing is started for a process that would refuse to run
  requireSecrets(env, components);
  const pepper = components.includes("gateway") ? keyPepper(env) : undefined;
  for (const service of services.filter((served) => components.includes(served.name))) {
    const refusal = service.refusal(env);
    if (refusal) throw new UsageError(refusal);
  }
  const keys = await busKeysFor(env, components, log);
  // every connection and spawned command holds descriptors: the most this process may have (see service-kit's descriptors.ts)
  raiseDescriptorLimit(log);
  // after the checks, before anything connects or serves: the first call is traced too
  const telemetry = await tracing(env, allInOne ? "bancada" : components.join("+"), log);
  const bus: Bus = env.NATS_URL
    ? await connectNatsBus({
        url: env.NATS_URL,
        name: `bancada-${components.join("+")}`,
        keys: keys!,
        user: env.NATS_USER,
        password: env.NATS_PASSWORD,
        credsFile: env.NATS_CREDS,
        tls: { caFile: env.NATS_TLS_CA, certFile: env.NATS_TLS_CERT, keyFile: env.NATS_TLS_KEY },
        // a process started with (or just before) NATS waits for it a little, as a pod does for its cluster
        firstConnectWithinMs: natsStartupWaitMs,
        log: log.child({ component: "nats" }),
        onError: (err) => log.warn({ err }, "nats"),
      }).catch((error: Error) => {
        if (error instanceof NatsAuthError) throw new UsageError(`Cannot connect to NATS at ${env.NATS_URL}: ${error.message}`);
        throw new UsageError(`Cannot connect to NATS at ${env.NATS_URL}: ${error.message}. Is nats-server running?`);
      })
    : new MemoryBus(keys);
  const databases = await openDatabases(env, log).catch(async (error: unknown) => {
    await bus.close();
    throw error;
  });
  const host = databases.embedded && !isLoopback(env.HOST) ? "127.0.0.1" : env.HOST;
  // a stdio client of this data folder is carried to this process over HTTP: the token proves it is local
  const stdioBridgeToken = databases.embedded && components.includes("gateway") ? randomBytes(32).toString("base64url") : undefined;
  const guards = { bindHost: host, allowedHosts: env.BANCADA_ALLOWED_HOSTS, allowedOrigins: env.BANCADA_ALLOWED_ORIGINS };
  if (host !== env.HOST) log.warn({ HOST: env.HOST }, "the embedded mode listens on 127.0.0.1 only; set DATABASE_URL to serve other hosts");
  const metrics = createToolMetrics(allInOne ? "bancada" : components.join("+"));
  const metricsAccess = {
    production: env.NODE_ENV === "production",
    ...(env.BANCADA_METRICS_TOKEN ? { token: env.BANCADA_METRICS_TOKEN } : {}),
  };
  bus.metrics.registerIn(metrics.registry);
  const started: RunningService[] = [];
  const servers: Server[] = [];
  let gateway: Gateway | undefined;
  let mcpUrl: string | undefined;

  try {
    if (databases.embedded) await migrateBeforeStart(databases, components, log);
    for (const name of components.filter((component) => component !== "gateway")) {
      const databaseUrl = await databases.urlFor(name);
      const service = serviceNamed(name)!;
      started.push(await service.start({ databaseUrl, bus, subjects, log, metrics, env, embedded: databases.embedded }));
    }
    // the REST routes resolve keys as the first service here: its bus key tags the request and the gateway's answer
    // 2 s here and the gateway's 3 s (keys/api-keys.ts): a revoked or expired key stops working on REST within 5 s
    const resolver = () => busKeyResolver(bus, subjects, started[0]!.name, serviceKeyCacheMs, log);
    const restLimits = {
      rateLimit: { burst: env.BANCADA_RATE_BURST, perSecond: env.BANCADA_RATE_PER_SEC },
      bodyTimeoutMs: env.BANCADA_BODY_TIMEOUT_SECONDS * 1_000,
    };
    if (components.includes("gateway")) {
      const databaseUrl = await databases.urlFor("gateway");
      const serviceApp = started.length
        ? createServiceApp({ routes: started.map((s) => s.routes), resolver: resolver(), log, guards, terminal: false, ...restLimits })
        : undefined;
      // the services in other processes: their REST routes and transfer URLs are relayed, so this port is the one entry
      const relayed = relayedServices(env, components);
      gateway = await createGateway({
        databaseUrl,
        bus,
        subjects,
        services: serviceNames,
        scopes: serviceScopes,
        log,
        metrics,
        keyPepper: pepper!,
        bindHost: host,
        allowedHosts: env.BANCADA_ALLOWED_HOSTS,
        allowedOrigins: env.BANCADA_ALLOWED_ORIGINS,
        outputSchemas: env.SOSOAPI_OUTPUT_SCHEMAS,
        rateLimit: restLimits.rateLimit,
        bodyTimeoutMs: restLimits.bodyTimeoutMs,
        ...(env.BANCADA_ADMIN_TOKEN ? { adminToken: env.BANCADA_ADMIN_TOKEN } : {}),
        metricsAccess,
        ...(serviceApp ? { extra: [serviceApp] } : {}),
        ...(relayed.length ? { relay: restRelay(relayed, log.child({ component: "rest-relay" })) } : {}),
        consoleDir: consoleDistDir,
        // the embedded mode's stdio configuration names nothing secret (a real database's would need its URL and pepper)
        ...(databases.embedded ? { stdioLaunch: stdioLaunchFor(path.resolve(env.BANCADA_DATA_DIR)) } : {}),
        ...(stdioBridgeToken ? { stdioBridgeToken } : {}),
        // the OAuth issuer and the resource tokens are bound to (unset: the address the first OAuth request came to)
        ...(env.BANCADA_PUBLIC_URL ? { publicUrl: env.BANCADA_PUBLIC_URL } : {}),
        ...(env.BANCADA_OAUTH_ALLOW_PRIVATE_CLIENT_DOCUMENTS ? { allowPrivateClientDocuments: true } : {}),
      });
      if (relayed.length)
        log.info({ services: Object.fromEntries(relayed.map((r) => [r.name, r.url])) }, "REST routes of the other processes relayed");
      if (options.http !== false) {
        const server = await listen(gateway.app, env.PORT, host, "PORT", env.BANCADA_MAX_CONNECTIONS);
        servers.push(server);
        mcpUrl = `http://${displayHost(host)}:${(server.address() as AddressInfo).port}/mcp`;
      }
    } else if (options.http !== false) {
      const api = { title: `Bancada REST API (${started.map((s) => s.name).join(", ")})`, version: "1" };
      const app = createServiceApp({
        routes: started.map((s) => s.routes),
        resolver: resolver(),
        log,
        metrics,
        metricsAccess,
        guards,
        api,
        ...restLimits,
      });
      // one REST port per process: the first service's (several services in one process share it)
      const portVariable = servicePortVariable(started[0]!.name);
      const server = await listen(app, env[portVariable] as number, host, portVariable, env.BANCADA_MAX_CONNECTIONS);
      servers.push(server);
      const restUrl = `http://${displayHost(host)}:${(server.address() as AddressInfo).port}`;
      log.info({ url: restUrl, variable: portVariable }, "REST API, health and metrics listening");
    }
  } catch (error) {
    await Promise.allSettled(started.map((service) => service.stop()));
    await gateway?.stop();
    await bus.close();
    await databases.stop();
    await telemetry?.shutdown();
    throw error;
  }

  return {
    log,
    bus,
    embedded: databases.embedded,
    gateway,
    mcpUrl,
    stdioBridgeToken,
    async stop() {
      // each step's time is logged at debug: where a slow stop goes (`LOG_LEVEL=debug`)
      const step = async (name: string, work: () => Promise<unknown>) => {
        const began = Date.now();
        await work();
        log.debug({ step: name, ms: Date.now() - began }, "stop step done");
      };
      gateway?.drain();
      await step("draining HTTP", () => Promise.all(servers.map((server) => closeServer(server, 10_000))));
      // in one process every caller came through those connections: a call still running after the drain has nobody
      // waiting for it, and the in-process bus's close would wait for it (an exec of `sleep 300` held the stop)
      if (!env.NATS_URL) for (const service of started) service.host.cancelRunning();
      for (const service of started)
        await step(service.name, () => service.stop().catch((err: unknown) => log.warn({ err }, "service stop")));
      await step("gateway", async () => gateway?.stop());
      await step("bus", () => bus.close());
      await step("databases", () => databases.stop());
      // last: the spans of the calls drained above are sent before the process exits
      await telemetry?.shutdown().catch((err: unknown) => log.warn({ err }, "sending the last spans"));
    },
  };
}

/** The services this process does not run, and where their own ports are (`<NAME>_INTERNAL_URL`, else this host's `<NAME>_PORT`). */
function relayedServices(env: Env, components: readonly string[]): RelayedService[] {
  return services
    .filter((service) => !components.includes(service.name))
    .map((service) => {
      const given = (env as unknown as Record<string, string | undefined>)[internalUrlVariable(service.name)];
      const url = given ?? `http://127.0.0.1:${env[servicePortVariable(service.name)]}`;
      return { name: service.name, paths: service.paths, url };
    });
}

/** Starts OpenTelemetry when an OTLP endpoint is set; nothing is loaded otherwise. */
async function tracing(env: Env, serviceName: string, log: Logger): Promise<Telemetry | undefined> {
  if (!env.OTEL_EXPORTER_OTLP_ENDPOINT && !env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) return undefined;
  const protocol = env.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL ?? env.OTEL_EXPORTER_OTLP_PROTOCOL ?? "http/protobuf";
  const telemetry = await startTelemetry({ serviceName, protocol });
  log.info({ protocol, endpoint: env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT ?? env.OTEL_EXPORTER_OTLP_ENDPOINT }, "traces exported over OTLP");
  return telemetry;
}

function listen(app: express.Express, port: number, host: string, variable: string, maxConnections: number): Promise<Server> {
  return new Promise((resolve, reject) => {
    const server = createLimitedServer(app, { ...defaultServerLimits, maxConnections }).listen(port, host);
    server.once("listening", () => resolve(server));
    server.once("error", (error: NodeJS.ErrnoException) => {
      if (error.code === "EADDRINUSE")
        reject(new UsageError(`Port ${port} on ${host} is already in use; set ${variable} to another port.`));
      else reject(error);
    });
  });
}

/**
 * Stops taking connections, lets in-flight requests finish (bounded), then closes what is left. A keep-alive
 * connection whose request ends during the drain is closed as soon as it is idle: `server.close()` closes only those
 * idle at the time, and the others held the stop for the keep-alive timeout (5 s after an exec answered).
 */
function closeServer(server: Server, graceMs: number): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => server.closeAllConnections(), graceMs).unref();
    const idle = setInterval(() => server.closeIdleConnections(), 50).unref();
    server.close(() => {
      clearTimeout(timer);
      clearInterval(idle);
      resolve();
    });
    server.closeIdleConnections();
  });
}

function displayHost(host: string): string {
  return host === "0.0.0.0" || host === "::" ? "127.0.0.1" : host.includes(":") ? `[${host}]` : host;
}
