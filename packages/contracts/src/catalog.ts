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

export const serviceCatalog = z.object({
  service: z.string(),
  version: z.string(),
  instructions: z.string(),
  tools: z.array(toolDescriptor),
  prompts: z.array(promptDescriptor),
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
