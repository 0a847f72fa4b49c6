/**
 * The two hot requests, a single `tools/call` or `tools/list`, answered without the SDK's per-request machinery
 * (a `Server`, a transport, a web `Request`/`Response`, an SSE stream, zod over the message and the answer; see
 * docs/gateway.md#speed). The answer itself comes from the same `ToolAnswers` the SDK's handlers call, so only the
 * envelope is written here, in the form the SDK writes it for the request's era: 2026-07-28 as JSON, with the
 * tools/list cache hint; 2025-era as one SSE event with the SDK's headers.
 *
 * Only a request this module is sure of is taken: valid as the SDK sees it (its own `classifyInboundRequest` picks
 * the era and checks the envelope and the header/body agreement; the rest is checked here) and needing nothing but a
 * result. Anything else — a request the SDK would refuse, a progressToken (progress needs a stream), a task (asked
 * for in 2025 with `params.task`; in 2026-07-28 a call of a tool that takes tasks from a client that declared the
 * tasks extension; or a tool that runs only as a task), a call that may ask its person for a confirmation (from a
 * 2026-07-28 client that declared elicitation), a tool that may ask its client questions or send it log messages, a batch, a notification, any other method, a header this module does not compare — goes to the SDK unchanged, and
 * the SDK answers it. gateway/test/fast-path.test.ts sends every case both ways and compares the answers.
 *
 * What it reproduces of the SDK (2.4.0), and so what an SDK upgrade must re-check (docs/gateway.md#speed has the
 * checklist): the Streamable HTTP handler's request checks after `classifyInboundRequest` (served revision,
 * Mcp-Method/Mcp-Name agreement, Accept with both media types for 2025, a known MCP-Protocol-Version), the JSON-RPC
 * envelope of a result, the 2026-07-28 result fields (`resultType`, `_meta.serverInfo`, the tools/list cache hint),
 * and the 2025 era's SSE framing with its headers and keep-alive comments.
 */
import type { IncomingHttpHeaders } from "node:http";
import type { Request, Response } from "express";
import {
  CLIENT_CAPABILITIES_META_KEY,
  RELATED_TASK_META_KEY,
  SERVER_INFO_META_KEY,
  SUPPORTED_PROTOCOL_VERSIONS,
  TRACEPARENT_META_KEY,
  classifyInboundRequest,
  isJsonContentType,
  type Tool,
} from "@modelcontextprotocol/server";
import type { Caller } from "../mcp/caller.js";
import { tasksExtension } from "../mcp/tasks/task-protocol.js";
import type { LegacySessions } from "../mcp/legacy-sessions.js";
import { serverInfo, traceparentFrom } from "../mcp/server.js";
import { toolsListCacheHint, type ToolAnswers } from "../mcp/tool-answers.js";

/** The revision served here; a request naming another one goes to the SDK, which answers -32022. */
const modernRevision = "2026-07-28";

export interface FastRequest {
  id: string | number;
  method: "tools/call" | "tools/list";
  modern: boolean;
  /** tools/call only. */
  name: string;
  args: Record<string, unknown> | undefined;
  meta: Record<string, unknown> | undefined;
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);
const header = (headers: IncomingHttpHeaders, name: string): string | undefined => {
  const value = headers[name];
  return typeof value === "string" ? value : undefined;
};
const callKeys = new Set(["name", "arguments", "_meta"]);
const listKeys = new Set(["cursor", "_meta"]);

/** Whether a tool may run as a task, and so whether its calls may become tasks (tasks on): the catalog's word. */
export type TaskSupportOf = (tool: string) => "optional" | "required" | undefined;

/** Whether a call may have to ask the person first (it declares a confirmation and is not confirmed in its arguments). */
export type MayAsk = (tool: string, args: Record<string, unknown> | undefined) => boolean;

/** The request when the fast path may answer it exactly as the SDK would, else undefined (the SDK serves it). */
export function fastRequestOf(
  headers: IncomingHttpHeaders,
  message: unknown,
  taskSupportOf?: TaskSupportOf,
  mayAsk?: MayAsk,
  talks?: MayAsk,
): FastRequest | undefined {
  if (!isObject(message) || (message.method !== "tools/call" && message.method !== "tools/list")) return undefined;
  const { method, params, id } = message;
  if (message.jsonrpc !== "2.0" || !(typeof id === "string" || Number.isSafeInteger(id))) return undefined;
  if (!isJsonContentType(header(headers, "content-type") ?? null)) return undefined;
  if (params !== undefined && !isObject(params)) return undefined;
  if (!Object.keys(params ?? {}).every((key) => (method === "tools/call" ? callKeys : listKeys).has(key))) return undefined;
  const meta = params?._meta;
  if (meta !== undefined && (!isObject(meta) || "progressToken" in meta || RELATED_TASK_META_KEY in meta)) return undefined;
  const name = params?.name;
  const args = params?.arguments;
  if (method === "tools/call" && (typeof name !== "string" || (args !== undefined && !isObject(args)))) return undefined;
  if (method === "tools/list" && params?.cursor !== undefined && typeof params.cursor !== "string") return undefined;
  const taskSupport = method === "tools/call" ? taskSupportOf?.(name as string) : undefined;
  // a task, or the refusal of a call that must be one, is the SDK's to answer (tasks/task-protocol.ts)
  if (taskSupport === "required" || (taskSupport && declaresTasks(meta))) return undefined;
  // a confirmation the client can put to its person is an input_required result: the SDK's (mcp/confirmations.ts)
  if (method === "tools/call" && declaresElicitation(meta) && mayAsk?.(name as string, args as FastRequest["args"])) return undefined;
  // a 2025-era session may say the client can be asked: the SDK asks (a session id that does not verify only costs the fast path)
  if (method === "tools/call" && headers["mcp-session-id"] !== undefined && mayAsk?.(name as string, args as FastRequest["args"]))
    return undefined;
  // a tool that may ask the client questions or send it log messages: input_required results and streams are the SDK's (mcp/questions.ts)
  if (method === "tools/call" && talks?.(name as string, args as FastRequest["args"])) return undefined;

  const versionHeader = header(headers, "mcp-protocol-version");
  const methodHeader = header(headers, "mcp-method");
  const nameHeader = header(headers, "mcp-name");
  const route = classifyInboundRequest({
    httpMethod: "POST",
    body: message,
    ...(versionHeader !== undefined ? { protocolVersionHeader: versionHeader } : {}),
    ...(methodHeader !== undefined ? { mcpMethodHeader: methodHeader } : {}),
    ...(nameHeader !== undefined ? { mcpNameHeader: nameHeader } : {}),
  });
  const request = {
    id: id as string | number,
    method: method as FastRequest["method"],
    name: typeof name === "string" ? name : "",
    args: args as FastRequest["args"],
    meta,
  };
  if (route.kind === "modern") {
    // classifyInboundRequest compared the version and method headers with the body when they are present; the
    // SDK's next rung requires them, and Mcp-Name equal to params.name (a Base64-encoded name goes to the SDK)
    if (route.messageKind !== "request" || route.classification.revision !== modernRevision) return undefined;
    if (versionHeader === undefined || methodHeader === undefined) return undefined;
    if (method === "tools/call" && nameHeader !== name) return undefined;
    return { ...request, modern: true };
  }
  if (route.kind === "legacy" && route.reason === "no-claim") {
    // the SDK's stateless 2025 transport: both media types accepted, a version header it knows or none
    const accept = header(headers, "accept");
    if (!accept?.includes("application/json") || !accept.includes("text/event-stream")) return undefined;
    if (versionHeader !== undefined && !SUPPORTED_PROTOCOL_VERSIONS.includes(versionHeader)) return undefined;
    return { ...request, modern: false };
  }
  return undefined;
}

/** A 2026-07-28 envelope whose client capabilities declare the tasks extension. */
function declaresTasks(meta: Record<string, unknown> | undefined): boolean {
  const capabilities = meta?.[CLIENT_CAPABILITIES_META_KEY];
  return isObject(capabilities) && isObject(capabilities.extensions) && capabilities.extensions[tasksExtension] !== undefined;
}

/** A 2026-07-28 envelope whose client capabilities declare elicitation (a 2025-era request carries none). */
function declaresElicitation(meta: Record<string, unknown> | undefined): boolean {
  const capabilities = meta?.[CLIENT_CAPABILITIES_META_KEY];
  return isObject(capabilities) && capabilities.elicitation !== undefined;
}

export interface FastAnswers {
  answers: ToolAnswers;
  /** The gateway's version, for the `_meta.serverInfo` of 2026-07-28 results. */
  version: string;
  /** The interval of a 2025-era answer stream's keep-alive comments while a call runs (the SDK's option of the same name). */
  keepAliveMs: number;
  /** Set when tasks are served: which calls may become tasks, and so are left to the SDK. */
  taskSupportOf?: TaskSupportOf | undefined;
  /** Set when confirmations are asked: which calls may ask, and so are left to the SDK when the client can answer. */
  mayAsk?: MayAsk | undefined;
  /** Which calls run a tool that asks the client or tells it things (`asks`, `logs`), and so are left to the SDK. */
  talks?: MayAsk | undefined;
  /** Set when 2025-era HTTP clients may be asked (mcp/legacy-sessions.ts); the route uses it before the fast path. */
  sessions?: LegacySessions | undefined;
}

/** Answers a request `fastRequestOf` took. A client that leaves before its answer is written cancels its call. */
export async function serveFast(fast: FastAnswers, caller: Caller, request: FastRequest, req: Request, res: Response): Promise<void> {
  const { answers } = fast;
  let result: string;
  if (request.method === "tools/list") {
    result = withTools(
      answers.list(caller, request.modern),
      request.modern ? toolsListCacheHint : undefined,
      request.modern ? fast.version : undefined,
    );
  } else {
    const aborted = new AbortController();
    res.on("close", () => {
      if (!res.writableFinished) aborted.abort();
    });
    const traceparent = traceparentFrom(request.meta?.[TRACEPARENT_META_KEY], header(req.headers, "traceparent"));
    // a 2025-era answer is a stream: while the call runs, a comment every keepAliveMs keeps proxies from cutting it, as the SDK's does
    const keepAlive = request.modern ? undefined : setInterval(() => keepStreamAlive(res), fast.keepAliveMs).unref();
    try {
      const called = await answers.call(caller, request.name, request.args, {
        transport: caller.transport,
        signal: aborted.signal,
        requestId: request.id,
        ...(traceparent ? { traceparent } : {}),
      });
      result = JSON.stringify(request.modern ? { ...called, ...modernResultFields(fast.version) } : called);
    } finally {
      clearInterval(keepAlive);
    }
  }
  if (res.destroyed) return;
  const json = `{"result":${result},"jsonrpc":"2.0","id":${JSON.stringify(request.id)}}`;
  if (request.modern) {
    res.writeHead(200, { "content-type": "application/json", "content-length": Buffer.byteLength(json) }).end(json);
    return;
  }
  if (!res.headersSent) res.writeHead(200, sseHeaders);
  res.end(`event: message\ndata: ${json}\n\n`);
}

function keepStreamAlive(res: Response): void {
  if (res.destroyed) return;
  if (!res.headersSent) res.writeHead(200, sseHeaders);
  res.write(": keepalive\n\n");
}

/** 2026-07-28 results say they are complete (no input is required) and who answered, as the SDK's do. */
const modernResultFields = (version: string) => ({ resultType: "complete", _meta: { [SERVER_INFO_META_KEY]: serverInfo(version) } });

/**
 * A tools/list result as JSON. The list is the same array for every caller with the same access until the catalog
 * changes (listed-tools.ts), so its JSON (about 64 kB for the 46 tools of the whole catalog listed over HTTP) is written once per array, not per request.
 */
function withTools(tools: readonly Tool[], cacheHint: object | undefined, modernVersion: string | undefined): string {
  let text = toolsJson.get(tools);
  if (text === undefined) {
    text = JSON.stringify(tools);
    toolsJson.set(tools, text);
  }
  const rest = JSON.stringify({ ...cacheHint, ...(modernVersion !== undefined ? modernResultFields(modernVersion) : {}) });
  return rest === "{}" ? `{"tools":${text}}` : `{"tools":${text},${rest.slice(1)}`;
}

const toolsJson = new WeakMap<readonly Tool[], string>();

/** The headers of the SDK's 2025-era answer stream, so that a client or proxy sees no difference. */
const sseHeaders = {
  "content-type": "text/event-stream",
  "cache-control": "no-cache, no-transform",
  connection: "keep-alive",
  "x-accel-buffering": "no",
};
