/** What a service tells the gateway about its tools: the wire form of a tool declaration. */
import { z } from "zod";
import type { ErrorBody } from "./errors.js";

export const toolAnnotations = z.object({
  title: z.string().optional(),
  readOnlyHint: z.boolean(),
  destructiveHint: z.boolean(),
  idempotentHint: z.boolean(),
  openWorldHint: z.boolean(),
});
export type ToolAnnotations = z.infer<typeof toolAnnotations>;

export const toolDescriptor = z.object({
  name: z.string(),
  title: z.string().optional(),
  description: z.string(),
  inputSchema: z.record(z.string(), z.unknown()),
  outputSchema: z.record(z.string(), z.unknown()).optional(),
  annotations: toolAnnotations,
  scope: z.string(),
  profile: z.enum(["core", "full"]),
  transports: z.array(z.enum(["http", "stdio"])),
  /** The longest a call may legitimately take; the gateway adds a margin for its deadline. */
  maxDurationMs: z.number().int().positive(),
  /**
   * Whether a client may run the call as an MCP task (it returns at once; the result is fetched later):
   * "optional" for work that may run long, "required" for work that only runs as a task. Absent: never a task.
   */
  taskSupport: z.enum(["optional", "required"]).optional(),
  confirmation: z
    .object({
      /** The question put to the person; `{name}` stands for the call's argument `name` (docs/gateway.md#confirmations). */
      message: z.string().min(1),
      /** The boolean argument an acceptance sets to true (delete_box's `confirm`); absent when the tool has none. */
      argument: z.string().optional(),
    })
    .optional(),
  /** The handler may ask the client questions (`ctx.ask`: a form, a sampling, its roots) before it answers. */
  asks: z.boolean().optional(),
  /** The handler may send log messages to the client (`ctx.tell`). */
  logs: z.boolean().optional(),
});
export type ToolDescriptor = z.infer<typeof toolDescriptor>;
export type ToolConfirmation = NonNullable<ToolDescriptor["confirmation"]>;

export const promptDescriptor = z.object({
  name: z.string(),
  /** Only keys with this scope see the prompt. */
  scope: z.string().optional(),
  title: z.string().optional(),
  description: z.string(),
  arguments: z.array(
    z.object({
      name: z.string(),
      description: z.string().optional(),
      required: z.boolean().optional(),
      /** The service answers `completion/complete` for this argument. */
      completes: z.boolean().optional(),
    }),
  ),
});
export type PromptDescriptor = z.infer<typeof promptDescriptor>;

/**
 * A service's words for its own domain: concept → the words people use for it ("box" → sandbox, vm, machine). The
 * gateway's tool search reads a question with them when it ranks that service's tools, and with no other service's
 * words, so a service's vocabulary can move only its own tools.
 */
export const vocabulary = z
  .record(z.string().regex(/^[a-z][a-z0-9]*$/), z.array(z.string().regex(/^[a-z][a-z0-9]*$/)).max(64))
  .refine((entries) => Object.keys(entries).length <= 64, "at most 64 concepts");
export type Vocabulary = z.infer<typeof vocabulary>;

/**
 * A family of resources a service serves (MCP resources): every URI matching `uriTemplate` is read by that service.
 * A template of one variable or more is advertised in `resources/templates/list`; `lists` says the service names
 * concrete resources of the family for a caller in `resources/list`; `completes` names the template variables it
 * completes (`completion/complete`). A variable matches one path segment, except one that ends the template, which
 * takes the rest of the URI (a file path in a box).
 */
export const resourceDescriptor = z.object({
  name: z.string(),
  uriTemplate: z.string().min(1),
  title: z.string().optional(),
  description: z.string(),
  mimeType: z.string().optional(),
  /** Only keys with this scope list, read or complete the family. */
  scope: z.string(),
  lists: z.boolean(),
  completes: z.array(z.string()),
});
export type ResourceDescriptor = z.infer<typeof resourceDescriptor>;

export const serviceCatalog = z.object({
  service: z.string(),
  version: z.string(),
  instructions: z.string(),
  tools: z.array(toolDescriptor),
  prompts: z.array(promptDescriptor),
  /** Absent from a service that serves no resources (and from one started before resources existed). */
  resources: z.array(resourceDescriptor).optional(),
  vocabulary: vocabulary.optional(),
});
export type ServiceCatalog = z.infer<typeof serviceCatalog>;

/** What `completion/complete` completes: a prompt's argument or a resource family's template variable. */
export const completionTarget = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("prompt"), name: z.string() }),
  z.object({ kind: z.literal("resource"), name: z.string() }),
]);
export type CompletionTarget = z.infer<typeof completionTarget>;

/** The MCP log levels, least severe first. */
export const logLevels = ["debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"] as const;
export type LogLevel = (typeof logLevels)[number];

/** What a client can be asked (the client capability each of MCP's embedded requests needs). */
const askKinds = ["elicitation", "sampling", "roots"] as const;

/**
 * A question a handler puts to the client: one of MCP's embedded requests of an `input_required` result
 * (`elicitation/create`, `sampling/createMessage`, `roots/list`), with its params as MCP defines them.
 */
export interface ClientQuestion {
  method: "elicitation/create" | "sampling/createMessage" | "roots/list";
  params?: Record<string, unknown>;
}

/**
 * The client's side of an MCP call, carried to the service (absent on REST and task calls): what it can be asked,
 * its answers so far by question id (every round of this call: the handler runs again from the start with them),
 * and the least severe log level it wants (absent: no log messages).
 */
const clientSide = z.object({
  can: z.array(z.enum(askKinds)),
  answers: z.record(z.string(), z.unknown()),
  logLevel: z.enum(logLevels).optional(),
});
export type ClientSide = z.infer<typeof clientSide>;

/** The body of a `<root>.<service>.call` request; the principal travels in a header. */
export const callRequest = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("tool"), tool: z.string(), args: z.unknown(), client: clientSide.optional() }),
  z.object({
    kind: z.literal("prompt"),
    prompt: z.string(),
    args: z.record(z.string(), z.string()).optional(),
    client: clientSide.optional(),
  }),
  /** One page of a resource family's resources for the caller (`cursor` is the service's own, opaque). */
  z.object({ kind: z.literal("resources"), resource: z.string(), cursor: z.string().optional() }),
  /** One resource of a family, by URI, with the template's variables already matched by the gateway. */
  z.object({
    kind: z.literal("read"),
    resource: z.string(),
    uri: z.string(),
    variables: z.record(z.string(), z.string()),
  }),
  z.object({
    kind: z.literal("complete"),
    target: completionTarget,
    argument: z.string(),
    value: z.string(),
    /** The other arguments or variables already chosen (a task's board before its task). */
    context: z.record(z.string(), z.string()),
  }),
]);
export type CallRequest = z.infer<typeof callRequest>;

/** One progress notification of a long call (MCP `notifications/progress` without the token). */
export interface ProgressUpdate {
  progress: number;
  total?: number;
  message?: string;
}

/**
 * Errors travel as data, never as transport failures. A tool may add `content`: MCP content blocks a person would
 * rather see than the JSON (an image it read), shown beside the structured result. A handler that needs the
 * client's answers first replies with its questions (`asks`, by question id) instead of a result; only a call that
 * carried `client` gets such a reply.
 */
export type CallReply =
  | { ok: true; result: unknown; content?: ContentBlock[]; asks?: undefined }
  | { ok: true; asks: Record<string, ClientQuestion>; result?: undefined; content?: undefined }
  | { ok: false; error: ErrorBody };

/** One log message a handler sends its client during a call (MCP `notifications/message`). */
export interface ClientLog {
  level: LogLevel;
  data: unknown;
  logger?: string;
}

/** An MCP content block a tool adds to its result (the JSON text block is always there). */
export const contentBlock = z.discriminatedUnion("type", [
  z.object({ type: z.literal("text"), text: z.string() }),
  z.object({ type: z.literal("image"), data: z.string(), mimeType: z.string() }),
  z.object({ type: z.literal("audio"), data: z.string(), mimeType: z.string() }),
  z.object({
    type: z.literal("resource_link"),
    uri: z.string(),
    name: z.string(),
    mimeType: z.string().optional(),
    description: z.string().optional(),
  }),
  z.object({
    type: z.literal("resource"),
    resource: z.union([
      z.object({ uri: z.string(), mimeType: z.string().optional(), text: z.string() }),
      z.object({ uri: z.string(), mimeType: z.string().optional(), blob: z.string() }),
    ]),
  }),
]);
export type ContentBlock = z.infer<typeof contentBlock>;

/** What a service answers for one resource read: MCP resource contents. */
export const resourceContents = z.union([
  z.object({ uri: z.string(), mimeType: z.string().optional(), text: z.string() }),
  z.object({ uri: z.string(), mimeType: z.string().optional(), blob: z.string() }),
]);
export type ResourceContents = z.infer<typeof resourceContents>;

/** One resource a family lists for a caller (MCP `Resource`). */
export const listedResource = z.object({
  uri: z.string(),
  name: z.string(),
  title: z.string().optional(),
  description: z.string().optional(),
  mimeType: z.string().optional(),
  size: z.number().int().nonnegative().optional(),
});
export type ListedResource = z.infer<typeof listedResource>;
