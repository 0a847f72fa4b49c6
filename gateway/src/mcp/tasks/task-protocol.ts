/**
 * MCP tasks on the wire, in each protocol era (docs/gateway.md#tasks). What differs between the eras is only here;
 * the tasks themselves (task-runner.ts, task-store.ts) are the same.
 *
 * 2025-11-25 (the revision's own tasks): the server advertises `capabilities.tasks` and each tool's
 * `execution.taskSupport`; the client asks for a task with `params.task` on tools/call and gets `{ task }` back;
 * `tasks/get`, `tasks/result` (waits for the end), `tasks/list` and `tasks/cancel`.
 *
 * 2026-07-28 (the `io.modelcontextprotocol/tasks` extension): the server advertises the extension; a request
 * whose client capabilities declare it gets a task for a tool that supports one — the server decides, no hint —
 * as a flat `CreateTaskResult` (`resultType: "task"`); `tasks/get` inlines the result or error, `tasks/cancel`
 * acknowledges with an empty result, `tasks/update` takes input responses (no tool of ours asks for input within a
 * task, so it only acknowledges); `tasks/result` and `tasks/list` do not exist (the SDK answers -32601). Without
 * the extension declared, tasks/* answer -32021 and a tool that runs only as a task refuses the call the same way.
 */
import {
  CLIENT_CAPABILITIES_META_KEY,
  MissingRequiredClientCapabilityError,
  ProtocolError,
  ProtocolErrorCode,
  RELATED_TASK_META_KEY,
  Server,
  TRACEPARENT_META_KEY,
  type JSONRPCRequest,
  type Result,
  type ServerCapabilities,
  type ServerContext,
} from "@modelcontextprotocol/server";
import { z } from "zod";
import { DomainError, authorize } from "@bancada/contracts";
import type { Catalog } from "../../catalog.js";
import type { Caller } from "../caller.js";
import { defaultTtlMs, maxTtlMs, pollIntervalMs, type TaskRunner } from "./task-runner.js";
import { terminalStatuses, type TaskRecord } from "./task-store.js";

export const tasksExtension = "io.modelcontextprotocol/tasks";

export type Era = "legacy" | "modern";

export interface TasksOptions {
  runner: TaskRunner;
  catalog: Catalog;
}

/** What a server advertises for tasks in each era. */
export function tasksCapabilities(era: Era): Partial<ServerCapabilities> {
  if (era === "modern") return { extensions: { [tasksExtension]: {} } };
  return { tasks: { list: {}, cancel: {}, requests: { tools: { call: {} } } } } as Partial<ServerCapabilities>;
}

/** A `Server` whose tools/call may be answered with a task before the SDK's own tools/call handling. */
export class TaskingServer extends Server {
  #startTask: ((request: JSONRPCRequest, ctx: ServerContext) => Promise<Result | undefined>) | undefined;

  /** Registers the tasks/* methods of the era and the task path of tools/call, for one caller. */
  serveTasks(options: TasksOptions, caller: Caller, era: Era): void {
    this.#startTask = (request, ctx) => startTask(options, caller, era, request, ctx);
    if (era === "modern") serveModern(this, options, caller);
    else serveLegacy(this, options, caller);
  }

  // The SDK checks a tools/call result against the tool-result schema, which a task is not: a call that becomes a
  // task is answered here, before that check; every other call goes through it unchanged.
  protected override _wrapHandler(
    method: string,
    handler: (request: JSONRPCRequest, ctx: ServerContext) => Promise<Result>,
  ): (request: JSONRPCRequest, ctx: ServerContext) => Promise<Result> {
    const wrapped = super._wrapHandler(method, handler);
    if (method !== "tools/call") return wrapped;
    return async (request, ctx) => (await this.#startTask?.(request, ctx)) ?? wrapped(request, ctx);
  }
}

const callParams = z.looseObject({
  name: z.string(),
  arguments: z.record(z.string(), z.unknown()).optional(),
  task: z.unknown().optional(),
});
const legacyTaskParam = z.looseObject({ ttl: z.number().int().positive().optional() });

/**
 * A tools/call that becomes a task: the task's CreateTaskResult, an error, or undefined for a plain call. A call
 * the key may not make at all stays a plain call, so that it is refused exactly as it is today.
 */
async function startTask(
  options: TasksOptions,
  caller: Caller,
  era: Era,
  request: JSONRPCRequest,
  ctx: ServerContext,
): Promise<Result | undefined> {
  const params = callParams.safeParse(request.params);
  if (!params.success) return undefined;
  const { name, arguments: args, task } = params.data;
  const descriptor = options.catalog.tool(name)?.descriptor;
  const support = descriptor?.taskSupport;
  if (!descriptor || !authorize(descriptor, caller.principal, caller.transport).allowed) return undefined;

  let ttlMs = defaultTtlMs;
  if (era === "modern") {
    if (!declaresExtension(ctx)) {
      if (support === "required") throw missingExtension(`${name} runs only as a task`);
      return undefined;
    }
    // the legacy `task` hint is tolerated and ignored: the tool's declaration decides
    if (!support) return undefined;
  } else {
    if (task === undefined) {
      if (support === "required")
        throw new ProtocolError(ProtocolErrorCode.MethodNotFound, `${name} runs only as a task: call it with params.task.`);
      return undefined;
    }
    const hint = legacyTaskParam.safeParse(task);
    if (!hint.success)
      throw new ProtocolError(ProtocolErrorCode.InvalidParams, "params.task must be an object with an optional ttl in milliseconds.");
    if (!support)
      throw new ProtocolError(
        ProtocolErrorCode.MethodNotFound,
        `${name} does not run as a task (its execution.taskSupport in tools/list says so): call it without params.task.`,
      );
    if (hint.data.ttl !== undefined) ttlMs = Math.min(Math.max(hint.data.ttl, 1_000), maxTtlMs);
  }

  const traceparent = traceparentOf(ctx);
  let started: TaskRecord;
  try {
    started = await options.runner.start(caller, name, args, ttlMs, traceparent);
  } catch (error) {
    // too many tasks working: a tool error with the envelope, as a rate-limited plain call answers
    if (!(error instanceof DomainError)) throw error;
    const body = { error: error.toBody() };
    return { content: [{ type: "text", text: JSON.stringify(body) }], structuredContent: body, isError: true };
  }
  return era === "modern" ? { resultType: "task", ...modernTask(started) } : { task: legacyTask(started) };
}

function serveModern(server: Server, { runner }: TasksOptions, caller: Caller): void {
  // the extension is checked before the parameters: a client that did not declare it learns that first
  const anyParams = z.looseObject({});
  const taskIdOf = (ctx: ServerContext, method: string, params: Record<string, unknown>): string => {
    if (!declaresExtension(ctx)) throw missingExtension(`${method} belongs to the tasks extension`);
    if (typeof params.taskId !== "string")
      throw new ProtocolError(ProtocolErrorCode.InvalidParams, `${method} needs params.taskId, a string.`);
    return params.taskId;
  };
  const find = async (taskId: string) => (await runner.store.find(caller.principal.keyId, taskId)) ?? unknownTask(taskId);

  server.setRequestHandler("tasks/get", { params: anyParams }, async (params, ctx) =>
    detailedTask(await find(taskIdOf(ctx, "tasks/get", params))),
  );
  server.setRequestHandler("tasks/cancel", { params: anyParams }, async (params, ctx) => {
    const task = await find(taskIdOf(ctx, "tasks/cancel", params));
    // cancelling a finished task is acknowledged the same way: the outcome stays what it was
    if (task.status === "working") await runner.cancel(caller, task.id);
    return {};
  });
  server.setRequestHandler("tasks/update", { params: anyParams }, async (params, ctx) => {
    await find(taskIdOf(ctx, "tasks/update", params));
    // no task of ours waits for input: responses it did not ask for are ignored, as the extension says
    return {};
  });
}

/** tasks/list pages. */
const listPageSize = 50;
const taskIdParams = z.looseObject({ taskId: z.string() });

function serveLegacy(server: Server, { runner }: TasksOptions, caller: Caller): void {
  const { keyId } = caller.principal;
  const find = async (taskId: string) => (await runner.store.find(keyId, taskId)) ?? unknownTask(taskId);

  // the same parameter schemas as the revision's: the SDK names these methods but types no handler for them
  server.setRequestHandler("tasks/get", { params: taskIdParams }, async ({ taskId }) => legacyTask(await find(taskId)));

  server.setRequestHandler("tasks/result", { params: taskIdParams }, async ({ taskId }, ctx) => {
    const task = await untilFinished(runner, keyId, taskId, ctx.mcpReq.signal);
    if (task.status === "failed") throw new ProtocolError(task.error!.code, task.error!.message, task.error!.data);
    if (task.status === "cancelled")
      throw new ProtocolError(ProtocolErrorCode.InvalidRequest, `Task ${task.id} was cancelled before it finished; it has no result.`);
    const result = task.result!;
    return { ...result, _meta: { ...(result._meta as object | undefined), [RELATED_TASK_META_KEY]: { taskId: task.id } } } as Result;
  });

  server.setRequestHandler("tasks/list", { params: z.looseObject({ cursor: z.string().optional() }) }, async ({ cursor }) => {
    if (cursor !== undefined && !(await runner.store.owns(keyId, cursor)))
      throw new ProtocolError(ProtocolErrorCode.InvalidParams, "Unknown cursor: pass the nextCursor of the previous tasks/list answer.");
    const page = await runner.store.list(keyId, listPageSize, cursor);
    return { tasks: page.tasks.map(legacyTask), ...(page.next ? { nextCursor: page.next } : {}) };
  });

  server.setRequestHandler("tasks/cancel", { params: taskIdParams }, async ({ taskId }) => {
    const task = await find(taskId);
    if (task.status !== "working")
      throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Cannot cancel task ${task.id}: it is already ${task.status}.`);
    return legacyTask((await runner.cancel(caller, task.id)) ?? unknownTask(task.id));
  });
}

/** tasks/result waits for the end: the task is read again this often. */
const resultPollMs = 250;

async function untilFinished(runner: TaskRunner, keyId: string, taskId: string, signal: AbortSignal): Promise<TaskRecord> {
  for (;;) {
    const task = (await runner.store.find(keyId, taskId)) ?? unknownTask(taskId);
    if (terminalStatuses.includes(task.status)) return task;
    await new Promise((resolve) => setTimeout(resolve, resultPollMs));
    // the client went away: nobody reads an answer now
    if (signal.aborted) throw new Error("The client stopped waiting for the task's result.");
  }
}

function unknownTask(taskId: string): never {
  // the same answer for a task of another key as for one that never was: whose tasks exist is not said
  throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Unknown task '${taskId}' (or it expired); tasks are kept for their ttl.`);
}

function missingExtension(why: string): MissingRequiredClientCapabilityError {
  return new MissingRequiredClientCapabilityError(
    { requiredCapabilities: { extensions: { [tasksExtension]: {} } } },
    `${why}: declare the ${tasksExtension} extension in the request's client capabilities.`,
  );
}

function declaresExtension(ctx: ServerContext): boolean {
  const envelope = ctx.mcpReq.envelope as Record<string, unknown> | undefined;
  const capabilities = envelope?.[CLIENT_CAPABILITIES_META_KEY] as { extensions?: Record<string, unknown> } | undefined;
  return capabilities?.extensions?.[tasksExtension] !== undefined;
}

function traceparentOf(ctx: ServerContext): string | undefined {
  const fromMeta =
    (ctx.mcpReq.envelope as Record<string, unknown> | undefined)?.[TRACEPARENT_META_KEY] ??
    (ctx.mcpReq._meta as Record<string, unknown> | undefined)?.[TRACEPARENT_META_KEY];
  if (typeof fromMeta === "string") return fromMeta;
  return ctx.http?.req?.headers.get("traceparent") ?? undefined;
}

/** What both eras show of a task; they differ in how they name its lifetime and poll interval. */
function taskFields(task: TaskRecord) {
  return {
    taskId: task.id,
    status: task.status,
    ...(task.statusMessage ? { statusMessage: task.statusMessage } : {}),
    createdAt: task.createdAt.toISOString(),
    lastUpdatedAt: task.updatedAt.toISOString(),
  };
}

/** A task as 2025-11-25 shows it. */
function legacyTask(task: TaskRecord) {
  return { ...taskFields(task), ttl: task.ttlMs, pollInterval: pollIntervalMs };
}

/** A task as the 2026-07-28 extension shows it. */
function modernTask(task: TaskRecord) {
  return { ...taskFields(task), ttlMs: task.ttlMs, pollIntervalMs };
}

/** tasks/get of the extension: the task, with its result or error inlined once it has one. */
function detailedTask(task: TaskRecord) {
  return {
    ...modernTask(task),
    ...(task.status === "completed" && task.result ? { result: task.result } : {}),
    ...(task.status === "failed" && task.error ? { error: task.error } : {}),
  };
}
