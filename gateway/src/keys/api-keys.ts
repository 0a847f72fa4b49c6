/**
 * API keys: random 192-bit secrets shown once, stored as a peppered SHA-256 (a slow hash buys nothing
 * for a random secret of that size, and the lookup stays one index probe). Resolutions are cached for a
 * few seconds: a revoked key stops working within that time on every replica.
 */
import { createHash, randomBytes, randomUUID } from "node:crypto";
import { DomainError, ErrorCode, isScope, type Principal, type Profile } from "@bancada/contracts";
import type { GatewayDb } from "../db/client.js";
import type { ApiKey } from "../db/generated/client.js";

export interface CreateKeyInput {
  accountId: string;
  personId: string;
  agentId: string;
  scopes: string[];
  allowWrites: boolean;
  allowedBoardIds: string[] | null;
  expiresAt?: Date | null;
}

export interface KeyRecord {
  id: string;
  prefix: string;
  accountId: string;
  personId: string;
  agentId: string;
  scopes: string[];
  allowWrites: boolean;
  allowedBoardIds: string[] | null;
  createdAt: string;
  expiresAt: string | null;
  revokedAt: string | null;
  lastUsedAt: string | null;
}

export interface KeyStoreOptions {
  pepper: string;
  cacheMs?: number;
}

export class KeyStore {
  readonly #db: GatewayDb;
  readonly #pepper: string;
  readonly #cacheMs: number;
  readonly #cache = new Map<string, { record: ApiKey | null; until: number }>();
  readonly #lastTouched = new Map<string, number>();

  constructor(db: GatewayDb, options: KeyStoreOptions) {
    this.#db = db;
    this.#pepper = options.pepper;
    this.#cacheMs = options.cacheMs ?? 3_000;
  }

  async create(input: CreateKeyInput): Promise<{ key: string; record: KeyRecord }> {
    const unknown = input.scopes.filter((scope) => !isScope(scope));
    if (unknown.length > 0) throw new DomainError(ErrorCode.invalidArgument, `Unknown scope(s): ${unknown.join(", ")}.`, { unknown });
    for (const [field, value] of Object.entries({ accountId: input.accountId, personId: input.personId, agentId: input.agentId })) {
      if (!value.trim()) throw new DomainError(ErrorCode.invalidArgument, `${field} must not be empty.`);
    }
    const key = `bnc_${randomBytes(24).toString("base64url")}`;
    const row = await this.#db.apiKey.create({
      data: {
        id: randomUUID(),
        prefix: key.slice(0, 12),
        keyHash: this.#hash(key),
        accountId: input.accountId,
        personId: input.personId,
        agentId: input.agentId,
        scopes: [...new Set(input.scopes)],
        allowWrites: input.allowWrites,
        allowedBoardIds: input.allowedBoardIds ?? [],
        restrictBoards: input.allowedBoardIds !== null,
        expiresAt: input.expiresAt ?? null,
      },
    });
    return { key, record: toRecord(row) };
  }

  async list(filter: { accountId?: string } = {}): Promise<KeyRecord[]> {
    const rows = await this.#db.apiKey.findMany({
      where: filter.accountId ? { accountId: filter.accountId } : {},
      orderBy: [{ createdAt: "asc" }, { id: "asc" }],
    });
    return rows.map(toRecord);
  }

  /** Accepts the key's id or its shown prefix. Returns false when nothing matched. */
  async revoke(idOrPrefix: string): Promise<boolean> {
    const isId = /^[0-9a-f-]{36}$/i.test(idOrPrefix);
    const { count } = await this.#db.apiKey.updateMany({
      where: { ...(isId ? { id: idOrPrefix } : { prefix: idOrPrefix }), revokedAt: null },
      data: { revokedAt: new Date() },
    });
    this.#cache.clear();
    return count > 0;
  }

  async resolve(token: string, profile: Profile = "full"): Promise<Principal | null> {
    if (!token.startsWith("bnc_") || token.length > 200) return null;
    const hash = this.#hash(token);
    const now = Date.now();
    let hit = this.#cache.get(hash);
    if (!hit || hit.until <= now) {
      const record = await this.#db.apiKey.findUnique({ where: { keyHash: hash } });
      hit = { record, until: now + this.#cacheMs };
      if (this.#cache.size > 50_000) this.#cache.clear();
      this.#cache.set(hash, hit);
    }
    const record = hit.record;
    if (!record || record.revokedAt || (record.expiresAt && record.expiresAt.getTime() <= now)) return null;
    this.#touch(record.id, now);
    return {
      keyId: record.id,
      accountId: record.accountId,
      personId: record.personId,
      agentId: record.agentId,
      scopes: record.scopes,
      allowWrites: record.allowWrites,
      allowedBoardIds: record.restrictBoards ? record.allowedBoardIds : null,
      profile,
    };
  }

  #hash(key: string): string {
    return createHash("sha256").update(this.#pepper).update(key).digest("hex");
  }

  /** lastUsedAt is written at most once a minute per key, off the request path. */
  #touch(id: string, now: number): void {
    if ((this.#lastTouched.get(id) ?? 0) > now - 60_000) return;
    this.#lastTouched.set(id, now);
    this.#db.apiKey.update({ where: { id }, data: { lastUsedAt: new Date(now) } }).catch(() => this.#lastTouched.delete(id));
  }
}

function toRecord(row: ApiKey): KeyRecord {
  return {
    id: row.id,
    prefix: row.prefix,
    accountId: row.accountId,
    personId: row.personId,
    agentId: row.agentId,
    scopes: row.scopes,
    allowWrites: row.allowWrites,
    allowedBoardIds: row.restrictBoards ? row.allowedBoardIds : null,
    createdAt: row.createdAt.toISOString(),
    expiresAt: row.expiresAt?.toISOString() ?? null,
    revokedAt: row.revokedAt?.toISOString() ?? null,
    lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
  };
}
