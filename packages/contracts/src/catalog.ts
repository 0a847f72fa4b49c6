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
});
export type ToolDescriptor = z.infer<typeof toolDescriptor>;

export const promptDescriptor = z.object({
  name: z.string(),
  /** Only keys with this scope see the prompt. */
  scope: z.string().optional(),
  title: z.string().optional(),
  description: z.string(),
  arguments: z.array(z.object({ name: z.string(), description: z.string().optional(), required: z.boolean().optional() })),
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

export const serviceCatalog = z.object({
  service: z.string(),
  version: z.string(),
  instructions: z.string(),
  tools: z.array(toolDescriptor),
  prompts: z.array(promptDescriptor),
  vocabulary: vocabulary.optional(),
});
export type ServiceCatalog = z.infer<typeof serviceCatalog>;

/** The body of a `<root>.<service>.call` request; the principal travels in a header. */
export const callRequest = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("tool"), tool: z.string(), args: z.unknown() }),
  z.object({ kind: z.literal("prompt"), prompt: z.string(), args: z.record(z.string(), z.string()).optional() }),
]);
export type CallRequest = z.infer<typeof callRequest>;

/** One progress notification of a long call (MCP `notifications/progress` without the token). */
export interface ProgressUpdate {
  progress: number;
  total?: number;
  message?: string;
}

/** Errors travel as data, never as transport failures. */
export type CallReply = { ok: true; result: unknown } | { ok: false; error: ErrorBody };
