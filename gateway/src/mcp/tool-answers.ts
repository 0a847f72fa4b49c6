/**
 * What `tools/list` and `tools/call` answer, for every way a request arrives: the SDK's per-request `Server`
 * (both eras over HTTP, stdio) and the HTTP route's fast path (docs/gateway.md#speed) call the same two methods,
 * so the list, the search view, the result's shape and the error envelope cannot differ between them.
 */
import type { CallToolResult, Tool } from "@modelcontextprotocol/server";
import { DomainError, ErrorCode, type ClientQuestion, type ContentBlock, type ErrorBody } from "@bancada/contracts";
import type { CallOptions, CallRouter } from "../call-router.js";
import type { Catalog } from "../catalog.js";
import { ListedTools } from "./listed-tools.js";
import { SearchTools } from "./search-tools.js";
import type { Caller } from "./caller.js";

export interface ToolAnswersOptions {
  catalog: Catalog;
  router: CallRouter;
  /** Advertise output schemas (SOSOAPI_OUTPUT_SCHEMAS=1, docs/gateway.md#catalog). */
  outputSchemas: boolean;
}

/** Tool-list results may be cached by a client for this long (2026-07-28 `ttlMs`); a key's list rarely changes. */
export const toolsListCacheHint = { ttlMs: 60_000, cacheScope: "private" } as const;

export class ToolAnswers {
  readonly #o: ToolAnswersOptions;
  readonly #listed: ListedTools;
  readonly #search: SearchTools;

  constructor(options: ToolAnswersOptions) {
    this.#o = options;
    this.#listed = new ListedTools(options.catalog, options.outputSchemas);
    this.#search = new SearchTools(options.catalog);
  }

  /**
   * The tools this caller sees: its view of the catalog, or only search_tools and call_tool. A 2025-era list says
   * which tools run as tasks (`execution.taskSupport`); 2026-07-28 has no such field (the tasks extension decides).
   */
  list(caller: Caller, modern = false): Tool[] {
    return caller.view === "search" ? this.#search.tools() : this.#listed.for(caller, modern);
  }

  /** One tools/call; never throws (a failure is an `isError` result carrying the error envelope). */
  async call(caller: Caller, name: string, args: Record<string, unknown> | undefined, options: CallOptions): Promise<CallToolResult> {
    const answer = await this.callAsking(caller, name, args, options);
    // only a call that carried the client's side can be asked questions (the service refuses to ask otherwise)
    return isAsking(answer) ? errorResult(unexpectedQuestions(name), true) : answer;
  }

  /** One tools/call of a tool that may ask the client (`options.client` set): its result, or its questions. */
  async callAsking(caller: Caller, name: string, args: Record<string, unknown> | undefined, options: CallOptions): Promise<ToolAnswer> {
    const search = this.#search;
    if (caller.view === "search" && search.owns(name)) {
      if (name === "search_tools") {
        const found = search.run(caller, args);
        return found.ok ? okResult(found.result) : errorResult(found.error, true);
      }
      const inner = search.callArguments(args);
      if (!inner.ok) return errorResult(inner.error, true);
      return this.#callTool(caller, inner.name, inner.arguments, options);
    }
    return this.#callTool(caller, name, args, options);
  }

  /** A call refused before it reached the router (a declined confirmation), in the same shape as a tool's own error. */
  refused(name: string, error: ErrorBody): CallToolResult {
    return errorResult(error, !this.#schemaAdvertised(name));
  }

  #schemaAdvertised(name: string): boolean {
    return this.#o.outputSchemas && this.#o.catalog.tool(name)?.descriptor.outputSchema !== undefined;
  }

  async #callTool(caller: Caller, name: string, args: unknown, options: CallOptions): Promise<ToolAnswer> {
    const { router } = this.#o;
    if (name.length > maxToolNameLength) return errorResult(nameTooLong(name), true);
    const reply = await router.callTool(caller.principal, name, args, options);
    if (reply.ok && reply.asks) return { asks: reply.asks };
    if (reply.ok) return okResult(reply.result as Record<string, unknown>, reply.content);
    // The error object goes in both places, except where an output schema is advertised: MCP clients check
    // structuredContent against it even on errors (the TS SDK answers -32602 instead of the error), so there
    // the envelope travels as the text alone, which every client shows.
    return errorResult(reply.error, !this.#schemaAdvertised(name));
  }
}

/** A tool's result, or the questions it asks the client before it can answer (mcp/questions.ts). */
export type ToolAnswer = CallToolResult | Asking;
type Asking = { asks: Record<string, ClientQuestion> };

export function isAsking(answer: ToolAnswer): answer is Asking {
  return "asks" in answer && typeof answer.asks === "object" && answer.asks !== null && !("content" in answer);
}

function unexpectedQuestions(name: string): ErrorBody {
  return new DomainError(ErrorCode.internal, `${name} asked the client questions on a call that cannot carry them.`).toBody();
}

/** No tool of ours has a longer name; a longer one is refused before it reaches the router, the audit or a log line. */
const maxToolNameLength = 64;

function nameTooLong(name: string): ErrorBody {
  return new DomainError(
    ErrorCode.invalidArgument,
    `A tool name has at most ${maxToolNameLength} characters (this one has ${name.length}); call tools/list to see the tools this key may use.`,
    { issues: [{ path: "name", message: `at most ${maxToolNameLength} characters` }] },
  ).toBody();
}

/** The JSON as text (what every client shows), then what the tool added for a person to see (an image it read). */
function okResult(result: Record<string, unknown>, added?: ContentBlock[]): CallToolResult {
  const text = { type: "text" as const, text: JSON.stringify(result) };
  return { content: added?.length ? [text, ...added] : [text], structuredContent: result };
}

function errorResult(error: ErrorBody, structured: boolean): CallToolResult {
  const body = { error };
  return { content: [{ type: "text", text: JSON.stringify(body) }], ...(structured ? { structuredContent: body } : {}), isError: true };
}
