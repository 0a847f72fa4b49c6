/**
 * OpenTelemetry traces, off unless an OTLP endpoint is configured. This module imports only the API: with no
 * SDK started its tracer is the API's no-op, and `withSpan` costs a closure. `startTelemetry` loads the SDK,
 * the OTLP exporter and the http and pg instrumentations with dynamic imports, so a process that does not
 * trace never loads them (the CLI bundle keeps them in node_modules for the same reason).
 *
 * The instrumentations are applied to the module objects this process already loaded instead of through
 * require hooks: the CLI bundle's copy of `pg` never passes through `require`, and the sources import `pg`
 * and `node:http` as ESM, which require hooks do not see either. Both patch prototypes (pg's
 * `Client.prototype.query`, http's `Server.prototype.emit`), so clients and servers made before the start
 * are traced too.
 */
import http from "node:http";
import {
  INVALID_SPAN_CONTEXT,
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  context,
  propagation,
  trace,
  type Attributes,
  type Context,
  type Span,
} from "@opentelemetry/api";
import pg from "pg";

export { SpanKind };
export type { Span };

/** How spans reach the collector: OTLP over HTTP, as protobuf (the OpenTelemetry default) or JSON. */
export type OtlpProtocol = "http/protobuf" | "http/json";

export interface TelemetryOptions {
  /** `service.name` of this process's spans (OTEL_SERVICE_NAME, when set, wins). */
  serviceName: string;
  protocol: OtlpProtocol;
}

export interface Telemetry {
  /** Sends the spans still buffered and stops tracing. */
  shutdown(): Promise<void>;
}

/**
 * Taken once the SDK is registered, not at load: the CLI bundle holds its own copy of the API beside the
 * SDK's, and only the global registration (which both read) connects them, not a proxy taken earlier.
 */
let tracer = trace.getTracer("bancada");
/** Set while an SDK runs: without one, `withSpan` skips even the API's no-op tracer. */
let tracing = false;
const idleSpan = trace.wrapSpanContext(INVALID_SPAN_CONTEXT);

/** Routes whose requests make no spans: probes and scrapes would drown the calls. */
const untracedPaths = new Set(["/healthz", "/readyz", "/metrics"]);

/**
 * Starts the SDK: a batch of spans at a time to the OTLP endpoint that the OTEL_EXPORTER_OTLP_* variables
 * name (the exporter reads the endpoint, headers and timeout itself, as the OpenTelemetry spec says), W3C
 * trace context, SERVER spans for incoming HTTP, spans for pg queries made inside a traced request or call.
 */
export async function startTelemetry(options: TelemetryOptions): Promise<Telemetry> {
  const [
    { NodeTracerProvider },
    { BatchSpanProcessor },
    resources,
    { ATTR_SERVICE_NAME },
    exporter,
    { HttpInstrumentation },
    { PgInstrumentation },
  ] = await Promise.all([
    import("@opentelemetry/sdk-trace-node"),
    import("@opentelemetry/sdk-trace-base"),
    import("@opentelemetry/resources"),
    import("@opentelemetry/semantic-conventions"),
    options.protocol === "http/json"
      ? import("@opentelemetry/exporter-trace-otlp-http")
      : import("@opentelemetry/exporter-trace-otlp-proto"),
    import("@opentelemetry/instrumentation-http"),
    import("@opentelemetry/instrumentation-pg"),
  ]);
  const resource = resources
    .resourceFromAttributes({ [ATTR_SERVICE_NAME]: options.serviceName })
    .merge(resources.detectResources({ detectors: [resources.envDetector] }));
  const provider = new NodeTracerProvider({
    resource,
    spanProcessors: [new BatchSpanProcessor(new exporter.OTLPTraceExporter())],
  });
  provider.register();
  tracer = trace.getTracer("bancada");
  tracing = true;

  const httpInstrumentation = new HttpInstrumentation({
    enabled: false,
    ignoreIncomingRequestHook: (request) => untracedPaths.has((request.url ?? "").split("?")[0]!),
    requireParentforOutgoingSpans: true,
    // express has matched the route by the time the response ends: name the span after it, not its URL
    applyCustomAttributesOnSpan: (span, request) => {
      const route = expressRoute(request);
      if (route && "method" in request) span.setAttribute("http.route", route).updateName(`${request.method ?? "GET"} ${route}`);
    },
  });
  // only SQL run for a request or a call: periodic jobs and migrations would each start a trace of their own
  const pgInstrumentation = new PgInstrumentation({ enabled: false, requireParentSpan: true });
  for (const instrumentation of [httpInstrumentation, pgInstrumentation]) instrumentation.setTracerProvider(provider);
  patchLoaded(httpInstrumentation, "http", http);
  patchLoaded(pgInstrumentation, "pg", pg);
  // pg's Pool extends pg-pool's class: its prototype holds connect, the wait for a connection
  patchLoaded(pgInstrumentation, "pg-pool", Object.getPrototypeOf(pg.Pool) as unknown);

  return {
    async shutdown() {
      tracing = false;
      await provider.shutdown();
      trace.disable();
      propagation.disable();
      context.disable();
    },
  };
}

interface ModuleDefinitions {
  getModuleDefinitions(): { name: string; patch?: (exports: unknown, version?: string) => unknown }[];
}

/** Applies an instrumentation's patch for the module `name` to the module object this process holds. */
function patchLoaded(instrumentation: ModuleDefinitions, name: string, exports: unknown): void {
  const definition = instrumentation.getModuleDefinitions().find((candidate) => candidate.name === name);
  if (!definition?.patch) throw new Error(`the OpenTelemetry instrumentation has no patch for ${name}`);
  definition.patch(exports);
}

/** `/v1/scripts/:id` for a request express routed (it keeps the route on the request object), else undefined. */
function expressRoute(request: object): string | undefined {
  const { route, baseUrl } = request as { route?: { path?: unknown }; baseUrl?: unknown };
  return typeof route?.path === "string" ? `${typeof baseUrl === "string" ? baseUrl : ""}${route.path}` : undefined;
}

export interface SpanOptions {
  kind?: SpanKind;
  attributes?: Attributes;
  /** The parent when it is not the active span. */
  parent?: Context | undefined;
  /** The headers of the message this span handles: the trace context they carry is the parent. */
  headers?: Record<string, string>;
}

/**
 * Runs `fn` inside a new active span that ends when it settles; a throw marks the span as an error. `fn`
 * sets the outcome itself (a tool's error comes back as data, not as a throw).
 */
export function withSpan<T>(name: string, options: SpanOptions, fn: (span: Span) => Promise<T>): Promise<T> {
  if (!tracing) return fn(idleSpan);
  const parent = options.parent ?? (options.headers ? contextFrom(options.headers) : context.active());
  return tracer.startActiveSpan(
    name,
    { kind: options.kind ?? SpanKind.INTERNAL, attributes: options.attributes ?? {} },
    parent,
    async (span) => {
      try {
        return await fn(span);
      } catch (error) {
        span.recordException(error as Error);
        span.setStatus({ code: SpanStatusCode.ERROR });
        throw error;
      } finally {
        span.end();
      }
    },
  );
}

/** Marks a span with a call's outcome: `ok`, or the error code (an error status). */
export function setOutcome(span: Span, outcome: string): void {
  span.setAttribute("bancada.outcome", outcome);
  if (outcome !== "ok") span.setStatus({ code: SpanStatusCode.ERROR, message: outcome });
}

/** The active span's W3C traceparent for a message's headers, or undefined when nothing traces. */
export function activeTraceparent(): string | undefined {
  if (!tracing) return undefined;
  const carrier: Record<string, string> = {};
  propagation.inject(context.active(), carrier);
  return carrier.traceparent;
}

/** The trace context a message's headers carry (`traceparent`), as a parent for the span that handles it. */
function contextFrom(headers: Record<string, string>): Context {
  return propagation.extract(ROOT_CONTEXT, headers);
}

/** The active span's trace id, or undefined when no span is recording (telemetry off). */
export function activeTraceId(): string | undefined {
  if (!tracing) return undefined;
  const span = trace.getActiveSpan();
  return span?.isRecording() ? span.spanContext().traceId : undefined;
}

/**
 * The parent of a tool call's span: the active one (the HTTP request's, which read the `traceparent` header),
 * else the trace context the client sent in the call's `_meta` (stdio has no HTTP span).
 */
export function callParent(traceparent: string | undefined): Context | undefined {
  if (!tracing || trace.getSpan(context.active()) || !traceparent) return undefined;
  return contextFrom({ traceparent });
}

/** The attributes of a bus request's span, on either side: NATS, the subject, the call id. */
export function busSpanAttributes(subject: string, callId: string): Attributes {
  return { "messaging.system": "nats", "messaging.destination.name": subject, "messaging.message.id": callId };
}
