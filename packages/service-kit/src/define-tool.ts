/**
 * A tool is declared once: this declaration drives the service's validation and checks, the
 * catalog the gateway serves in `tools/list` (JSON Schema made from the zod schemas), and REST parsing.
 */
import { z } from "zod";
import type {
  ContentBlock,
  Principal,
  Profile,
  ProgressUpdate,
  ToolAnnotations,
  ToolConfirmation,
  ToolDescriptor,
  ToolScope,
  Transport,
} from "@bancada/contracts";
import type { Logger } from "./logger.js";

export interface ToolContext {
  principal: Principal;
  callId: string;
  transport: Transport;
  /** Aborted when the caller goes away or the deadline passes. */
  signal: AbortSignal;
  log: Logger;
  /** Reports progress of a long call; a no-op unless the client asked for progress. */
  progress: (update: ProgressUpdate) => void;
  /** The tool's owner lookup for this call, when it ran on this node before the handler (ToolOwner.found). */
  owner?: ToolOwner;
}

export interface ToolDefinition<I extends z.ZodType, O extends z.ZodType> {
  name: string;
  title?: string;
  description: string;
  input: I;
  output: O;
  annotations: Omit<ToolAnnotations, "title">;
  /** The scope a key must hold, or `noScope` (any key of the account). */
  scope: ToolScope;
  profile?: Profile;
  transports?: Transport[];
  maxDurationMs?: number;
  /**
   * The call may run long, so a client may run it as an MCP task (docs/gateway.md#tasks): "optional" lets the
   * client choose, "required" accepts it only as a task. The gateway runs the task; the handler is the same.
   */
  task?: "optional" | "required";
  /**
   * The call changes something a person would want to approve first (a delete): a client that can ask its person
   * (elicitation) is asked this before the call runs, and a refusal leaves everything as it was. A client that cannot
   * ask gets the tool's own contract (an explicit argument such as `confirm: true`). docs/gateway.md#confirmations.
   */
  confirmation?: ToolConfirmation;
  /**
   * JSON Schemas to advertise verbatim instead of the ones generated from zod, when a contract gives
   * them exactly (the list tool of docs/drafts.md#tools). The zod schemas must accept and produce the same values; tests check both.
   */
  jsonSchema?: { input?: Record<string, unknown>; output?: Record<string, unknown> };
  /**
   * Where the call must run, for a tool acting on something that lives on one machine (a box on its node):
   * the owner of what the input names, found for the caller's principal, or null when any replica may run it.
   * A replica on another node forwards the call there (owner-route.ts). Read only by a host that knows its node.
   */
  owner?: (principal: Principal, input: z.output<I>) => Promise<ToolOwner | null>;
  handler: (ctx: ToolContext, input: z.output<I>) => Promise<z.input<O>>;
  /**
   * What a person would rather see than the JSON (an image the tool read), as MCP content blocks shown beside the
   * structured result; undefined or empty for nothing more.
   */
  present?: (result: z.output<O>, input: z.output<I>) => ContentBlock[] | undefined;
}

/** The node that must run a call, and what lives there, in words for an error message ("box bx_1"). */
export interface ToolOwner {
  node: string;
  what: string;
  /**
   * What the lookup read to find the node (a box's row), handed to the handler as `ctx.owner` when the call runs
   * where it was looked up: a handler that needs the same row then reads it once. Absent on a forwarded call.
   */
  found?: unknown;
}

export interface Tool extends ToolDefinition<z.ZodType, z.ZodType> {
  profile: Profile;
  transports: Transport[];
  maxDurationMs: number;
}

const defaultMaxDurationMs = 30_000;

export function defineTool<I extends z.ZodType, O extends z.ZodType>(definition: ToolDefinition<I, O>): Tool {
  return {
    ...definition,
    profile: definition.profile ?? "full",
    transports: definition.transports ?? ["http", "stdio"],
    maxDurationMs: definition.maxDurationMs ?? defaultMaxDurationMs,
  } as Tool;
}

export function describeTool(tool: Tool): ToolDescriptor {
  return {
    name: tool.name,
    ...(tool.title ? { title: tool.title } : {}),
    description: tool.description,
    inputSchema: tool.jsonSchema?.input ?? jsonSchemaOf(tool.input, "input"),
    outputSchema: tool.jsonSchema?.output ?? jsonSchemaOf(tool.output, "output"),
    annotations: { ...(tool.title ? { title: tool.title } : {}), ...tool.annotations },
    scope: tool.scope,
    profile: tool.profile,
    transports: tool.transports,
    maxDurationMs: tool.maxDurationMs,
    ...(tool.task ? { taskSupport: tool.task } : {}),
    ...(tool.confirmation ? { confirmation: tool.confirmation } : {}),
  };
}

function jsonSchemaOf(schema: z.ZodType, io: "input" | "output"): Record<string, unknown> {
  const json = z.toJSONSchema(schema, { io, unrepresentable: "any", target: "draft-2020-12" }) as Record<string, unknown>;
  delete json.$schema;
  return json;
}
