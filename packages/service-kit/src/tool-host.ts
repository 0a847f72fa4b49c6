/**
 * Serves a service's tools on the bus: `<root>.<svc>.call` (queue group, one replica answers),
 * `<root>.<svc>.catalog`, and `<root>.<svc>.cancel` (fan-out: the replica running the call aborts it). Any replica
 * runs any call: a service whose things live on one machine (boxes) reaches that machine itself.
 * A call runs only when the gateway tagged it with this service's key (bus-signature.ts): anything else that
 * reaches the bus is refused with `unauthenticated` and logged; a body announced in parts is pulled only once its
 * tag is checked. What the host says back is tagged with the same key — each reply and each catalog for the
 * request it answers, each progress update on the call's own subject (`<root>.progress.<svc>.<callId>`) — and the
 * gateway takes none that is not (gateway/src/catalog.ts, call-router.ts): something else on the bus that hears a
 * call, or a catalog request, cannot answer it in this service's name. Every call is authorized again here
 * (`authorize`, the gateway's own rule) whatever the gateway did: defence in depth.
 */
import { randomUUID } from "node:crypto";
import {
  DomainError,
  ErrorCode,
  Header,
  authorize,
  callRequest,
  principalSchema,
  type CallReply,
  type CallRequest,
  type ContentBlock,
  type Principal,
  type Subjects,
  type Transport,
  type PromptDescriptor,
  type ServiceCatalog,
  type Vocabulary,
} from "@bancada/contracts";
import { decodeJson, encodeJson, type Bus, type BusMessage, type BusSubscription } from "./bus/bus.js";
import {
  ReplayGuard,
  checkBusAnnouncement,
  checkBusSignature,
  refusedCall,
  signBusMessage,
  signReply,
  type SignatureProblem,
} from "./bus/bus-signature.js";
import { describeTool, type Tool, type ToolContext } from "./define-tool.js";
import { Unanswered, clientDialog } from "./client-dialog.js";
import { describeResource, maxCompletionValues, type Completer, type ResourceDefinition } from "./define-resource.js";
import { toErrorBody } from "./error-body.js";
import type { Logger } from "./logger.js";
import type { ToolMetrics } from "./metrics.js";
import { SpanKind, busSpanAttributes, setOutcome, withSpan, type Span } from "./telemetry.js";
import { withCommonVerbs } from "./common-verbs.js";

export interface PromptDefinition extends PromptDescriptor {
  scope: string;
  render: (ctx: ToolContext, args: Record<string, string>) => Promise<unknown>;
  /** Completers by argument name: `completion/complete` for this prompt's arguments. */
  complete?: Record<string, Completer>;
}

export interface ToolHostOptions {
  bus: Bus;
  subjects: Subjects;
  service: string;
  version: string;
  instructions: string;
  /** The service's words for its domain, for the gateway's tool search (contracts' `vocabulary`). */
  vocabulary?: Vocabulary;
  tools: Tool[];
  prompts?: PromptDefinition[];
  resources?: ResourceDefinition[] | undefined;
  log: Logger;
  metrics?: ToolMetrics;
  /** False: the calls are taken in-process only (`call`), nothing is served on the bus (default true). */
  onBus?: boolean;
}

export interface ToolHost {
  catalog: ServiceCatalog;
  /**
   * Runs one call as the bus would once its signature is checked, for trusted in-process callers (benchmarks,
   * tests, the service's own REST routes).
   */
  call(tool: string, args: unknown, principal: Principal): Promise<CallReply>;
  /** Stops taking new calls; in-flight calls finish. */
  stop(): void;
  /** Aborts the calls running here (their signal): for a process whose callers are all gone, as after its HTTP drain. */
  cancelRunning(): void;
}

export function hostTools(options: ToolHostOptions): ToolHost {
  const { bus, subjects, service, log } = options;
  // the key of this service's calls: a process that runs the service holds it (or the master it derives from)
  const key = bus.keys.for(service);
  const tools = new Map(options.tools.map((tool) => [tool.name, tool]));
  const prompts = new Map((options.prompts ?? []).map((prompt) => [prompt.name, prompt]));
  const resources = new Map((options.resources ?? []).map((resource) => [resource.name, resource]));
  const running = new Map<string, AbortController>();
  const catalog: ServiceCatalog = {
    service,
    version: options.version,
    instructions: options.instructions,
    vocabulary: withCommonVerbs(options.vocabulary),
    tools: options.tools.map(describeTool),
    prompts: (options.prompts ?? []).map(({ name, title, description, arguments: args, scope, complete }) => ({
      name,
      scope,
      ...(title ? { title } : {}),
      description,
      arguments: args.map((argument) => (complete?.[argument.name] ? { ...argument, completes: true } : argument)),
    })),
    ...(options.resources?.length ? { resources: options.resources.map(describeResource) } : {}),
  };

  const principals = new PrincipalMemo();
  const callSubject = subjects.call(service);

  function publishProgress(callId: string, update: unknown): void {
    const subject = subjects.progress(service, callId);
    const data = encodeJson(update);
    bus.publish(subject, data, signBusMessage(key, subject, { [Header.callId]: callId }, data));
  }

  async function run(message: BusMessage, span?: Span): Promise<CallReply> {
    const callId = message.headers[Header.callId] ?? randomUUID();
    const controller = new AbortController();
    running.set(callId, controller);
    const deadline = Number(message.headers[Header.deadline] ?? 0);
    const timer = deadline > 0 ? setTimeout(() => controller.abort(), Math.max(0, deadline - Date.now())) : undefined;
    const started = performance.now();
    let label = "?";
    try {
      const principal = principals.parse(message.headers[Header.principal]);
      const transport: Transport = message.headers[Header.transport] === "stdio" ? "stdio" : "http";
      const request = callRequest.parse(decodeJson(message.data));
      const wantsProgress = message.headers[Header.progress] !== undefined;
      const client = request.kind === "tool" || request.kind === "prompt" ? request.client : undefined;
      // a prompt may always ask; a tool only when it says so (its calls then go through the gateway's SDK path)
      const asks = request.kind === "prompt" || (request.kind === "tool" && tools.get(request.tool)?.asks === true);
      const ctx: ToolContext = {
        principal,
        callId,
        transport,
        signal: controller.signal,
        log: log.child({ callId }),
        progress: wantsProgress ? (update) => publishProgress(callId, update) : () => {},
        ...clientDialog(client, asks, (said) => publishProgress(callId, said)),
      };
      label = labelOf(request);
      span?.updateName(`${service} ${label}`).setAttribute("bancada.tool", label);
      if (request.kind === "tool") {
        const { result, content } = await runTool(ctx, request.tool, request.args);
        options.metrics?.observe(label, "ok", performance.now() - started);
        return content?.length ? { ok: true, result, content } : { ok: true, result };
      }
      const result =
        request.kind === "prompt"
          ? await runPrompt(ctx, request.prompt, request.args ?? {})
          : request.kind === "resources"
            ? await resourceOf(ctx, request.resource, "list").list!(ctx, request.cursor)
            : request.kind === "read"
              ? { contents: await resourceOf(ctx, request.resource, "read").read(ctx, request.uri, request.variables) }
              : await runCompletion(ctx, request);
      options.metrics?.observe(label, "ok", performance.now() - started);
      return { ok: true, result };
    } catch (error) {
      if (error instanceof Unanswered) {
        options.metrics?.observe(label, "asked", performance.now() - started);
        return { ok: true, asks: error.questions };
      }
      const body = toErrorBody(error, log, callId);
      options.metrics?.observe(label, body.code, performance.now() - started);
      return { ok: false, error: body };
    } finally {
      clearTimeout(timer);
      running.delete(callId);
    }
  }

  async function runTool(ctx: ToolContext, name: string, args: unknown): Promise<{ result: unknown; content?: ContentBlock[] }> {
    const tool = tools.get(name);
    if (!tool) throw new DomainError(ErrorCode.notFound, `Unknown tool '${name}'.`);
    // checked again whatever the gateway did: a stale catalog or a bug there must not open the data
    const access = authorize(tool, ctx.principal, ctx.transport);
    if (!access.allowed) throw access.error;
    const input = tool.input.parse(args ?? {});
    const result: unknown = tool.output.parse(await tool.handler(ctx, input));
    const content = tool.present?.(result, input);
    return content ? { result, content } : { result };
  }

  /** A resource family of this service the caller may use (its scope; resources only read). */
  function resourceOf(ctx: ToolContext, name: string, use: "list" | "read"): ResourceDefinition {
    const resource = resources.get(name);
    if (!resource || (use === "list" && !resource.list)) throw new DomainError(ErrorCode.notFound, `Unknown resource family '${name}'.`);
    const access = authorize({ scope: resource.scope, writes: false }, ctx.principal, ctx.transport);
    if (!access.allowed) throw access.error;
    return resource;
  }

  async function runCompletion(ctx: ToolContext, request: Extract<CallRequest, { kind: "complete" }>): Promise<unknown> {
    const { target, argument } = request;
    let completer: Completer | undefined;
    if (target.kind === "prompt") {
      const prompt = prompts.get(target.name);
      if (!prompt) throw new DomainError(ErrorCode.notFound, `Unknown prompt '${target.name}'.`);
      const access = authorize({ scope: prompt.scope, writes: false }, ctx.principal, ctx.transport);
      if (!access.allowed) throw access.error;
      completer = prompt.complete?.[argument];
    } else completer = resourceOf(ctx, target.name, "read").complete?.[argument];
    // nothing to offer for an argument nobody completes: an empty completion, as MCP asks
    if (!completer) return { values: [] };
    const completion = await completer(ctx, request.value, request.context);
    const values = completion.values.slice(0, maxCompletionValues);
    const hasMore = completion.hasMore ?? completion.values.length > values.length;
    return { values, ...(completion.total !== undefined ? { total: completion.total } : {}), ...(hasMore ? { hasMore } : {}) };
  }

  async function runPrompt(ctx: ToolContext, name: string, args: Record<string, string>): Promise<unknown> {
    const prompt = prompts.get(name);
    if (!prompt) throw new DomainError(ErrorCode.notFound, `Unknown prompt '${name}'.`);
    const access = authorize({ scope: prompt.scope, writes: false }, ctx.principal, ctx.transport);
    if (!access.allowed) throw access.error;
    return prompt.render(ctx, args);
  }

  const replays = new ReplayGuard();
  /** Why a message on `subject` is refused (logged with the subject and reason, never the body), if it is. */
  function refusal(
    subject: string,
    message: BusMessage,
    problem: SignatureProblem | undefined,
    once: boolean,
  ): SignatureProblem | undefined {
    const callId = message.headers[Header.callId] ?? "";
    if (!problem && once && !replays.firstSighting(callId, Number(message.headers[Header.expires]))) problem = "replayed";
    if (problem) log.warn({ subject, reason: problem, callId }, "refused a bus message not signed by the gateway");
    return problem;
  }

  /** A call in a SERVER span, child of the gateway's bus request span (its `traceparent` header). */
  function answer(message: BusMessage): Promise<BusMessage> {
    const subject = callSubject;
    const callId = message.headers[Header.callId] ?? "";
    const attributes = { ...busSpanAttributes(subject, callId), "bancada.service": service };
    return withSpan(`process ${subject}`, { kind: SpanKind.SERVER, headers: message.headers, attributes }, async (span) => {
      const problem = refusal(subject, message, checkBusSignature(key, subject, message), true);
      // a refusal goes back untagged: only the gateway's own calls get answers it takes
      if (problem) return { data: encodeJson({ ok: false, error: refusedCall(problem).toBody() } satisfies CallReply), headers: {} };
      const reply = await run(message, span);
      setOutcome(span, reply.ok ? "ok" : reply.error.code);
      return tagged(message, reply);
    });
  }

  /** The reply to `request`, tagged for it with this service's key. */
  function tagged(request: BusMessage, reply: CallReply): BusMessage {
    const data = fitForBus(encodeJson(reply));
    return { data, headers: signReply(key, callSubject, request, data) };
  }

  async function callHere(tool: string, args: unknown, principal: Principal): Promise<CallReply> {
    const data = encodeJson({ kind: "tool", tool, args });
    const headers: Record<string, string> = { [Header.principal]: JSON.stringify(principal), [Header.callId]: randomUUID() };
    return run({ data, headers });
  }

  /** The catalog, tagged for the request that asked (its call id and body): a catalog answer cannot be replayed to another. */
  async function catalogAnswer(request: BusMessage): Promise<BusMessage> {
    const data = encodeJson(catalog);
    return { data, headers: signReply(key, subjects.catalog(service), request, data) };
  }

  const admit = (headers: Readonly<Record<string, string>>, announcedBytes: number) =>
    checkBusAnnouncement(key, callSubject, headers, announcedBytes) === undefined;

  const subscriptions: BusSubscription[] =
    options.onBus === false
      ? []
      : [
          bus.serve(callSubject, answer, { queue: subjects.queue(service), admit }),
          bus.serve(subjects.catalog(service), catalogAnswer, { queue: subjects.queue(service) }),
          bus.subscribe(subjects.cancel(service), (message) => {
            const callId = message.headers[Header.callId];
            // a forged cancellation would abort another caller's call; a repeat of a genuine one changes nothing
            const subject = subjects.cancel(service);
            if (callId && running.has(callId) && !refusal(subject, message, checkBusSignature(key, subject, message), false))
              running.get(callId)?.abort();
          }),
        ];
  if (options.onBus === false)
    log.info({ tools: catalog.tools.length }, "tools taken in-process only: another process serves them on the bus");
  else {
    bus.publish(subjects.catalogChanged, encodeJson({ service, version: options.version }));
    log.info({ tools: catalog.tools.length }, "tools served on the bus");
  }

  return {
    catalog,
    call: callHere,
    stop: () => {
      subscriptions.forEach((subscription) => subscription.unsubscribe());
    },
    cancelRunning: () => running.forEach((controller) => controller.abort()),
  };
}

/** How a request is named in spans and metrics: the tool, or the prompt, resource family or completion it serves. */
function labelOf(request: CallRequest): string {
  switch (request.kind) {
    case "tool":
      return request.tool;
    case "prompt":
      return `prompt:${request.prompt}`;
    case "resources":
      return `resources:${request.resource}`;
    case "read":
      return `read:${request.resource}`;
    case "complete":
      return `complete:${request.target.name}`;
  }
}

/**
 * The principal header parsed once per distinct text: one key sends the same header with every call, and its
 * JSON.parse + zod parse cost more than the rest of taking a call. The text is what was signed and checked, so
 * equal texts give equal principals; the parsed objects are frozen, as they are shared between calls.
 */
class PrincipalMemo {
  readonly #parsed = new Map<string, Principal>();

  parse(header: string | undefined): Principal {
    const text = header ?? "null";
    let principal = this.#parsed.get(text);
    if (!principal) {
      const parsed = principalSchema.parse(JSON.parse(text));
      Object.freeze(parsed.scopes);
      if (parsed.allowedBoardIds) Object.freeze(parsed.allowedBoardIds);
      principal = Object.freeze(parsed);
      if (this.#parsed.size >= maxMemoizedPrincipals) this.#parsed.clear();
      this.#parsed.set(text, principal);
    }
    return principal;
  }
}

const maxMemoizedPrincipals = 10_000;

/**
 * The largest answer a tool may give. The bus carries bodies over NATS's max_payload in parts, so this is
 * not the broker's limit but ours: room for the biggest answer a tool gives (exec with two 1 MiB streams, docs/boxes.md#limits) with
 * JSON escaping to spare. A bigger reply becomes a clear error, never a silent drop.
 */
export const maxReplyBytes = 8 * 1024 * 1024;

function fitForBus(data: Uint8Array): Uint8Array {
  if (data.byteLength <= maxReplyBytes) return data;
  return encodeJson({
    ok: false,
    error: {
      code: "payload_too_large",
      message: `The result (${data.byteLength} bytes) is larger than the bus carries (${maxReplyBytes}); ask for less at a time.`,
    },
  } satisfies CallReply);
}
