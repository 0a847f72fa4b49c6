/**
 * A tool is declared once: this declaration drives the service's validation and checks, the
 * catalog the gateway serves in `tools/list` (JSON Schema made from the zod schemas), and REST parsing.
 */
import { z } from "zod";
import type {
  ClientQuestion,
  ContentBlock,
  LogLevel,
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
  /**
   * Asks the client questions — a form for its person (`elicitation/create`), a completion of its model
   * (`sampling/createMessage`), its roots (`roots/list`) — and gives the answers by question id (MCP's result of
   * each). Until the client has answered, the call ends here with the questions; the client answers and calls
   * again, and the handler runs again from the start with the answers of every round so far (no replica keeps
   * the call waiting, docs/gateway.md#questions). So a handler asks before it changes anything, and asks only
   * what `canAsk` says the client can answer. A tool declares `asks: true`. Without an MCP client on the
   * other end (REST, a task) it fails with `failed_precondition`.
   */
  ask: (questions: Record<string, ClientQuestion>) => Promise<Record<string, unknown>>;
  /** What this call's client can be asked (the capabilities it declared); empty when it cannot be asked anything. */
  canAsk: ReadonlySet<"elicitation" | "sampling" | "roots">;
  /** Sends the client a log message (MCP `notifications/message`) when it asked for that level; a tool declares `logs: true`. */
  tell: (level: LogLevel, data: unknown) => void;
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
  /** The handler asks the client questions (`ctx.ask`); the gateway then serves its calls through the SDK. */
  asks?: boolean;
  /** The handler sends the client log messages (`ctx.tell`); the gateway then serves its calls through the SDK. */
  logs?: boolean;
  /**
   * JSON Schemas to advertise verbatim instead of the ones generated from zod, when a contract gives
   * them exactly (the list tool of docs/drafts.md#tools). The zod schemas must accept and produce the same values; tests check both.
   */
  jsonSchema?: { input?: Record<string, unknown>; output?: Record<string, unknown> };
  handler: (ctx: ToolContext, input: z.output<I>) => Promise<z.input<O>>;
  /**
   * What a person would rather see than the JSON (an image the tool read), as MCP content blocks shown beside the
   * structured result; undefined or empty for nothing more.
   */
  present?: (result: z.output<O>, input: z.output<I>) => ContentBlock[] | undefined;
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
    ...(tool.asks ? { asks: true } : {}),
    ...(tool.logs ? { logs: true } : {}),
  };
}

function jsonSchemaOf(schema: z.ZodType, io: "input" | "output"): Record<string, unknown> {
  const json = z.toJSONSchema(schema, { io, unrepresentable: "any", target: "draft-2020-12" }) as Record<string, unknown>;
  delete json.$schema;
  return json;
}
