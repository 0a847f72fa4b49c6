/**
 * The audit trail of tool calls, written in batches off the request path. Never the arguments.
 *
 * A batch is one raw `INSERT … SELECT FROM unnest(…)`: the statement text is the same whatever the batch
 * size, so Postgres and Prisma see one statement (Prisma's `createMany` compiles a new query plan for every
 * batch, which cost more CPU than the calls it recorded: docs/gateway.md#speed). A batch that cannot be written
 * (the database is away) goes back to the front of the queue and is tried again, up to `maxPending` records;
 * `stop` writes what is left.
 */
import type { Logger } from "@bancada/service-kit";
import type { GatewayDb } from "./db/client.js";

export interface AuditEntry {
  at: Date;
  keyId: string;
  accountId: string;
  personId: string;
  agentId: string;
  tool: string;
  outcome: string;
  durationMs: number;
}

/** Records kept while the database does not take them; older ones are dropped (and counted in the log) past this. */
const maxPending = 100_000;
const batchSize = 500;

export class AuditTrail {
  readonly #db: GatewayDb;
  readonly #log: Logger;
  #pending: AuditEntry[] = [];
  #flushing: Promise<void> = Promise.resolve();
  readonly #timer: NodeJS.Timeout;

  constructor(db: GatewayDb, log: Logger, flushMs = 1_000) {
    this.#db = db;
    this.#log = log;
    this.#timer = setInterval(() => void this.flush(), flushMs).unref();
  }

  record(entry: AuditEntry): void {
    this.#pending.push(entry);
    if (this.#pending.length === batchSize) void this.flush();
  }

  flush(): Promise<void> {
    this.#flushing = this.#flushing.then(async () => {
      while (this.#pending.length > 0) {
        const batch = this.#pending.splice(0, batchSize);
        try {
          await this.#write(batch);
        } catch (error) {
          this.#pending.unshift(...batch);
          const lost = Math.max(0, this.#pending.length - maxPending);
          if (lost > 0) this.#pending.splice(0, lost);
          this.#log.error({ err: error, pending: this.#pending.length, lost }, "audit records could not be written; retrying");
          return;
        }
      }
    });
    return this.#flushing;
  }

  async stop(): Promise<void> {
    clearInterval(this.#timer);
    await this.flush();
    if (this.#pending.length > 0) this.#log.error({ lost: this.#pending.length }, "audit records could not be written before stopping");
  }

  #write(batch: AuditEntry[]): Promise<number> {
    const column = <K extends keyof AuditEntry>(key: K) => batch.map((entry) => entry[key]);
    return this.#db.$executeRaw`
      INSERT INTO tool_calls (at, key_id, account_id, person_id, agent_id, tool, outcome, duration_ms)
      SELECT at, key_id, account_id, person_id, agent_id, tool, outcome, duration_ms
      FROM unnest(${batch.map((entry) => entry.at.toISOString())}::timestamptz[], ${column("keyId")}::uuid[],
                  ${column("accountId")}::text[], ${column("personId")}::text[], ${column("agentId")}::text[],
                  ${column("tool")}::text[], ${column("outcome")}::text[], ${column("durationMs")}::int[])
        WITH ORDINALITY AS batch (at, key_id, account_id, person_id, agent_id, tool, outcome, duration_ms, position)
      ORDER BY position`;
  }
}
