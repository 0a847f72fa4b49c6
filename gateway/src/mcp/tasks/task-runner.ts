/**
 * Runs a tools/call as a task: writes the task, hands the call to the same `ToolAnswers` a plain call goes through
 * (router, authorization, deadline, audit — nothing is different about the work), and writes its outcome when the
 * answer comes. The work itself runs in the service; this replica only waits for the answer, and says it is alive
 * while it waits. What happens when it dies meanwhile: every replica's sweep fails working tasks whose replica has
 * been silent longer than `orphanAfterMs` (the answer will never be heard; the service's outcome is unknown).
 * Cancellation travels as a client cancellation does (CallRouter.cancelClientRequest), so it reaches the call on
 * whichever replica waits for it, and the service's handler is aborted.
 */
import { randomUUID } from "node:crypto";
import { DomainError, ErrorCode, type ProgressUpdate } from "@bancada/contracts";
import type { Logger } from "@bancada/service-kit";
import type { CallToolResult } from "@modelcontextprotocol/server";
import type { CallRouter } from "../../call-router.js";
import type { Caller } from "../caller.js";
import type { ToolAnswers } from "../tool-answers.js";
import { TaskStore, type TaskError, type TaskOutcome, type TaskRecord } from "./task-store.js";

export interface TaskRunnerOptions {
  store: TaskStore;
  answers: ToolAnswers;
  router: CallRouter;
  log: Logger;
  /** How often this replica says it still waits for its tasks' answers. */
  heartbeatMs?: number;
  /** A working task whose replica was silent this long is failed by the sweep (several heartbeats: a busy database is not a death). */
  orphanAfterMs?: number;
  /** How often the sweep runs (orphans, then expired tasks). */
  sweepMs?: number;
  /** The most tasks one key may have working at once; past it a new one is refused (`rate_limited`). */
  maxWorkingPerKey?: number;
}

/** The longest a task may be kept, and the default when the client names none. */
export const maxTtlMs = 24 * 60 * 60_000;
export const defaultTtlMs = 60 * 60_000;
/** How often a client should poll, as the tasks say (pollInterval / pollIntervalMs). */
export const pollIntervalMs = 1_000;
/** Tasks one key may have working at once, by default. */
const defaultMaxWorkingPerKey = 100;
/** Progress is written to the task at most this often. */
const reportEveryMs = 500;

/** JSON-RPC's internal error: a failed task's code, as a protocol-level failure (not the tool's own error result). */
const internalErrorCode = -32603;

const orphanedError: TaskError = {
  code: internalErrorCode,
  message:
    "The gateway replica that was waiting for this task's answer stopped, so its outcome is unknown; check the result (get_box, job_logs…) or call the tool again, with the same idempotency key for a write.",
  data: { error: { code: ErrorCode.unavailable, message: "gateway replica lost", details: { lost: true } } },
};

export class TaskRunner {
  readonly #o: Required<Omit<TaskRunnerOptions, "store" | "answers" | "router" | "log">> & TaskRunnerOptions;
  readonly #replica = randomUUID();
  /** Tasks this replica waits for, by id. */
  readonly #running = new Map<string, { caller: Caller }>();
  readonly #heartbeat: NodeJS.Timeout;
  readonly #sweep: NodeJS.Timeout;
  #stopped = false;

  constructor(options: TaskRunnerOptions) {
    this.#o = { heartbeatMs: 5_000, orphanAfterMs: 20_000, sweepMs: 5_000, maxWorkingPerKey: defaultMaxWorkingPerKey, ...options };
    this.#heartbeat = setInterval(() => void this.#beat(), this.#o.heartbeatMs).unref();
    this.#sweep = setInterval(() => void this.sweep(), this.#o.sweepMs).unref();
  }

  get store(): TaskStore {
    return this.#o.store;
  }

  /**
   * Writes the task (it is there for tasks/get before this returns), then starts the call without waiting for it.
   * A key with `maxWorkingPerKey` tasks working is refused with `rate_limited`: each holds a call open on the bus.
   * (The count and the insert are two statements: requests racing on several replicas may pass it by a few.)
   */
  async start(
    caller: Caller,
    name: string,
    args: Record<string, unknown> | undefined,
    ttlMs: number,
    traceparent?: string,
  ): Promise<TaskRecord> {
    const { store, log, maxWorkingPerKey } = this.#o;
    if ((await store.working(caller.principal.keyId)) >= maxWorkingPerKey)
      throw new DomainError(
        ErrorCode.rateLimited,
        `This API key has ${maxWorkingPerKey} tasks working, the most it may: wait for one to finish or cancel one (tasks/cancel), then retry.`,
        { retryAfterMs: pollIntervalMs, maxWorkingTasks: maxWorkingPerKey },
      );
    const task = await store.create({
      id: randomUUID(),
      keyId: caller.principal.keyId,
      accountId: caller.principal.accountId,
      tool: name,
      ttlMs,
      replica: this.#replica,
    });
    this.#running.set(task.id, { caller });
    log.info({ taskId: task.id, tool: name, keyId: caller.principal.keyId }, "task started");
    void this.#run(task, caller, name, args, traceparent);
    return task;
  }

  /**
   * Cancels the key's task: marks it cancelled (any replica), then cancels the call wherever it runs.
   * Undefined when the key has no such task.
   */
  async cancel(caller: Caller, id: string): Promise<TaskRecord | undefined> {
    const { store, router, log } = this.#o;
    const cancelled = await store.cancel(caller.principal.keyId, id, "Cancelled by the client.");
    if (cancelled) {
      router.cancelClientRequest(caller.principal, taskRequestId(id));
      log.info({ taskId: id, keyId: caller.principal.keyId }, "task cancelled");
    }
    return store.find(caller.principal.keyId, id);
  }

  /** Fails the orphans of dead replicas and forgets expired tasks; every replica runs it, each statement is idempotent. */
  async sweep(): Promise<void> {
    const { store, log, orphanAfterMs } = this.#o;
    try {
      const orphans = await store.failOrphans(new Date(Date.now() - orphanAfterMs), orphanedError);
      if (orphans > 0) log.warn({ tasks: orphans }, "failed tasks whose gateway replica stopped answering");
      await store.deleteExpired();
    } catch (error) {
      if (!this.#stopped) log.warn({ err: error }, "task sweep failed; retrying at the next one");
    }
  }

  /** Stops hearing answers: this replica's working tasks fail now rather than after the orphan delay. */
  async stop(): Promise<void> {
    this.#stopped = true;
    clearInterval(this.#heartbeat);
    clearInterval(this.#sweep);
    const ids = [...this.#running.keys()];
    this.#running.clear();
    await this.#o.store.failAll(ids, orphanedError).catch(() => {});
  }

  async #run(task: TaskRecord, caller: Caller, name: string, args: Record<string, unknown> | undefined, traceparent?: string) {
    const { answers, store, log } = this.#o;
    const progress = new ProgressReport((message) => store.report(task.id, message));
    let outcome: TaskOutcome;
    try {
      const result = await answers.call(caller, name, args, {
        transport: caller.transport,
        requestId: taskRequestId(task.id),
        onProgress: (update) => progress.update(update),
        ...(traceparent ? { traceparent } : {}),
      });
      outcome = outcomeOf(result);
    } catch (error) {
      log.error({ err: error, taskId: task.id }, "task call failed");
      outcome = {
        status: "failed",
        error: { code: internalErrorCode, message: "The task failed inside the gateway; call the tool again." },
      };
    }
    progress.close();
    if (this.#stopped) return;
    this.#running.delete(task.id);
    try {
      await store.finish(task.id, outcome);
    } catch (error) {
      // the database is away: the task stays working until the sweep fails it as an orphan
      log.error({ err: error, taskId: task.id }, "could not write a task's outcome");
    }
  }

  async #beat(): Promise<void> {
    try {
      await this.#o.store.heartbeat([...this.#running.keys()]);
    } catch (error) {
      this.#o.log.warn({ err: error }, "task heartbeat failed");
    }
  }
}

/** The request id a task's call runs under, so that a cancellation from any replica finds it. */
const taskRequestId = (id: string) => `task:${id}`;

/**
 * A tool that ran and said no (not found, invalid argument…) completed with its error result, as a plain call
 * answers; only an internal error — the service failed, not the request — makes the task failed.
 */
function outcomeOf(result: CallToolResult): TaskOutcome {
  const error = result.isError ? errorOf(result) : undefined;
  if (error?.code === ErrorCode.internal)
    return { status: "failed", error: { code: internalErrorCode, message: error.message, data: { error } } };
  return { status: "completed", result: result as Record<string, unknown> };
}

function errorOf(result: CallToolResult): { code: string; message: string } | undefined {
  const structured = (result.structuredContent as { error?: { code: string; message: string } } | undefined)?.error;
  if (structured) return structured;
  const text = result.content.find((block) => block.type === "text");
  try {
    return text?.type === "text" ? (JSON.parse(text.text) as { error?: { code: string; message: string } }).error : undefined;
  } catch {
    return undefined;
  }
}

/** A call's progress, written to its task as a status message at most every `reportEveryMs` (the last one always). */
class ProgressReport {
  readonly #write: (message: string) => Promise<void>;
  #pending: string | undefined;
  #timer: NodeJS.Timeout | undefined;
  #lastAt = 0;

  constructor(write: (message: string) => Promise<void>) {
    this.#write = write;
  }

  update(update: ProgressUpdate): void {
    const count = update.total !== undefined ? `${update.progress}/${update.total}` : String(update.progress);
    this.#pending = update.message ? `${update.message} (${count})` : count;
    if (this.#timer) return;
    const wait = Math.max(0, this.#lastAt + reportEveryMs - Date.now());
    this.#timer = setTimeout(() => this.#flush(), wait).unref();
  }

  close(): void {
    clearTimeout(this.#timer);
  }

  #flush(): void {
    this.#timer = undefined;
    const message = this.#pending;
    if (message === undefined) return;
    this.#pending = undefined;
    this.#lastAt = Date.now();
    void this.#write(message).catch(() => {});
  }
}
