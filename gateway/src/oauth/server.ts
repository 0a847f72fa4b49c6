/**
 * The gateway as its own authorization server and as the resource server of `/mcp`. The issuer is the public URL
 * from configuration (`BANCADA_PUBLIC_URL`, the Ingress's); without one (the embedded default on 127.0.0.1, tests)
 * it is the origin of the first request that needs it, which the Host guard has already checked.
 */
import type { Request } from "express";
import type Provider from "oidc-provider";
import type { Principal, Profile } from "@bancada/contracts";
import type { GatewayDb } from "../db/client.js";
import { GrantStore } from "./grants.js";
import { createProvider, grantableScopes } from "./provider.js";

export interface OAuthOptions {
  db: GatewayDb;
  secret: string;
  /** Every scope a key may hold (the key store's); a grant may hold them but the key-management ones. */
  scopes: readonly string[];
  /** The public origin clients use (`https://bancada.example`); a trailing slash or `/mcp` is dropped. */
  publicUrl?: string;
  allowPrivateClientDocuments?: boolean;
}

export class OAuthServer {
  readonly grants: GrantStore;
  /** What a grant may hold, and what the consent page offers. */
  readonly scopes: readonly string[];
  readonly #options: OAuthOptions;
  #provider: Provider | undefined;
  #issuer: string | undefined;

  constructor(options: OAuthOptions) {
    this.#options = options;
    this.scopes = grantableScopes(options.scopes);
    this.grants = new GrantStore(options.db);
    if (options.publicUrl) this.#issuer = options.publicUrl.replace(/\/+$/, "").replace(/\/mcp$/, "");
  }

  issuer(req: Request): string {
    return (this.#issuer ??= `${req.protocol}://${req.get("host") ?? "localhost"}`);
  }

  /** The URL clients use for MCP: the one resource every token is bound to. */
  resource(req: Request): string {
    return `${this.issuer(req)}/mcp`;
  }

  provider(req: Request): Provider {
    return (this.#provider ??= createProvider({
      issuer: this.issuer(req),
      secret: this.#options.secret,
      db: this.#options.db,
      scopes: this.scopes,
      ...(this.#options.allowPrivateClientDocuments ? { allowPrivateClientDocuments: true } : {}),
    }));
  }

  /** Protected Resource Metadata (RFC 9728) of `/mcp`. */
  resourceMetadata(req: Request) {
    return {
      resource: this.resource(req),
      authorization_servers: [this.issuer(req)],
      scopes_supported: this.scopes,
      bearer_methods_supported: ["header"],
      resource_name: "Bancada",
      resource_documentation: `${this.issuer(req)}/`,
    };
  }

  /**
   * Where a 401 or 403 of `/mcp` points the client: the root form, which serves the same document as the
   * path-suffixed `/.well-known/oauth-protected-resource/mcp` (`/mcp` is the only resource on this origin).
   */
  resourceMetadataUrl(req: Request): string {
    return `${this.issuer(req)}/.well-known/oauth-protected-resource`;
  }

  /** Deletes expired codes, tokens, sessions and interactions (registered clients have no expiry and stay). */
  async sweep(): Promise<number> {
    const { count } = await this.#options.db.oAuthRecord.deleteMany({ where: { expiresAt: { lt: new Date() } } });
    return count;
  }

  /** Sweeps every `everyMs` (each replica; the statement is the same); returns the stop function. */
  sweepExpired(everyMs = 3_600_000): () => void {
    const timer = setInterval(() => void this.sweep().catch(() => {}), everyMs);
    timer.unref();
    return () => clearInterval(timer);
  }

  resolve(req: Request, token: string, profile: Profile): Promise<Principal | null> {
    return this.grants.resolve(this.provider(req), this.resource(req), token, profile);
  }
}
