/**
 * MCP tasks in PostgreSQL (the gateway schema's `mcp_tasks`): every replica reads and writes the same rows, so a
 * task started on one is answered by any, and outlives the replica that started it. Every read and write names the
 * task's key: a task is its key's alone, and another key (or account) finds nothing. Each write is one statement.
 */
import type { Prisma } from "../../db/generated/client.js";
import type { GatewayDb } from "../../db/client.js";

export type TaskStatus = "working" | "completed" | "failed" | "cancelled";

/** A JSON-RPC error, as a failed task carries it. */
export interface TaskError {
  code: number;
  message: string;
  data?: unknown;
}

export interface TaskRecord {
  id: string;
  keyId: string;
  tool: string;
  status: TaskStatus;
  statusMessage: string | null;
  result: Record<string, unknown> | null;
  error: TaskError | null;
  ttlMs: number;
  createdAt: Date;
  updatedAt: Date;
  expiresAt: Date;
}

export interface NewTask {
  id: string;
  keyId: string;
  accountId: string;
  tool: string;
  ttlMs: number;
  replica: string;
}

/** The outcome a finished task is written with. */
export type TaskOutcome =
  | { status: "completed"; result: Record<string, unknown> }
  | { status: "failed"; error: TaskError }
  | { status: "cancelled"; statusMessage: string };

export const terminalStatuses: readonly TaskStatus[] = ["completed", "failed", "cancelled"];

export class TaskStore {
  readonly #db: GatewayDb;

  constructor(db: GatewayDb) {
    this.#db = db;
  }

  async create(task: NewTask, now = new Date()): Promise<TaskRecord> {
    const row = await this.#db.mcpTask.create({
      data: {
        ...task,
        status: "working",
        createdAt: now,
        updatedAt: now,
        heartbeatAt: now,
        expiresAt: new Date(now.getTime() + task.ttlMs),
      },
    });
    return record(row);
  }

  /** The key's task, unless it expired (a row past its time is as good as gone, even before the sweep deletes it). */
  async find(keyId: string, id: string): Promise<TaskRecord | undefined> {
    if (!uuidPattern.test(id)) return undefined;
    const row = await this.#db.mcpTask.findFirst({ where: { id, keyId, expiresAt: { gt: new Date() } } });
    return row ? record(row) : undefined;
  }

  /** One page of the key's live tasks, newest first; `after` is the id of the last task of the page before. */
  async list(keyId: string, limit: number, after?: string): Promise<{ tasks: TaskRecord[]; next?: string }> {
    const where: Prisma.McpTaskWhereInput = { keyId, expiresAt: { gt: new Date() } };
    const rows = await this.#db.mcpTask.findMany({
      where,
      orderBy: [{ createdAt: "desc" }, { id: "desc" }],
      take: limit + 1,
      ...(after ? { cursor: { id: after }, skip: 1 } : {}),
    });
    const tasks = rows.slice(0, limit).map(record);
    return rows.length > limit ? { tasks, next: tasks[tasks.length - 1]!.id } : { tasks };
  }

  /** Whether `after` names one of the key's tasks (a cursor from another key is refused, not followed). */
  async owns(keyId: string, id: string): Promise<boolean> {
    return uuidPattern.test(id) && (await this.#db.mcpTask.count({ where: { id, keyId } })) === 1;
  }

  /** How many of the key's tasks are working, on every replica. */
  async working(keyId: string): Promise<number> {
    return this.#db.mcpTask.count({ where: { keyId, status: "working" } });
  }

  /** Writes the outcome of a task still working; a task already finished (cancelled meanwhile) keeps its own. */
  async finish(id: string, outcome: TaskOutcome): Promise<boolean> {
    const { count } = await this.#db.mcpTask.updateMany({
      where: { id, status: "working" },
      data: {
        status: outcome.status,
        updatedAt: new Date(),
        ...(outcome.status === "completed" ? { result: outcome.result as Prisma.InputJsonValue, statusMessage: null } : {}),
        ...(outcome.status === "failed" ? { error: outcome.error as unknown as Prisma.InputJsonValue } : {}),
        ...(outcome.status === "cancelled" ? { statusMessage: outcome.statusMessage } : {}),
      },
    });
    return count === 1;
  }

  /** Cancels the key's task if it is still working; false when it had already finished (or is not the key's). */
  async cancel(keyId: string, id: string, statusMessage: string): Promise<boolean> {
    const { count } = await this.#db.mcpTask.updateMany({
      where: { id, keyId, status: "working" },
      data: { status: "cancelled", statusMessage, updatedAt: new Date() },
    });
    return count === 1;
  }

  /** What the running call last said of its progress. */
  async report(id: string, statusMessage: string): Promise<void> {
    await this.#db.mcpTask.updateMany({ where: { id, status: "working" }, data: { statusMessage, updatedAt: new Date() } });
  }

  /** The replica waiting for these tasks' answers is alive. */
  async heartbeat(ids: string[]): Promise<void> {
    if (ids.length === 0) return;
    await this.#db.mcpTask.updateMany({ where: { id: { in: ids }, status: "working" }, data: { heartbeatAt: new Date() } });
  }

  /**
   * Fails the working tasks whose replica has not been heard from since `silentSince`: it died or lost the database,
   * and with it the only ear for the service's answer. Returns how many.
   */
  async failOrphans(silentSince: Date, error: TaskError): Promise<number> {
    const { count } = await this.#db.mcpTask.updateMany({
      where: { status: "working", heartbeatAt: { lt: silentSince } },
      data: { status: "failed", error: error as unknown as Prisma.InputJsonValue, updatedAt: new Date() },
    });
    return count;
  }

  /** Fails this replica's own working tasks at once (it is stopping and will hear no answer). */
  async failAll(ids: string[], error: TaskError): Promise<void> {
    if (ids.length === 0) return;
    await this.#db.mcpTask.updateMany({
      where: { id: { in: ids }, status: "working" },
      data: { status: "failed", error: error as unknown as Prisma.InputJsonValue, updatedAt: new Date() },
    });
  }

  /** Forgets tasks past their time to live. */
  async deleteExpired(): Promise<number> {
    const { count } = await this.#db.mcpTask.deleteMany({ where: { expiresAt: { lte: new Date() } } });
    return count;
  }
}

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

function record(row: {
  id: string;
  keyId: string;
  tool: string;
  status: string;
  statusMessage: string | null;
  result: Prisma.JsonValue | null;
  error: Prisma.JsonValue | null;
  ttlMs: number;
  createdAt: Date;
  updatedAt: Date;
  expiresAt: Date;
}): TaskRecord {
  return {
    id: row.id,
    keyId: row.keyId,
    tool: row.tool,
    status: row.status as TaskStatus,
    statusMessage: row.statusMessage,
    result: (row.result as Record<string, unknown> | null) ?? null,
    error: (row.error as unknown as TaskError | null) ?? null,
    ttlMs: row.ttlMs,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
    expiresAt: row.expiresAt,
  };
}
