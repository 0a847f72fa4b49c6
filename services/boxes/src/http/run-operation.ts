/**
 * What a REST route runs: the handler of the tool it mirrors (its input, access and longest duration come with it),
 * or — where no tool serves the route — its own operation declared the same way. It runs on whichever replica the
 * request entered, as every call does (one path: domain/box-node.ts reaches the box's node): authorized and parsed
 * here, with the same context a tool call gets. A client that goes away cancels the work as a cancelled call does.
 */
import { randomUUID } from "node:crypto";
import type { Request, Response } from "express";
import type { z } from "zod";
import type { Access } from "@bancada/contracts";
import { authorizedPrincipal, clientDialog, type Tool, type ToolContext } from "@bancada/service-kit";
import type { BoxesRuntime } from "../domain/context.js";

export interface BoxOperation {
  name: string;
  access: Access;
  input: z.ZodType;
  maxDurationMs: number;
  handler: (ctx: ToolContext, input: never) => Promise<unknown>;
}

/** A tool's handler as a REST operation. */
export function toolOperation(tool: Tool): BoxOperation {
  return { name: tool.name, access: tool, input: tool.input, maxDurationMs: tool.maxDurationMs, handler: tool.handler };
}

/** A route's own operation (no tool stands behind it), typed by its input schema. */
export function routeOperation<S extends z.ZodType>(op: {
  name: string;
  access: Access;
  input: S;
  maxDurationMs: number;
  handler: (ctx: ToolContext, input: z.output<S>) => Promise<unknown>;
}): BoxOperation {
  return op as unknown as BoxOperation;
}

/** Runs `op` for the request's caller; the result, or its error thrown (the app's error handler answers it). */
export async function runOperation(rt: BoxesRuntime, req: Request, res: Response, op: BoxOperation, raw: Record<string, unknown>) {
  const principal = authorizedPrincipal(req, op.access);
  const input: unknown = op.input.parse(raw);
  const callId = randomUUID();
  const controller = new AbortController();
  // the operation's longest duration holds here as it does for a tool call
  const timer = setTimeout(() => controller.abort(), op.maxDurationMs);
  res.on("close", () => {
    if (!res.writableFinished) controller.abort();
  });
  const ctx: ToolContext = {
    principal,
    callId,
    transport: "http",
    signal: controller.signal,
    log: rt.log.child({ callId }),
    progress: () => {},
    // a REST call has no MCP client to ask or tell
    ...clientDialog(undefined, false, () => {}),
  };
  try {
    return await op.handler(ctx, input as never);
  } finally {
    clearTimeout(timer);
  }
}
