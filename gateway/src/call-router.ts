/**
 * Routes one tool call: checks at the gateway (a bad call never crosses the bus), then a bus request
 * to the owning service with the caller's principal, a call id and a deadline, tagged with that service's
 * bus key, which the gateway derives from its master secret (services run nothing else). Errors come back as
 * data. The reply must carry the same service's tag for this very request (its call id and body digest), and each
 * progress update the service's tag on the call's progress subject: anything else on the bus that hears the call
 * cannot answer it or speak in its stream. A reply without that tag is refused, logged at warn, and answered
 * `unavailable` (retryable: the genuine answer may have been pre-empted). A call that gets no answer is
 * `unavailable` when a retry may well succeed — no replica serves the service, the replica that took it died (its
 * heartbeats stopped, bus/nats-requests.ts), NATS is unreachable — and `deadline_exceeded` when it ran past its
 * deadline.
 */
import { randomUUID } from "node:crypto";
import {
  DomainError,
  ErrorCode,
  Header,
  authorize,
  invalidArgument,
  logLevels,
  sizeLimitThreshold,
  type CallReply,
  type ClientLog,
  type ClientSide,
  type CallRequest,
  type ErrorBody,
  type Principal,
  type ProgressUpdate,
  type PromptDescriptor,
  type Subjects,
  type Transport,
  type ValidationIssue,
} from "@bancada/contracts";
import {
  BusFailure,
  BusRequestError,
  ReplayGuard,
  admitsReply,
  checkBusSignature,
  checkReply,
  gatewayKeyScope,
  decodeJson,
  encodeJson,
  SpanKind,
  activeTraceId,
  activeTraceparent,
  busSpanAttributes,
  callParent,
  newTraceparent,
  setOutcome,
  signBusMessage,
  withSpan,
  toErrorBody,
  traceIdOf,
  type Bus,
  type Logger,
  type RateLimiter,
  type Span,
  type ToolMetrics,
} from "@bancada/service-kit";
import type { ErrorObject } from "ajv";
import type { AuditTrail } from "./audit.js";
import type { Catalog } from "./catalog.js";

export interface CallRouterOptions {
  bus: Bus;
  subjects: Subjects;
  catalog: Catalog;
  log: Logger;
  rateLimiter?: RateLimiter;
  audit?: AuditTrail;
  metrics?: ToolMetrics;
  /** Added to a tool's own maximum duration to make the gateway's deadline. */
  deadlineMarginMs?: number;
}

export interface CallOptions {
  transport: Transport;
  signal?: AbortSignal;
  traceparent?: string;
  /** The JSON-RPC id of the client's request, so that its `notifications/cancelled` can find the call. */
  requestId?: string | number;
  /** Set when the client sent a progressToken: the service's progress updates are relayed here. */
  onProgress?: (update: ProgressUpdate) => void;
  /** The MCP client's side of a tool call or prompt (what it can be asked, its answers, its log level), carried to the service. */
  client?: ClientSide;
  /** Where the service's log messages for the client go (set with `client.logLevel`). */
  onLog?: (log: ClientLog) => void;
}

export class CallRouter {
  readonly #o: CallRouterOptions;
  /** Calls in flight on this replica by `<keyId>:<request id>`, for client cancellations. */
  readonly #inFlight = new Map<string, AbortController>();

  constructor(options: CallRouterOptions) {
    this.#o = options;
  }

  /** Starts hearing client cancellations sent to any replica. */
  listenForCancellations(): { unsubscribe(): void } {
    const { bus, subjects, log } = this.#o;
    const replays = new ReplayGuard();
    return bus.subscribe(subjects.clientCancel, (message) => {
      // signed, or anything on the bus could cancel anyone's calls; once, or a replay could cancel a later
      // call that reuses the JSON-RPC id (stateless clients often start at 1 again)
      let problem = checkBusSignature(bus.keys.for(gatewayKeyScope), subjects.clientCancel, message);
      if (!problem && !replays.firstSighting(message.headers[Header.callId] ?? "", Number(message.headers[Header.expires])))
        problem = "replayed";
      if (problem) return log.warn({ subject: subjects.clientCancel, reason: problem }, "refused a cancellation not signed by a gateway");
      const { keyId, requestId } = decodeJson(message.data) as { keyId?: string; requestId?: string | number };
      this.#inFlight.get(`${keyId}:${String(requestId)}`)?.abort();
    });
  }

  /** A client's `notifications/cancelled`: the call it names may be running on any replica. */
  cancelClientRequest(principal: Principal, requestId: string | number): void {
    this.#publishSigned(gatewayKeyScope, this.#o.subjects.clientCancel, encodeJson({ keyId: principal.keyId, requestId }), {
      [Header.callId]: randomUUID(),
    });
  }

  /** One span per call (its outcome, never its arguments), the parent of the bus request's. */
  callTool(principal: Principal, name: string, args: unknown, options: CallOptions): Promise<CallReply> {
    const attributes = { "bancada.tool": name, "bancada.key_id": principal.keyId, "bancada.transport": options.transport };
    return withSpan(`tools/call ${name}`, { attributes, parent: callParent(options.traceparent) }, (span) =>
      this.#call(span, principal, name, args, options),
    );
  }

  async #call(span: Span, principal: Principal, name: string, args: unknown, options: CallOptions): Promise<CallReply> {
    const started = performance.now();
    const callId = randomUUID();
    const controller = new AbortController();
    const key = options.requestId !== undefined ? `${principal.keyId}:${String(options.requestId)}` : undefined;
    if (key) this.#inFlight.set(key, controller);
    // one controller per call, fed by the client's signal: AbortSignal.any costs a composite signal and weak refs per call
    const clientGone = () => controller.abort();
    options.signal?.addEventListener("abort", clientGone, { once: true });
    if (options.signal?.aborted) controller.abort();
    const signal = controller.signal;
    // the client's trace when it sent one, else a fresh one: the service's lines and spans join it either way
    const traceparent = traceIdOf(options.traceparent) ? options.traceparent! : newTraceparent();
    let reply: CallReply;
    try {
      reply = await this.#route(principal, name, args ?? {}, callId, { ...options, signal, traceparent });
    } catch (error) {
      reply = { ok: false, error: toErrorBody(error, this.#o.log, callId) };
    } finally {
      if (key) this.#inFlight.delete(key);
      options.signal?.removeEventListener("abort", clientGone);
    }
    const durationMs = performance.now() - started;
    const outcome = reply.ok ? "ok" : reply.error.code;
    setOutcome(span, outcome);
    this.#o.metrics?.observe(name, outcome, durationMs, reply.ok ? undefined : this.#o.catalog.tool(name)?.service);
    // one line per call, never its arguments or result
    this.#o.log.info(
      {
        tool: name,
        keyId: principal.keyId,
        agentId: principal.agentId,
        transport: options.transport,
        outcome,
        durationMs: Math.round(durationMs),
        traceId: activeTraceId() ?? traceIdOf(traceparent),
        callId,
      },
      "tool call",
    );
    this.#audit(principal, name, outcome, Math.round(durationMs));
    return reply;
  }

  async getPrompt(principal: Principal, name: string, args: Record<string, string>, options: CallOptions): Promise<CallReply> {
    const entry = this.#o.catalog.prompts().find((prompt) => prompt.descriptor.name === name);
    if (!entry)
      return {
        ok: false,
        error: new DomainError(ErrorCode.notFound, `Unknown prompt '${name}'; prompts/list names the prompts.`).toBody(),
      };
    const issues = promptArgumentIssues(entry.descriptor.arguments, args);
    if (issues.length > 0) return { ok: false, error: invalidArgument(issues).toBody() };
    const body = { kind: "prompt", prompt: name, args, ...(options.client ? { client: options.client } : {}) };
    return this.#request(entry.service, body, principal, randomUUID(), 30_000, options);
  }

  /**
   * A resources page, a resource read or a completion, relayed to the service that serves it as a tool call is:
   * rate-limited per key, signed, with a deadline, logged and audited under `label` (`resources/read
   * scripts`, never the URI). The caller's access to the family or prompt was checked by the gateway before, and
   * the service checks it again.
   */
  async relay(principal: Principal, service: string, body: CallRequest, label: string, options: CallOptions): Promise<CallReply> {
    const started = performance.now();
    const callId = randomUUID();
    const traceparent = traceIdOf(options.traceparent) ? options.traceparent! : newTraceparent();
    let reply: CallReply;
    try {
      const waitMs = this.#o.rateLimiter?.take(principal.keyId) ?? 0;
      if (waitMs > 0)
        throw new DomainError(ErrorCode.rateLimited, `Too many calls for this API key; retry in ${waitMs} ms.`, { retryAfterMs: waitMs });
      reply = await this.#request(service, body, principal, callId, relayTimeoutMs, { ...options, traceparent });
    } catch (error) {
      reply = { ok: false, error: toErrorBody(error, this.#o.log, callId) };
    }
    const durationMs = Math.round(performance.now() - started);
    const outcome = reply.ok ? "ok" : reply.error.code;
    this.#o.log.info(
      { request: label, keyId: principal.keyId, agentId: principal.agentId, transport: options.transport, outcome, durationMs, callId },
      "mcp request",
    );
    this.#audit(principal, label, outcome, durationMs);
    return reply;
  }

  /** One audit row per tool call or relayed request (`tool` is the tool's name or the request's label). */
  #audit(principal: Principal, tool: string, outcome: string, durationMs: number): void {
    this.#o.audit?.record({
      at: new Date(),
      keyId: principal.keyId,
      accountId: principal.accountId,
      personId: principal.personId,
      agentId: principal.agentId,
      tool,
      outcome,
      durationMs,
    });
  }

  async #route(principal: Principal, name: string, args: unknown, callId: string, options: CallOptions): Promise<CallReply> {
    const entry = this.#o.catalog.tool(name);
    if (!entry) throw new DomainError(ErrorCode.notFound, `Unknown tool '${name}'. Call tools/list to see the tools this key may use.`);
    const { descriptor } = entry;
    const access = authorize(descriptor, principal, options.transport);
    if (!access.allowed) throw access.error;
    const waitMs = this.#o.rateLimiter?.take(principal.keyId) ?? 0;
    if (waitMs > 0)
      throw new DomainError(ErrorCode.rateLimited, `Too many calls for this API key; retry in ${waitMs} ms.`, { retryAfterMs: waitMs });
    if (!entry.validate(args)) throw invalidArgument(issuesOf(entry.validate.errors ?? []));
    const timeoutMs = descriptor.maxDurationMs + (this.#o.deadlineMarginMs ?? 5_000);
    const body = { kind: "tool", tool: name, args, ...(options.client ? { client: options.client } : {}) };
    return this.#request(entry.service, body, principal, callId, timeoutMs, options);
  }

  /**
   * The signed bus request, in a CLIENT span whose context travels in the request's `traceparent`. One method for
   * tool calls and prompts: the headers, the signature and what a call that got no answer becomes are written once.
   */
  #request(
    service: string,
    body: unknown,
    principal: Principal,
    callId: string,
    timeoutMs: number,
    options: CallOptions,
  ): Promise<CallReply> {
    const { bus, subjects } = this.#o;
    const subject = subjects.call(service);
    return withSpan(`send ${subject}`, { kind: SpanKind.CLIENT, attributes: busSpanAttributes(subject, callId) }, async (span) => {
      const traceparent = activeTraceparent() ?? options.traceparent;
      const deadline = Date.now() + timeoutMs;
      const plain: Record<string, string> = {
        [Header.principal]: JSON.stringify(principal),
        [Header.callId]: callId,
        [Header.deadline]: String(deadline),
        [Header.transport]: options.transport,
        ...(traceparent ? { [Header.traceparent]: traceparent } : {}),
        ...(options.onProgress ? { [Header.progress]: "1" } : {}),
      };
      const data = encodeJson(body);
      const key = bus.keys.for(service);
      const headers = signBusMessage(key, subject, plain, data, { notAfter: deadline });
      const request = { data, headers };
      const progress = options.onProgress || options.onLog ? this.#relayProgress(service, callId, options) : undefined;
      const signal = options.signal;
      let reply: CallReply;
      try {
        const answer = await bus.request(subject, data, {
          timeoutMs,
          headers,
          admitReply: admitsReply(key, subject, request),
          ...(signal ? { signal } : {}),
        });
        const problem = checkReply(key, subject, request, answer);
        if (problem) {
          this.#o.log.warn({ subject, service, reason: problem, callId }, "refused a reply not signed by the service");
          reply = { ok: false, error: unverifiedReplyBody(service, problem) };
        } else reply = decodeJson(answer.data) as CallReply;
      } catch (error) {
        if (!(error instanceof BusRequestError)) throw error;
        // the service may still be running the call nobody waits for now (a replica only cut off, not dead): stop it
        if (abandons.has(error.reason))
          this.#publishSigned(service, subjects.cancel(service), new Uint8Array(), { [Header.callId]: callId });
        reply = { ok: false, error: busFailureBody(service, error.reason, timeoutMs) };
      } finally {
        progress?.unsubscribe();
      }
      setOutcome(span, reply.ok ? "ok" : reply.error.code);
      return reply;
    });
  }

  /**
   * The called service's progress and log messages for one call, relayed to the client: only updates tagged with
   * that service's key on this call's subject (anything else there is dropped, logged once per call).
   */
  #relayProgress(service: string, callId: string, options: CallOptions): { unsubscribe(): void } {
    const { bus, subjects, log } = this.#o;
    const subject = subjects.progress(service, callId);
    const key = bus.keys.for(service);
    let warned = false;
    return bus.subscribe(subject, (message) => {
      const problem = message.headers[Header.callId] === callId ? checkBusSignature(key, subject, message) : "bad_signature";
      const update = problem ? undefined : progressUpdate(message.data);
      if (update && "log" in update) return options.onLog?.(update.log);
      if (update) return options.onProgress?.(update);
      if (!warned)
        log.warn({ subject, service, reason: problem ?? "malformed", callId }, "refused a progress update not signed by the service");
      warned = true;
    });
  }

  /** Tagged with the key of `scope`: the service the subject is for, or the gateways' own. */
  #publishSigned(scope: string, subject: string, data: Uint8Array, headers: Record<string, string>): void {
    this.#o.bus.publish(subject, data, signBusMessage(this.#o.bus.keys.for(scope), subject, headers, data));
  }
}

/** How long a resources page, a read or a completion may take (a box file read waits on its box like read_file). */
const relayTimeoutMs = 75_000;

/** A prompt's arguments against its declaration: every required one present, none it does not declare. */
function promptArgumentIssues(declared: PromptDescriptor["arguments"], args: Record<string, string>): ValidationIssue[] {
  const names = declared.map((argument) => argument.name);
  const issues: ValidationIssue[] = declared
    .filter((argument) => argument.required && (args[argument.name] === undefined || args[argument.name] === ""))
    .map((argument) => ({ path: argument.name, message: "required" }));
  for (const key of Object.keys(args))
    if (!names.includes(key))
      issues.push({ path: key, message: `unknown argument '${key}' (this prompt takes: ${names.join(", ") || "no arguments"})` });
  return issues;
}

/** A progress update or log message as the service sent it, or undefined when it is neither (it never reaches the client then). */
function progressUpdate(data: Uint8Array): ProgressUpdate | { log: ClientLog } | undefined {
  try {
    const update = decodeJson(data) as (Partial<ProgressUpdate> & { log?: Partial<ClientLog> }) | null;
    if (update?.log && (logLevels as readonly unknown[]).includes(update.log.level)) return { log: update.log as ClientLog };
    if (typeof update?.progress !== "number") return undefined;
    return update as ProgressUpdate;
  } catch {
    return undefined;
  }
}

/** A reply that did not carry the called service's tag: never taken, and retryable (the genuine one may come on a retry). */
function unverifiedReplyBody(service: string, reason: string): ErrorBody {
  return {
    code: ErrorCode.unavailable,
    message: `The answer to this call did not carry the ${service} service's signature, so it was not used (something else answered, or the service refused a call it could not verify); retry, with the same idempotency key for a write.`,
    details: { service, reason },
  };
}

/** The failures after which the call may still be running somewhere: a cancellation goes out (held until NATS is back). */
const abandons = new Set<BusFailure>([BusFailure.cancelled, BusFailure.timeout, BusFailure.responderLost, BusFailure.unreachable]);

/** What a call that got no answer tells the client: all but a deadline or a cancellation are retryable. */
function busFailureBody(service: string, reason: BusFailure, timeoutMs: number): ErrorBody {
  if (reason === BusFailure.timeout) {
    return {
      code: ErrorCode.deadlineExceeded,
      message: `The ${service} service did not finish within ${timeoutMs} ms.`,
      details: { service },
    };
  }
  if (reason === BusFailure.cancelled) {
    return { code: ErrorCode.deadlineExceeded, message: "The call was cancelled by the client.", details: { service, cancelled: true } };
  }
  if (reason === BusFailure.responderLost) {
    return {
      code: ErrorCode.unavailable,
      message: `The ${service} service stopped answering for this call (the replica running it is gone or unreachable); retry it, with the same idempotency key for a write.`,
      details: { service, lost: true },
    };
  }
  if (reason === BusFailure.unreachable) {
    return {
      code: ErrorCode.unavailable,
      message: "The message bus is unreachable (NATS is down or cut off); retry shortly, with the same idempotency key for a write.",
      details: { service, bus: "unreachable" },
    };
  }
  return {
    code: ErrorCode.unavailable,
    message: `The ${service} service is not answering right now; retry shortly (safe with the same idempotency key).`,
    details: { service },
  };
}

/** Ajv's errors as the same `{ path, message }` issues the services produce from zod, one per problem. */
function issuesOf(errors: ErrorObject[]): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  const formatAt = new Set(errors.filter((error) => error.keyword === "format").map((error) => error.instancePath));
  for (const error of errors) {
    // a UUID or date field carries both a format and the regex behind it: say the format once, never the regex
    if (error.keyword === "pattern" && formatAt.has(error.instancePath)) continue;
    const issue = issueOf(error);
    if (!issues.some((seen) => seen.path === issue.path && seen.message === issue.message)) issues.push(issue);
  }
  return issues;
}

function issueOf(error: ErrorObject): ValidationIssue {
  const base = error.instancePath
    .replace(/^\//, "")
    .replace(/\/(\d+)(?=\/|$)/g, "[$1]")
    .replaceAll("/", ".");
  const join = (child: string) => (base ? `${base}.${child}` : child);
  switch (error.keyword) {
    case "additionalProperties":
      return {
        path: join(String(error.params.additionalProperty)),
        message: `unknown field '${String(error.params.additionalProperty)}'`,
      };
    case "required":
      return { path: join(String(error.params.missingProperty)), message: "required" };
    case "maxLength": {
      const limit = Number(error.params.limit);
      return { path: base, message: `must be at most ${limit} characters`, ...(limit >= sizeLimitThreshold ? { tooLarge: true } : {}) };
    }
    case "enum":
      return {
        path: base,
        message: `must be one of: ${(error.params.allowedValues as unknown[]).map((value) => JSON.stringify(value)).join(", ")}`,
      };
    case "const":
      return { path: base, message: `must be ${JSON.stringify(error.params.allowedValue)}` };
    case "format":
      return { path: base, message: formatMessages[String(error.params.format)] ?? `must be in the ${String(error.params.format)} format` };
    case "pattern":
      return { path: base, message: patternMessages[String(error.params.pattern)] ?? "is not in the form the tool's description gives" };
    default:
      return { path: base, message: error.message ?? error.keyword };
  }
}

const formatMessages: Record<string, string> = {
  uuid: "must be a UUID (like 123e4567-e89b-12d3-a456-426614174000)",
  date: "must be a date as YYYY-MM-DD",
  "date-time": "must be a date and time in ISO 8601 with an offset (like 2026-12-01T10:00:00Z)",
  time: "must be a time as HH:MM:SS with an offset",
  email: "must be an email address",
  uri: "must be an absolute URI",
  url: "must be an absolute URL",
};

const patternMessages: Record<string, string> = {
  "\\S": "must not be blank",
  "^[^\\u0000]*$": "must not contain NUL characters",
};
