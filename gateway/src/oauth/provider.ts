/**
 * The authorization server: oidc-provider configured for the MCP authorization profile. Authorization code with
 * PKCE S256 only (the library knows no other method, and every client must use it), refresh tokens rotated on
 * every use (a rotated one presented again revokes the whole grant: the library's rule), revocation (RFC 7009),
 * Dynamic Client Registration (RFC 7591), Client ID Metadata Documents, and resource indicators (RFC 8707): the
 * only resource is this gateway's `/mcp`, and every access token is bound to it.
 *
 * Access tokens are opaque: a resource server that is also the authorization server gains nothing from a JWT, and
 * an opaque token is looked up on every use (through a cache of a few seconds), so a revoked grant stops at once on
 * every replica; its id is stored only as SHA-256 (adapter.ts). The cookie and signing keys derive from the
 * gateway's secret, so every replica signs and reads the same cookies.
 */
import { createECDH, hkdfSync } from "node:crypto";
import Provider, { errors, interactionPolicy, type Configuration, type KoaContextWithOIDC } from "oidc-provider";
import type { GatewayDb } from "../db/client.js";
import { postgresAdapter } from "./adapter.js";
import { refusePrivateAddress } from "./private-address.js";

/** What a grant may hold: every scope but the key-management ones (a token reaches /mcp only, never /v1/keys). */
export const grantableScopes = (scopes: readonly string[]): readonly string[] => scopes.filter((scope) => !scope.startsWith("keys:"));

const accessTokenTtlSeconds = 3_600;
const refreshTokenTtlSeconds = 30 * 86_400;

export interface ProviderOptions {
  /** The public origin (scheme, host, port) clients reach this gateway at: the issuer; `<issuer>/mcp` is the resource. */
  issuer: string;
  /** The gateway's secret (every replica holds the same): cookie and signing keys derive from it. */
  secret: string;
  db: GatewayDb;
  /** The scopes a grant may hold (`grantableScopes`). */
  scopes: readonly string[];
  /** Development only: fetch Client ID Metadata Documents from loopback and private addresses too. */
  allowPrivateClientDocuments?: boolean;
}

/** Where the console's consent page lives; the interaction's API is under it (its cookie's path). */
const consentPath = (uid: string): string => `/oauth/consent/${uid}`;

export function createProvider(options: ProviderOptions): Provider {
  const resource = `${options.issuer}/mcp`;
  const oauthScopes = options.scopes;
  const configuration: Configuration = {
    adapter: postgresAdapter(options.db, derive(options.secret, "bancada oauth client secrets")),
    clients: [],
    scopes: ["offline_access", ...oauthScopes],
    claims: { openid: ["sub"] },
    responseTypes: ["code"],
    pkce: { required: () => true },
    clientDefaults: {
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
      token_endpoint_auth_method: "none",
      id_token_signed_response_alg: "ES256",
    },
    findAccount: (_ctx, sub) => ({ accountId: sub, claims: () => ({ sub }) }),
    interactions: { url: (_ctx, interaction) => consentPath(interaction.uid), policy: consentPolicy() },
    issueRefreshToken: (_ctx, client) => client.grantTypeAllowed("refresh_token"),
    rotateRefreshToken: true,
    ttl: {
      AccessToken: accessTokenTtlSeconds,
      AuthorizationCode: 60,
      RefreshToken: refreshTokenTtlSeconds,
      Interaction: 3_600,
      Session: 14 * 86_400,
      Grant: refreshTokenTtlSeconds,
    },
    cookies: { keys: [derive(options.secret, "bancada oauth cookies").toString("base64url")] },
    jwks: { keys: [signingKey(options.secret)] },
    clientBasedCORS: () => true,
    routes: {
      authorization: "/oauth/authorize",
      token: "/oauth/token",
      registration: "/oauth/register",
      revocation: "/oauth/revoke",
      jwks: "/oauth/jwks",
      end_session: "/oauth/logout",
      userinfo: "/oauth/userinfo",
      introspection: "/oauth/introspect",
      pushed_authorization_request: "/oauth/par",
      code_verification: "/oauth/device",
      device_authorization: "/oauth/device/auth",
      challenge: "/oauth/challenge",
      backchannel_authentication: "/oauth/backchannel",
    },
    features: {
      devInteractions: { enabled: false },
      userinfo: { enabled: false },
      revocation: { enabled: true },
      registration: { enabled: true },
      resourceIndicators: {
        enabled: true,
        defaultResource: () => resource,
        useGrantedResource: () => true,
        getResourceServerInfo: (_ctx, target) => {
          if (target !== resource) throw new errors.InvalidTarget(`This server issues tokens for ${resource} only.`);
          return { scope: oauthScopes.join(" "), audience: resource, accessTokenTTL: accessTokenTtlSeconds, accessTokenFormat: "opaque" };
        },
      },
      clientIdMetadataDocument: {
        enabled: true,
        ack: "draft-02",
        allowFetch: async (_ctx, clientId) =>
          options.allowPrivateClientDocuments === true || !(await refusePrivateAddress(new URL(clientId).hostname)),
        cacheDuration: { min: 300, max: 86_400 },
      },
    },
    ...(options.allowPrivateClientDocuments
      ? {
          // the library pins its own dispatcher that drops connections to special-use addresses: the flag lifts it
          fetch: (url: string | URL | Request, init?: RequestInit) => {
            const { dispatcher: _pinned, ...rest } = (init ?? {}) as RequestInit & { dispatcher?: unknown };
            return fetch(url, rest);
          },
        }
      : {}),
  };
  const provider = new Provider(options.issuer, configuration);
  provider.proxy = true;
  // a client that names no scope asks for whatever the person grants: the consent page offers every scope
  provider.use(async (ctx, next) => {
    if (ctx.path === "/oauth/authorize" && ctx.method === "GET" && !ctx.query.scope)
      ctx.query = { ...ctx.query, scope: oauthScopes.join(" ") };
    await next();
  });
  return provider;
}

/**
 * The console asks every time: a client's authorization request always shows the consent page, whose answer
 * (an approval recorded as a new grant, or a denial) is the only way on. Sign-in is part of that page.
 */
function consentPolicy() {
  const { Check, base } = interactionPolicy;
  const policy = base();
  const consent = policy.get("consent")!;
  consent.checks.clear();
  consent.checks.add(
    new Check("bancada_consent", "the person approves this client in the console", (ctx: KoaContextWithOIDC) =>
      ctx.oidc.result?.consent?.grantId ? Check.NO_NEED_TO_PROMPT : Check.REQUEST_PROMPT,
    ),
  );
  return policy;
}

function derive(secret: string, purpose: string): Buffer {
  return Buffer.from(hkdfSync("sha256", secret, "bancada", purpose, 32));
}

/** One P-256 key every replica derives alike (the library signs nothing a client relies on with opaque tokens). */
function signingKey(secret: string) {
  const ecdh = createECDH("prime256v1");
  const d = derive(secret, "bancada oauth signing key");
  ecdh.setPrivateKey(d);
  const point = ecdh.getPublicKey();
  return {
    kty: "EC",
    crv: "P-256",
    alg: "ES256",
    use: "sig",
    kid: "bancada-1",
    d: d.toString("base64url"),
    x: point.subarray(1, 33).toString("base64url"),
    y: point.subarray(33, 65).toString("base64url"),
  };
}
