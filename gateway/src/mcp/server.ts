/**
 * The MCP server of the gateway (docs/gateway.md#transports), on the official SDK's v2 line: one factory that
 * builds a low-level `Server` for one caller, for either protocol era (2026-07-28 per-request envelopes and
 * 2025-era stateless requests over HTTP; one instance per connection on stdio). The SDK builds an instance
 * per HTTP request, so everything costly (listed tools per access, the handlers, the validator) is made once
 * and the factory only wires it. What tools/list and tools/call answer lives in tool-answers.ts, shared with the
 * HTTP route's fast path (http/mcp-fast-path.ts).
 */
import { ProtocolError, type Server, TRACEPARENT_META_KEY, type McpRequestContext, type ServerContext } from "@modelcontextprotocol/server";
import { AjvJsonSchemaValidator } from "@modelcontextprotocol/server/validators/ajv";
import { ErrorCode, permits, type ErrorBody, type ProgressUpdate } from "@bancada/contracts";
import type { CallOptions, CallRouter } from "../call-router.js";
import type { Catalog } from "../catalog.js";
import type { Caller } from "./caller.js";
import { invalidParams } from "./request-shape.js";
import { CompletionAnswers } from "./completions.js";
import { ResourceAnswers, resourcesCacheHint } from "./resources.js";
import { ToolAnswers, toolsListCacheHint } from "./tool-answers.js";
import { TaskingServer, tasksCapabilities } from "./tasks/task-protocol.js";
import { clientCanAsk, type Confirmations } from "./confirmations.js";
import type { TaskRunner } from "./tasks/task-runner.js";

export interface McpServerOptions {
  catalog: Catalog;
  router: CallRouter;
  /** Advertise output schemas (SOSOAPI_OUTPUT_SCHEMAS=1, docs/gateway.md#catalog). */
  outputSchemas: boolean;
  version: string;
  /** Runs tools/call as MCP tasks (docs/gateway.md#tasks); without it no task is offered. */
  tasks?: TaskRunner;
  /** Asks the person before a call that declares a confirmation (docs/gateway.md#confirmations); without it none is asked. */
  confirmations?: Confirmations;
}

/** How the HTTP route hands the caller to the factory (the SDK passes `authInfo` through untouched). */
export interface CallerAuthInfo {
  token: string;
  clientId: string;
  scopes: string[];
  extra: { caller: Caller };
}

/** One validator for every Server: a new Ajv per request costs ~0.5 ms of CPU (bench/README.md). */
const sharedValidator = new AjvJsonSchemaValidator();

/** How the server names itself, in `initialize`, `server/discover` and every 2026-07-28 result's `_meta`. */
export const serverInfo = (version: string) => ({ name: "bancada", title: "Bancada", version });

export type McpServerFactory = (context: McpRequestContext) => Server;

/**
 * The factory both transports serve from. `fixedCaller` is the stdio key's caller; over HTTP the caller
 * comes from the request's `authInfo`, set by the route after the key check.
 */
export function mcpServerFactory(options: McpServerOptions, fixedCaller?: Caller, answers = new ToolAnswers(options)): McpServerFactory {
  const { catalog, router, confirmations } = options;
  const info = serverInfo(options.version);
  const resources = new ResourceAnswers(catalog, router);
  const completions = new CompletionAnswers(catalog, router, resources);

  return (context) => {
    const caller = fixedCaller ?? (context.authInfo as CallerAuthInfo | undefined)?.extra.caller;
    if (!caller) throw new Error("The MCP route must authenticate the caller before the server is built.");
    const server = new TaskingServer(info, {
      capabilities: {
        tools: { listChanged: caller.transport === "stdio" && !caller.bridged },
        prompts: {},
        resources: {},
        completions: {},
        logging: {},
        ...(options.tasks ? tasksCapabilities(context.era) : {}),
      },
      instructions: catalog.instructions(),
      jsonSchemaValidator: sharedValidator,
      cacheHints: {
        "tools/list": toolsListCacheHint,
        "resources/list": resourcesCacheHint,
        "resources/templates/list": resourcesCacheHint,
        // a resource's content changes under it (a script edited, a file written): never kept, and never shared
        "resources/read": { ttlMs: 0, cacheScope: "private" },
        "prompts/list": resourcesCacheHint,
      },
      // a sealed state that does not verify is refused here, before any handler (-32602)
      ...(confirmations ? { requestState: { verify: confirmations.verify } } : {}),
    });

    server.setRequestHandler("tools/list", () => ({ tools: answers.list(caller, context.era === "modern") }));
    server.setRequestHandler("tools/call", async (request, ctx) => {
      const { name, arguments: args } = request.params;
      if (!confirmations) return answers.call(caller, name, args, callOptions(caller, ctx));
      const asked = await confirmations.decide(catalog, caller, name, args, ctx, clientCanAsk(ctx, server.getClientCapabilities()));
      if ("ask" in asked) return asked.ask;
      if ("refused" in asked) return answers.refused(name, asked.refused);
      return answers.call(caller, name, asked.run, callOptions(caller, ctx));
    });

    server.setRequestHandler("prompts/list", () => ({
      prompts: catalog
        .prompts()
        // A prompt only reads (it guides the agent to tools that are checked on their own), so its scope is all it needs.
        .filter(
          ({ descriptor }) => !descriptor.scope || permits({ scope: descriptor.scope, writes: false }, caller.principal, caller.transport),
        )
        // `completes` is ours (who answers completion/complete), not a field of MCP's prompt arguments
        .map(({ descriptor: { scope: _scope, arguments: args, ...prompt } }) => ({
          ...prompt,
          arguments: args.map(({ completes: _completes, ...argument }) => argument),
        })),
    }));

    server.setRequestHandler("prompts/get", async (request, ctx) => {
      const reply = await router.getPrompt(caller.principal, request.params.name, request.params.arguments ?? {}, callOptions(caller, ctx));
      if (!reply.ok) throw promptError(reply.error);
      return reply.result as { messages: [] };
    });

    server.setRequestHandler("resources/list", (request, ctx) => resources.list(caller, request.params?.cursor, callOptions(caller, ctx)));
    server.setRequestHandler("resources/templates/list", () => resources.templates(caller));
    server.setRequestHandler("resources/read", (request, ctx) => resources.read(caller, request.params.uri, callOptions(caller, ctx)));
    server.setRequestHandler("completion/complete", (request, ctx) =>
      completions.complete(caller, request.params, callOptions(caller, ctx)),
    );

    if (options.tasks) server.serveTasks({ runner: options.tasks, catalog }, caller, context.era);

    server.setRequestHandler("logging/setLevel", () => ({}));
    // Stateless 2025-era HTTP: the cancellation arrives in its own POST, on a Server that never saw the call.
    // (On 2026-07-28 a client cancels by closing the request, which aborts ctx.mcpReq.signal.)
    server.setNotificationHandler("notifications/cancelled", (notification) => {
      if (notification.params.requestId !== undefined) router.cancelClientRequest(caller.principal, notification.params.requestId);
    });
    return server;
  };
}

function callOptions(caller: Caller, ctx: ServerContext): CallOptions {
  const meta = ctx.mcpReq._meta as Record<string, unknown> | undefined;
  const progressToken = meta?.progressToken as string | number | undefined;
  const traceparent = traceparentOf(ctx);
  return {
    transport: caller.transport,
    signal: ctx.mcpReq.signal,
    requestId: ctx.mcpReq.id,
    ...(progressToken !== undefined
      ? {
          onProgress: (update: ProgressUpdate) =>
            void ctx.mcpReq.notify({ method: "notifications/progress", params: { progressToken, ...update } }).catch(() => {}),
        }
      : {}),
    ...(traceparent ? { traceparent } : {}),
  };
}

/** 2026-07-28 carries the trace context in `_meta`; 2025-era clients may send it as an HTTP header. */
function traceparentOf(ctx: ServerContext): string | undefined {
  const fromMeta =
    (ctx.mcpReq.envelope as Record<string, unknown> | undefined)?.[TRACEPARENT_META_KEY] ??
    (ctx.mcpReq._meta as Record<string, unknown> | undefined)?.[TRACEPARENT_META_KEY];
  return traceparentFrom(fromMeta, ctx.http?.req?.headers.get("traceparent"));
}

/** The trace context of a request: its `_meta.traceparent` when it is a string, else the HTTP header's. */
export function traceparentFrom(fromMeta: unknown, fromHeader: string | null | undefined): string | undefined {
  if (typeof fromMeta === "string") return fromMeta;
  return fromHeader ?? undefined;
}

/** A prompt that does not exist or arguments it refuses are the client's mistake: -32602, with the envelope as data. */
function promptError(error: ErrorBody): ProtocolError {
  const clientMistake =
    error.code === ErrorCode.notFound || error.code === ErrorCode.invalidArgument || error.code === ErrorCode.permissionDenied;
  return new ProtocolError(clientMistake ? invalidParams : -32603, error.message, { error });
}
