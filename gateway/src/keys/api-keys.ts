/**
 * API keys: random 192-bit secrets shown once, stored as HMAC-SHA256(pepper, SHA-256(key)) (a slow hash buys
 * nothing for a random secret of that size, and the lookup stays one index probe). Services hold only
 * SHA-256(key) when they ask the gateway to resolve a REST caller, so the key never crosses the bus
 * (`resolveDigest`). Rows from before this scheme hold SHA-256(pepper || key), which SHA-256(key) cannot
 * reach: such a key is rehashed the first time the gateway sees it in clear (`resolve`: MCP, stdio).
 * Resolutions are cached for a few seconds: a revoked key stops working within that time on every replica.
 * The cache is keyed by SHA-256(key), which a request computes anyway, so a cached key costs no HMAC; the
 * principal it resolves to is built once per profile and shared (frozen) by every call of that key until the
 * entry expires. The key itself is never kept.
 */
import { createHash, createHmac, randomBytes, randomUUID } from "node:crypto";
import { apiKeyDigest } from "@bancada/service-kit";
import { DomainError, ErrorCode, type Principal, type Profile } from "@bancada/contracts";
import type { GatewayDb } from "../db/client.js";
import type { ApiKey } from "../db/generated/client.js";

/** Whom a key acts for and what it may do: what a new key is given and a stored one shows. */
interface KeyHolding {
  accountId: string;
  personId: string;
  agentId: string;
  scopes: string[];
  allowWrites: boolean;
  allowedBoardIds: string[] | null;
}

export interface CreateKeyInput extends KeyHolding {
  expiresAt?: Date | null;
}

export interface KeyRecord extends KeyHolding {
  id: string;
  prefix: string;
  createdAt: string;
  expiresAt: string | null;
  revokedAt: string | null;
  lastUsedAt: string | null;
}

/** Whose keys: one person within one account (person ids are the account's own, so both are needed). */
export interface KeyOwner {
  accountId: string;
  personId: string;
}

function ownerWhere(filter: Partial<KeyOwner>): { accountId?: string; personId?: string } {
  return {
    ...(filter.accountId ? { accountId: filter.accountId } : {}),
    ...(filter.accountId && filter.personId ? { personId: filter.personId } : {}),
  };
}

const isKeyId = (text: string): boolean => /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(text);

/** The hash scheme every key is written with now, and the one of rows written before it. */
const currentScheme = "hmac-digest";
const legacyScheme = "pepper-key";

/** The scopes the gateway owns (docs/gateway.md#scopes); every other scope is a service's. */
export const gatewayScopes = ["audit:read", "keys:read", "keys:write"] as const;

export interface KeyStoreOptions {
  pepper: string;
  /**
   * Every scope a key may hold: the services' own (each declares them in its package.json's `"bancada"` block; the
   * command reads them from its services, tests from @bancada/service-registry), with `gatewayScopes` added here.
   */
  serviceScopes: readonly string[];
  cacheMs?: number;
}

export class KeyStore {
  readonly #db: GatewayDb;
  readonly #pepper: string;
  readonly #cacheMs: number;
  /** By SHA-256(key): the row (null: no such key) until `until`, and its principal per profile once built. */
  readonly #cache = new Map<string, { record: ApiKey | null; until: number; principals: Partial<Record<Profile, Principal>> }>();
  readonly #lastTouched = new Map<string, number>();

  /** Every scope a key may hold, the services' first. */
  readonly scopes: readonly string[];

  constructor(db: GatewayDb, options: KeyStoreOptions) {
    this.scopes = Object.freeze([...new Set([...options.serviceScopes, ...gatewayScopes])]);
    this.#db = db;
    this.#pepper = options.pepper;
    this.#cacheMs = options.cacheMs ?? 3_000;
  }

  async create(input: CreateKeyInput): Promise<{ key: string; record: KeyRecord }> {
    const unknown = input.scopes.filter((scope) => !this.scopes.includes(scope));
    if (unknown.length > 0) throw new DomainError(ErrorCode.invalidArgument, `Unknown scope(s): ${unknown.join(", ")}.`, { unknown });
    for (const [field, value] of Object.entries({ accountId: input.accountId, personId: input.personId, agentId: input.agentId })) {
      if (!value.trim()) throw new DomainError(ErrorCode.invalidArgument, `${field} must not be empty.`);
    }
    const key = `bnc_${randomBytes(24).toString("base64url")}`;
    const row = await this.#db.apiKey.create({
      data: {
        id: randomUUID(),
        prefix: key.slice(0, 12),
        keyHash: this.#hash(apiKeyDigest(key)),
        hashScheme: currentScheme,
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

  /** Every key, or those of one account, or (with personId too) one person's keys in one account. */
  async list(filter: KeyOwner | { accountId?: string } = {}): Promise<KeyRecord[]> {
    const rows = await this.#db.apiKey.findMany({
      where: ownerWhere(filter),
      orderBy: [{ createdAt: "asc" }, { id: "asc" }],
    });
    return rows.map(toRecord);
  }

  /** One key by id, only if it belongs to `owner` (else null, whether it exists or not). */
  async get(id: string, owner: KeyOwner): Promise<KeyRecord | null> {
    if (!isKeyId(id)) return null;
    const row = await this.#db.apiKey.findFirst({ where: { id, ...ownerWhere(owner) } });
    return row ? toRecord(row) : null;
  }

  /** Accepts the key's id or its shown prefix; with `owner`, only that person's key. Returns false when nothing matched. */
  async revoke(idOrPrefix: string, owner?: KeyOwner): Promise<boolean> {
    const { count } = await this.#db.apiKey.updateMany({
      where: { ...(isKeyId(idOrPrefix) ? { id: idOrPrefix } : { prefix: idOrPrefix }), revokedAt: null, ...ownerWhere(owner ?? {}) },
      data: { revokedAt: new Date() },
    });
    this.#cache.clear();
    return count > 0;
  }

  /** A key seen in clear: MCP over HTTP or stdio. Rehashes a row still in the old scheme. */
  async resolve(token: string, profile: Profile = "full"): Promise<Principal | null> {
    if (!token.startsWith("bnc_") || token.length > 200) return null;
    const digest = apiKeyDigest(token);
    const hit = await this.#lookup(digest);
    return hit.record ? this.#principal(hit, profile) : this.#upgrade(token, digest, profile);
  }

  /** A key known only by its SHA-256 (hex), as the services send it for REST callers. */
  async resolveDigest(digest: string, profile: Profile = "full"): Promise<Principal | null> {
    if (!/^[0-9a-f]{64}$/.test(digest)) return null;
    return this.#principal(await this.#lookup(digest), profile);
  }

  async #lookup(digest: string) {
    const now = Date.now();
    let hit = this.#cache.get(digest);
    if (!hit || hit.until <= now) {
      const record = await this.#db.apiKey.findUnique({ where: { keyHash: this.#hash(digest) } });
      hit = { record, until: now + this.#cacheMs, principals: {} };
      if (this.#cache.size > 50_000) this.#cache.clear();
      this.#cache.set(digest, hit);
    }
    return hit;
  }

  /** A key unknown under the current scheme: read first, so a made-up key costs one index probe and never a write. */
  async #upgrade(token: string, digest: string, profile: Profile): Promise<Principal | null> {
    const legacyHash = createHash("sha256").update(this.#pepper).update(token).digest("hex");
    const legacy = await this.#db.apiKey.findFirst({ where: { keyHash: legacyHash, hashScheme: legacyScheme }, select: { id: true } });
    if (!legacy) return null;
    const { count } = await this.#db.apiKey.updateMany({
      where: { id: legacy.id, keyHash: legacyHash, hashScheme: legacyScheme },
      data: { keyHash: this.#hash(digest), hashScheme: currentScheme },
    });
    if (count === 0) return null;
    this.#cache.delete(digest);
    return this.resolveDigest(digest, profile);
  }

  #principal(hit: { record: ApiKey | null; principals: Partial<Record<Profile, Principal>> }, profile: Profile): Principal | null {
    const { record } = hit;
    const now = Date.now();
    if (!record || record.revokedAt || (record.expiresAt && record.expiresAt.getTime() <= now)) return null;
    this.#touch(record.id, now);
    return (hit.principals[profile] ??= Object.freeze({
      keyId: record.id,
      accountId: record.accountId,
      personId: record.personId,
      agentId: record.agentId,
      scopes: Object.freeze([...record.scopes]) as string[],
      allowWrites: record.allowWrites,
      allowedBoardIds: record.restrictBoards ? (Object.freeze([...record.allowedBoardIds]) as string[]) : null,
      profile,
    }));
  }

  #hash(digest: string): string {
    return createHmac("sha256", this.#pepper).update(digest).digest("hex");
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
