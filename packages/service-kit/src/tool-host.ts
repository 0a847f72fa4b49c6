/**
 * Serves a service's tools on the bus: `<root>.<svc>.call` (queue group, one replica answers),
 * `<root>.<svc>.catalog`, and `<root>.<svc>.cancel` (fan-out: the replica running the call aborts it).
 * A call runs only when the gateway signed it (bus-signature.ts): anything else that reaches the bus is refused
 * with `unauthenticated` and logged. Every call is authorized again here (`authorize`, the gateway's own rule)
 * whatever the gateway did: defence in depth.
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
  type Principal,
  type Subjects,
  type Transport,
  type PromptDescriptor,
  type ServiceCatalog,
} from "@bancada/contracts";
import { decodeJson, encodeJson, type Bus, type BusMessage, type BusSubscription } from "./bus/bus.js";
import { ReplayGuard, checkBusSignature, refusedCall, type SignatureProblem } from "./bus/bus-signature.js";
import { describeTool, type Tool, type ToolContext } from "./define-tool.js";
import { toErrorBody } from "./error-body.js";
import type { Logger } from "./logger.js";
import type { ToolMetrics } from "./metrics.js";
import { SpanKind, busSpanAttributes, setOutcome, withSpan, type Span } from "./telemetry.js";

export interface PromptDefinition extends PromptDescriptor {
  scope: string;
  render: (ctx: ToolContext, args: Record<string, string>) => Promise<unknown>;
}

export interface ToolHostOptions {
  bus: Bus;
  subjects: Subjects;
  service: string;
  version: string;
  instructions: string;
  tools: Tool[];
  prompts?: PromptDefinition[];
  log: Logger;
  metrics?: ToolMetrics;
}

export interface ToolHost {
  catalog: ServiceCatalog;
  /** Runs one call as the bus would once its signature is checked, for trusted in-process callers (benchmarks). */
  call(tool: string, args: unknown, principal: Principal): Promise<CallReply>;
  /** Stops taking new calls; in-flight calls finish. */
  stop(): void;
}

export function hostTools(options: ToolHostOptions): ToolHost {
  const { bus, subjects, service, log } = options;
  const tools = new Map(options.tools.map((tool) => [tool.name, tool]));
  const prompts = new Map((options.prompts ?? []).map((prompt) => [prompt.name, prompt]));
  const running = new Map<string, AbortController>();
  const catalog: ServiceCatalog = {
    service,
    version: options.version,
    instructions: options.instructions,
    tools: options.tools.map(describeTool),
    prompts: (options.prompts ?? []).map(({ name, title, description, arguments: args, scope }) => ({
      name,
      scope,
      ...(title ? { title } : {}),
      description,
      arguments: args,
    })),
  };

  async function run(message: BusMessage, span?: Span): Promise<CallReply> {
    const callId = message.headers[Header.callId] ?? randomUUID();
    const controller = new AbortController();
    running.set(callId, controller);
    const deadline = Number(message.headers[Header.deadline] ?? 0);
    const timer = deadline > 0 ? setTimeout(() => controller.abort(), Math.max(0, deadline - Date.now())) : undefined;
    const started = performance.now();
    let label = "?";
    try {
      const principal = principalSchema.parse(JSON.parse(message.headers[Header.principal] ?? "null"));
      const transport: Transport = message.headers[Header.transport] === "stdio" ? "stdio" : "http";
      const request = callRequest.parse(decodeJson(message.data));
      const wantsProgress = message.headers[Header.progress] !== undefined;
      const ctx: ToolContext = {
        principal,
        callId,
        transport,
        signal: controller.signal,
        log: log.child({ callId }),
        progress: wantsProgress ? (update) => bus.publish(subjects.progress(callId), encodeJson(update)) : () => {},
      };
      label = request.kind === "tool" ? request.tool : `prompt:${request.prompt}`;
      span?.updateName(`${service} ${label}`).setAttribute("bancada.tool", label);
      const result =
        request.kind === "tool" ? await runTool(ctx, request.tool, request.args) : await runPrompt(ctx, request.prompt, request.args ?? {});
      options.metrics?.observe(label, "ok", performance.now() - started);
      return { ok: true, result };
    } catch (error) {
      const body = toErrorBody(error, log, callId);
      options.metrics?.observe(label, body.code, performance.now() - started);
      return { ok: false, error: body };
    } finally {
      clearTimeout(timer);
      running.delete(callId);
    }
  }

  async function runTool(ctx: ToolContext, name: string, args: unknown): Promise<unknown> {
    const tool = tools.get(name);
    if (!tool) throw new DomainError(ErrorCode.notFound, `Unknown tool '${name}'.`);
    // checked again whatever the gateway did: a stale catalog or a bug there must not open the data
    const access = authorize(tool, ctx.principal, ctx.transport);
    if (!access.allowed) throw access.error;
    const input = tool.input.parse(args ?? {});
    const result = await tool.handler(ctx, input);
    return tool.output.parse(result);
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
  function refusal(subject: string, message: BusMessage, once: boolean): SignatureProblem | undefined {
    let problem = checkBusSignature(bus.keys, subject, message);
    const callId = message.headers[Header.callId] ?? "";
    if (!problem && once && !replays.firstSighting(callId, Number(message.headers[Header.expires]))) problem = "replayed";
    if (problem) log.warn({ subject, reason: problem, callId }, "refused a bus message not signed by the gateway");
    return problem;
  }

  /** A call in a SERVER span, child of the gateway's bus request span (its `traceparent` header). */
  function answer(message: BusMessage): Promise<CallReply> {
    const subject = subjects.call(service);
    const callId = message.headers[Header.callId] ?? "";
    const attributes = { ...busSpanAttributes(subject, callId), "bancada.service": service };
    return withSpan(`process ${subject}`, { kind: SpanKind.SERVER, headers: message.headers, attributes }, async (span) => {
      const problem = refusal(subject, message, true);
      const reply = problem ? { ok: false as const, error: refusedCall(problem).toBody() } : await run(message, span);
      setOutcome(span, reply.ok ? "ok" : reply.error.code);
      return reply;
    });
  }

  const subscriptions: BusSubscription[] = [
    bus.serve(subjects.call(service), async (message) => ({ data: fitForBus(encodeJson(await answer(message))), headers: {} }), {
      queue: subjects.queue(service),
    }),
    bus.serve(subjects.catalog(service), async () => ({ data: encodeJson(catalog), headers: {} }), {
      queue: subjects.queue(service),
    }),
    bus.subscribe(subjects.cancel(service), (message) => {
      const callId = message.headers[Header.callId];
      // a forged cancellation would abort another caller's call; a repeat of a genuine one changes nothing
      if (callId && running.has(callId) && !refusal(subjects.cancel(service), message, false)) running.get(callId)?.abort();
    }),
  ];
  bus.publish(subjects.catalogChanged, encodeJson({ service, version: options.version }));
  log.info({ tools: catalog.tools.length }, "tools served on the bus");

  return {
    catalog,
    call: (tool, args, principal) =>
      run({
        data: encodeJson({ kind: "tool", tool, args }),
        headers: { [Header.principal]: JSON.stringify(principal), [Header.callId]: randomUUID() },
      }),
    stop: () => {
      subscriptions.forEach((subscription) => subscription.unsubscribe());
    },
  };
}

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
