/**
 * Grants people approve in the console, and how an access token becomes a `Principal`. A grant carries the same
 * limits as an API key (scopes, writes, boards, expiry) within one account and person; its row's id is the
 * principal's `keyId`, so the per-key rate limit and the audit trail apply per grant, and the audit's agent is the
 * client's name. A token is looked up on use (the authorization server's record, then the grant's row), cached a
 * few seconds by SHA-256 of the token: a revoked grant stops working within that time on every replica.
 */
import { createHash, randomUUID } from "node:crypto";
import type Provider from "oidc-provider";
import { z } from "zod";
import type { Principal, Profile } from "@bancada/contracts";
import type { GatewayDb } from "../db/client.js";
import type { OAuthGrant } from "../db/generated/client.js";
import type { KeyOwner } from "../keys/api-keys.js";

export interface ApprovedGrant extends KeyOwner {
  clientId: string;
  clientName: string;
  approvedByKeyId: string;
  scopes: string[];
  allowWrites: boolean;
  allowedBoardIds: string[] | null;
  expiresAt: Date;
}

/** What the console shows of a grant (GET /v1/grants declares it as its answer). */
export const grantView = z.object({
  id: z.string(),
  clientId: z.string(),
  clientName: z.string(),
  scopes: z.array(z.string()),
  allowWrites: z.boolean(),
  allowedBoardIds: z.array(z.string()).nullable(),
  createdAt: z.string(),
  expiresAt: z.string(),
  revokedAt: z.string().nullable(),
  lastUsedAt: z.string().nullable(),
});
export type GrantView = z.infer<typeof grantView>;

interface CacheEntry {
  grant: OAuthGrant | null;
  until: number;
  principals: Partial<Record<Profile, Principal>>;
}

export class GrantStore {
  readonly #db: GatewayDb;
  readonly #cacheMs: number;
  readonly #cache = new Map<string, CacheEntry>();
  readonly #lastTouched = new Map<string, number>();

  constructor(db: GatewayDb, cacheMs = 3_000) {
    this.#db = db;
    this.#cacheMs = cacheMs;
  }

  /** Records an approval: the authorization server's grant (scopes on this gateway's resource) and our row beside it. */
  async approve(provider: Provider, resource: string, input: ApprovedGrant): Promise<string> {
    const expiresIn = Math.max(1, Math.floor((input.expiresAt.getTime() - Date.now()) / 1000));
    const grant = new provider.Grant({ accountId: subjectOf(input), clientId: input.clientId, expiresIn } as {
      accountId: string;
      clientId: string;
    });
    grant.addResourceScope(resource, input.scopes.join(" "));
    const grantId = await grant.save();
    await this.#db.oAuthGrant.create({
      data: {
        id: randomUUID(),
        grantId,
        clientId: input.clientId,
        clientName: input.clientName,
        accountId: input.accountId,
        personId: input.personId,
        approvedByKeyId: input.approvedByKeyId,
        scopes: input.scopes,
        allowWrites: input.allowWrites,
        allowedBoardIds: input.allowedBoardIds ?? [],
        restrictBoards: input.allowedBoardIds !== null,
        expiresAt: input.expiresAt,
      },
    });
    return grantId;
  }

  /** An access token of `resource` as a principal; null when unknown, expired, for another resource, or its grant is revoked. */
  async resolve(provider: Provider, resource: string, token: string, profile: Profile): Promise<Principal | null> {
    if (token.length > 200) return null;
    const digest = createHash("sha256").update(token).digest("hex");
    const now = Date.now();
    let hit = this.#cache.get(digest);
    if (!hit || hit.until <= now) {
      hit = { grant: null, until: now + this.#cacheMs, principals: {} };
      const access = await provider.AccessToken.find(token);
      if (access && !access.isExpired && audienceOf(access.aud).includes(resource) && access.grantId) {
        hit.grant = await this.#db.oAuthGrant.findUnique({ where: { grantId: access.grantId } });
        hit.until = Math.min(hit.until, (access.exp ?? 0) * 1000);
      }
      if (this.#cache.size > 50_000) this.#cache.clear();
      this.#cache.set(digest, hit);
    }
    const { grant } = hit;
    if (!grant || grant.revokedAt || grant.expiresAt.getTime() <= now) return null;
    this.#touch(grant.id, now);
    return (hit.principals[profile] ??= Object.freeze({
      keyId: grant.id,
      accountId: grant.accountId,
      personId: grant.personId,
      agentId: grant.clientName,
      scopes: Object.freeze([...grant.scopes]) as string[],
      allowWrites: grant.allowWrites,
      allowedBoardIds: grant.restrictBoards ? (Object.freeze([...grant.allowedBoardIds]) as string[]) : null,
      profile,
    }));
  }

  async list(owner: KeyOwner): Promise<GrantView[]> {
    const rows = await this.#db.oAuthGrant.findMany({
      where: { accountId: owner.accountId, personId: owner.personId },
      orderBy: [{ createdAt: "desc" }, { id: "asc" }],
    });
    return rows.map(viewOf);
  }

  /** Revokes one of `owner`'s grants and every token of it; false when no such working grant is theirs. */
  async revoke(provider: Provider, id: string, owner: KeyOwner): Promise<boolean> {
    const row = await this.#db.oAuthGrant.findFirst({
      where: { id, accountId: owner.accountId, personId: owner.personId, revokedAt: null },
    });
    if (!row) return false;
    await this.#db.oAuthGrant.update({ where: { id }, data: { revokedAt: new Date() } });
    await provider.Grant.adapter.revokeByGrantId(row.grantId);
    await provider.Grant.adapter.destroy(row.grantId);
    this.#cache.clear();
    return true;
  }

  /** lastUsedAt is written at most once a minute per grant, off the request path. */
  #touch(id: string, now: number): void {
    if ((this.#lastTouched.get(id) ?? 0) > now - 60_000) return;
    this.#lastTouched.set(id, now);
    this.#db.oAuthGrant.update({ where: { id }, data: { lastUsedAt: new Date(now) } }).catch(() => this.#lastTouched.delete(id));
  }
}

/** The authorization server's subject for a person: the account and the person, who are only unique together. */
export function subjectOf(owner: KeyOwner): string {
  return JSON.stringify([owner.accountId, owner.personId]);
}

function audienceOf(aud: unknown): string[] {
  return Array.isArray(aud) ? (aud as string[]) : typeof aud === "string" ? [aud] : [];
}

function viewOf(row: OAuthGrant): GrantView {
  return {
    id: row.id,
    clientId: row.clientId,
    clientName: row.clientName,
    scopes: row.scopes,
    allowWrites: row.allowWrites,
    allowedBoardIds: row.restrictBoards ? row.allowedBoardIds : null,
    createdAt: row.createdAt.toISOString(),
    expiresAt: row.expiresAt.toISOString(),
    revokedAt: row.revokedAt?.toISOString() ?? null,
    lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
  };
}
