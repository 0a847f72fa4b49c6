/** The audit trail of tool calls, written in batches off the request path. Never the arguments. */
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
    if (this.#pending.length >= 500) void this.flush();
  }

  flush(): Promise<void> {
    this.#flushing = this.#flushing.then(async () => {
      if (this.#pending.length === 0) return;
      const batch = this.#pending;
      this.#pending = [];
      try {
        await this.#db.toolCall.createMany({ data: batch });
      } catch (error) {
        this.#log.error({ err: error, lost: batch.length }, "audit records could not be written");
      }
    });
    return this.#flushing;
  }

  async stop(): Promise<void> {
    clearInterval(this.#timer);
    await this.flush();
  }
}
