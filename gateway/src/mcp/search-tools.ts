/**
 * The `search` view (`?profile=search`, `BANCADA_PROFILE=search`): tools/list holds only `search_tools` and
 * `call_tool`, so a client with a small context pays for two tool schemas instead of the whole catalog.
 * `search_tools` answers the tools this key may call that best match a question; `call_tool` runs one of them
 * through the same router as a direct tools/call (scopes, validation, rate limit, deadline, audit).
 */
import type { Tool } from "@modelcontextprotocol/server";
import { invalidArgument, permits, type ErrorBody, type ToolDescriptor, type ValidationIssue } from "@bancada/contracts";
import type { Catalog, CatalogTool } from "../catalog.js";
import type { Caller } from "./caller.js";
import { ToolRanking } from "./tool-ranking.js";

const defaultLimit = 5;
const maxLimit = 20;
const maxQueryLength = 500;

const readOnly = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false };

const searchTool: Tool = {
  name: "search_tools",
  title: "Search the tools",
  description:
    "Finds the tools this API key may call that best match what you want to do, best first, with each tool's name, description and " +
    'input schema. Describe the action in plain words ("add a task to my board"), then run the tool with call_tool.',
  inputSchema: {
    type: "object",
    properties: {
      query: {
        type: "string",
        minLength: 1,
        maxLength: maxQueryLength,
        description: "What you want to do, in plain words (1 to 500 characters).",
      },
      limit: {
        type: "integer",
        minimum: 1,
        maximum: maxLimit,
        description: `How many tools to return (1 to ${maxLimit}, default ${defaultLimit}).`,
      },
    },
    required: ["query"],
    additionalProperties: false,
  },
  annotations: { title: "Search the tools", ...readOnly },
};

const callTool: Tool = {
  name: "call_tool",
  title: "Call a tool",
  description:
    "Runs one tool found with search_tools, with the same checks and result as calling it directly. Pass its name and its arguments " +
    "as its input schema describes them.",
  inputSchema: {
    type: "object",
    properties: {
      name: { type: "string", minLength: 1, description: "The tool's name, as search_tools returned it." },
      arguments: { type: "object", description: "The tool's arguments (an object, as its input schema describes)." },
    },
    required: ["name"],
    additionalProperties: false,
  },
  // what call_tool does depends on the tool it runs: the client must not assume it only reads
  annotations: { title: "Call a tool", readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
};

/** The one list this view answers (one array, so that its JSON is written once: http/mcp-fast-path.ts). */
const searchList: Tool[] = [searchTool, callTool];

export interface FoundTools {
  tools: { name: string; title?: string; description: string; inputSchema: Record<string, unknown> }[];
}

type Outcome<T> = ({ ok: true } & T) | { ok: false; error: ErrorBody };

export class SearchTools {
  readonly #catalog: Catalog;
  #ranking: ToolRanking | undefined;
  #builtFrom: readonly CatalogTool[] | undefined;

  constructor(catalog: Catalog) {
    this.#catalog = catalog;
  }

  tools(): Tool[] {
    return searchList;
  }

  owns(name: string): boolean {
    return name === searchTool.name || name === callTool.name;
  }

  run(caller: Caller, args: Record<string, unknown> | undefined): Outcome<{ result: FoundTools & Record<string, unknown> }> {
    const issues: ValidationIssue[] = [];
    const query = args?.query;
    const limit = args?.limit ?? defaultLimit;
    if (typeof query !== "string" || query.trim() === "")
      issues.push({ path: "query", message: "required: what you want to do, in plain words" });
    else if (query.length > maxQueryLength) issues.push({ path: "query", message: `must be at most ${maxQueryLength} characters` });
    if (typeof limit !== "number" || !Number.isInteger(limit) || limit < 1 || limit > maxLimit)
      issues.push({ path: "limit", message: `must be an integer from 1 to ${maxLimit}` });
    for (const key of Object.keys(args ?? {}))
      if (key !== "query" && key !== "limit") issues.push({ path: key, message: `unknown field '${key}'` });
    if (issues.length > 0) return { ok: false, error: invalidArgument(issues).toBody() };
    const allowed = (descriptor: ToolDescriptor) => permits(descriptor, caller.principal, caller.transport);
    const found = this.#rankingNow()
      .rank(query as string, allowed, limit as number)
      .map(({ descriptor }) => ({
        name: descriptor.name,
        ...(descriptor.title ? { title: descriptor.title } : {}),
        description: descriptor.description,
        inputSchema: descriptor.inputSchema,
      }));
    return { ok: true, result: { tools: found } };
  }

  /** call_tool's own arguments: the inner tool's name and arguments, or what is wrong with them. */
  callArguments(args: Record<string, unknown> | undefined): Outcome<{ name: string; arguments: Record<string, unknown> }> {
    const name = args?.name;
    const inner = args?.arguments ?? {};
    const issues: ValidationIssue[] = [];
    if (typeof name !== "string" || name === "")
      issues.push({ path: "name", message: "required: the tool's name, as search_tools returned it" });
    if (typeof inner !== "object" || inner === null || Array.isArray(inner))
      issues.push({ path: "arguments", message: "must be an object of the tool's named arguments" });
    for (const key of Object.keys(args ?? {}))
      if (key !== "name" && key !== "arguments") issues.push({ path: key, message: `unknown field '${key}'` });
    if (typeof name === "string" && this.owns(name))
      issues.push({ path: "name", message: "call_tool runs catalog tools, not search_tools or itself" });
    if (issues.length > 0) return { ok: false, error: invalidArgument(issues).toBody() };
    return { ok: true, name: name as string, arguments: inner as Record<string, unknown> };
  }

  #rankingNow(): ToolRanking {
    const tools = this.#catalog.tools();
    if (!this.#ranking || tools !== this.#builtFrom) {
      this.#ranking = new ToolRanking(tools, this.#catalog.instructionsByService(), this.#catalog.vocabularyByService());
      this.#builtFrom = tools;
    }
    return this.#ranking;
  }
}
