/**
 * The MCP server of the gateway (docs/gateway.md#transports), on the official SDK's v2 line: one factory that
 * builds a low-level `Server` for one caller, for either protocol era (2026-07-28 per-request envelopes and
 * 2025-era stateless requests over HTTP; one instance per connection on stdio). The SDK builds an instance
 * per HTTP request, so everything costly (listed tools per access, the handlers, the validator) is made once
 * and the factory only wires it. What tools/list and tools/call answer lives in tool-answers.ts, shared with the
 * HTTP route's fast path (http/mcp-fast-path.ts).
 */
import { randomUUID } from "node:crypto";
import { ProtocolError, type Server, TRACEPARENT_META_KEY, type McpRequestContext, type ServerContext } from "@modelcontextprotocol/server";
import { AjvJsonSchemaValidator } from "@modelcontextprotocol/server/validators/ajv";
import { ErrorCode, permits, type ClientLog, type ClientSide, type ErrorBody, type ProgressUpdate } from "@bancada/contracts";
import type { CallOptions, CallRouter } from "../call-router.js";
import type { Catalog } from "../catalog.js";
import type { Caller } from "./caller.js";
import { invalidParams } from "./request-shape.js";
import { CompletionAnswers } from "./completions.js";
import { ResourceAnswers, resourcesCacheHint } from "./resources.js";
import { ToolAnswers, isAsking, toolsListCacheHint } from "./tool-answers.js";
import { TaskingServer, tasksCapabilities } from "./tasks/task-protocol.js";
import { clientCanAsk, type Confirmations } from "./confirmations.js";
import { askClient, roundOf } from "./questions.js";
import type { LegacySessions } from "./legacy-sessions.js";
import { ResourceSubscriptions, serveSubscriptions } from "./resource-subscriptions.js";
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
  /** Lets 2025-era HTTP requests put questions to their client (legacy-sessions.ts); without it they cannot. */
  sessions?: LegacySessions;
  /** Serves 2025-era resource subscriptions (resource-subscriptions.ts); without it none is offered. */
  subscriptions?: ResourceSubscriptions;
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
        // 2026-07-28 replaced resources/subscribe with subscriptions/listen, which offers no resource updates
        resources: context.era === "legacy" && options.subscriptions ? { subscribe: true } : {},
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
    if (context.era === "legacy" && options.sessions && context.requestInfo)
      askOverHttp(server, options.sessions, caller, context.requestInfo);
    if (context.era === "legacy" && options.subscriptions)
      serveSubscriptions(server, options.subscriptions, caller, subscriptionSession(server, options, caller, context));

    server.setRequestHandler("tools/list", () => ({ tools: answers.list(caller, context.era === "modern") }));
    server.setRequestHandler("tools/call", async (request, ctx) => {
      const { name, arguments: args } = request.params;
      if (!confirmations) return answers.call(caller, name, args, callOptions(caller, ctx));
      const asked = await confirmations.decide(catalog, caller, name, args, ctx, clientCanAsk(ctx, server.getClientCapabilities()));
      if ("ask" in asked) return asked.ask;
      if ("refused" in asked) return answers.refused(name, asked.refused);
      const talks = catalog.tool(calledTool(caller, name, args))?.descriptor;
      if (!talks?.asks && !talks?.logs) return answers.call(caller, name, asked.run, callOptions(caller, ctx));
      // a tool that asks the client or tells it things: its side of the call travels to the service (questions.ts)
      const round = roundOf(ctx, caller, name, args, server.getClientCapabilities(), talks.logs === true);
      if ("refused" in round) return answers.refused(name, round.refused);
      const answer = await answers.callAsking(caller, name, asked.run, {
        ...callOptions(caller, ctx),
        ...clientOptions(round.client, ctx),
      });
      return isAsking(answer) ? askClient(confirmations, round, answer.asks, asked.confirmed === true) : answer;
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
      const { name, arguments: args = {} } = request.params;
      // a prompt may ask the client too (its answers shape the messages), under the same sealed rounds as a tool
      const round = confirmations ? roundOf(ctx, caller, `prompt:${name}`, args, server.getClientCapabilities(), false) : undefined;
      if (round && "refused" in round) throw promptError(round.refused);
      const reply = await router.getPrompt(caller.principal, name, args, {
        ...callOptions(caller, ctx),
        ...(round ? { client: round.client } : {}),
      });
      if (!reply.ok) throw promptError(reply.error);
      if (reply.asks && round && confirmations) return askClient(confirmations, round, reply.asks, false);
      return reply.result as { messages: [] };
    });

    server.setRequestHandler("resources/list", (request, ctx) => resources.list(caller, request.params?.cursor, callOptions(caller, ctx)));
    server.setRequestHandler("resources/templates/list", () => resources.templates(caller));
    server.setRequestHandler("resources/read", (request, ctx) => resources.read(caller, request.params.uri, callOptions(caller, ctx)));
    server.setRequestHandler("completion/complete", (request, ctx) =>
      completions.complete(caller, request.params, callOptions(caller, ctx)),
    );

    if (options.tasks) server.serveTasks({ runner: options.tasks, catalog }, caller, context.era);

    // logging/setLevel is the SDK's own (2025 era): it keeps the level for this connection and applies it to every
    // message a service sends through ctx.mcpReq.log (clientOptions); 2026-07-28 names the level per request
    // Stateless 2025-era HTTP: the cancellation arrives in its own POST, on a Server that never saw the call.
    // (On 2026-07-28 a client cancels by closing the request, which aborts ctx.mcpReq.signal.)
    server.setNotificationHandler("notifications/cancelled", (notification) => {
      if (notification.params.requestId !== undefined) router.cancelClientRequest(caller.principal, notification.params.requestId);
    });
    return server;
  };
}

/**
 * The session a 2025-era Server's subscriptions belong to: a stdio connection is one (its stream is opened here and
 * its subscriptions dropped when it closes); over HTTP the sealed session id's digest, when it verifies.
 */
function subscriptionSession(server: Server, options: McpServerOptions, caller: Caller, context: McpRequestContext): string | undefined {
  const subscriptions = options.subscriptions!;
  if (!context.requestInfo) {
    const session = randomUUID();
    // the connection is the stream: it ends with the process, not before
    const close = subscriptions.open(session, caller.principal.accountId, {
      notify: (uri) => void server.sendResourceUpdated({ uri }).catch(() => {}),
      end: () => {},
    });
    const closed = server.onclose;
    server.onclose = () => {
      close(true);
      closed?.();
    };
    return session;
  }
  const sessionId = context.requestInfo.headers.get("mcp-session-id");
  if (!sessionId || !options.sessions?.capabilities(sessionId, caller.principal.keyId)) return undefined;
  return ResourceSubscriptions.sessionOf(sessionId);
}

/** A 2025-era HTTP request whose session names the client's capabilities may ask the client (legacy-sessions.ts). */
function askOverHttp(server: Server, sessions: LegacySessions, caller: Caller, request: Request): void {
  const capabilities = sessions.capabilities(request.headers.get("mcp-session-id"), caller.principal.keyId);
  if (!capabilities) return;
  const release = sessions.attach(server, caller.principal.keyId, capabilities);
  const closed = server.onclose;
  server.onclose = () => {
    release();
    closed?.();
  };
}

/** The tool a call runs: the named one, or the one call_tool names in the search view. */
function calledTool(caller: Caller, name: string, args: Record<string, unknown> | undefined): string {
  return caller.view === "search" && name === "call_tool" && typeof args?.name === "string" ? args.name : name;
}

/** The client's side of a call, and where the service's log messages for it go (the SDK filters them by level). */
function clientOptions(client: ClientSide, ctx: ServerContext): Pick<CallOptions, "client" | "onLog"> {
  return {
    client,
    ...(client.logLevel ? { onLog: ({ level, data, logger }: ClientLog) => void ctx.mcpReq.log(level, data, logger).catch(() => {}) } : {}),
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
