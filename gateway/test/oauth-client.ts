/**
 * An OAuth client for the tests: the SDK's `OAuthClientProvider` contract kept in memory (both SDK lines take the
 * same shape), and a person's browser reduced to HTTP with a cookie jar: open the authorization URL, read the
 * consent page's details, approve or deny with a key, follow the redirects back to the client's redirect URI.
 */
import { createHash, randomBytes } from "node:crypto";

export interface Tokens {
  access_token: string;
  token_type: string;
  refresh_token?: string;
  expires_in?: number;
  scope?: string;
}

export class MemoryOAuthClient {
  readonly redirectUrl: string;
  authorizationUrl: URL | undefined;
  #client: Record<string, unknown> | undefined;
  #tokens: Tokens | undefined;
  #verifier = "";
  readonly #metadata: Record<string, unknown>;
  readonly clientMetadataUrl: string | undefined;

  constructor(options: { name?: string; redirectUrl?: string; scope?: string; clientMetadataUrl?: string } = {}) {
    this.redirectUrl = options.redirectUrl ?? "http://127.0.0.1:9/callback";
    this.clientMetadataUrl = options.clientMetadataUrl;
    this.#metadata = {
      client_name: options.name ?? "Test Agent",
      redirect_uris: [this.redirectUrl],
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
      token_endpoint_auth_method: "none",
      ...(options.scope ? { scope: options.scope } : {}),
    };
  }
  get clientMetadata() {
    return this.#metadata as never;
  }
  clientInformation() {
    return this.#client as never;
  }
  saveClientInformation(info: Record<string, unknown>) {
    this.#client = info;
  }
  tokens() {
    return this.#tokens as never;
  }
  saveTokens(tokens: Tokens) {
    this.#tokens = tokens;
  }
  redirectToAuthorization(url: URL) {
    this.authorizationUrl = url;
  }
  saveCodeVerifier(verifier: string) {
    this.#verifier = verifier;
  }
  codeVerifier() {
    return this.#verifier;
  }
  get savedTokens(): Tokens | undefined {
    return this.#tokens;
  }
  get clientId(): string | undefined {
    return this.#client?.client_id as string | undefined;
  }
}

/** A browser without a screen: cookies per path, redirects followed by hand. */
export class CookieBrowser {
  readonly #cookies = new Map<string, { value: string; path: string }>();

  async get(url: string, headers: Record<string, string> = {}): Promise<Response> {
    return this.request(url, { method: "GET", headers });
  }

  async request(url: string, init: { method: string; headers?: Record<string, string>; body?: string }): Promise<Response> {
    const target = new URL(url);
    const cookie = [...this.#cookies.entries()]
      .filter(([, c]) => target.pathname.startsWith(c.path))
      .map(([name, c]) => `${name}=${c.value}`)
      .join("; ");
    const response = await fetch(url, {
      ...init,
      redirect: "manual",
      headers: { ...(init.headers ?? {}), ...(cookie ? { cookie } : {}) },
    });
    for (const line of response.headers.getSetCookie()) {
      const [pair, ...attributes] = line.split(";").map((part) => part.trim());
      const [name, ...rest] = pair!.split("=");
      const path = attributes.find((a) => a.toLowerCase().startsWith("path="))?.slice(5) ?? "/";
      const expired = attributes.some((a) => /^expires=/i.test(a) && Date.parse(a.slice(8)) < Date.now());
      if (expired) this.#cookies.delete(name!);
      else this.#cookies.set(name!, { value: rest.join("="), path });
    }
    return response;
  }

  /** Follows redirects on this origin until one leaves it (the client's redirect URI): returns that URL. */
  async follow(url: string, origin: string): Promise<{ url: URL; response: Response | undefined }> {
    let next = new URL(url, origin);
    for (let hops = 0; hops < 10; hops++) {
      if (next.origin !== origin) return { url: next, response: undefined };
      const response = await this.get(next.href);
      const location = response.headers.get("location");
      if (!location) return { url: next, response };
      next = new URL(location, next);
    }
    throw new Error("too many redirects");
  }
}

export interface ConsentChoice {
  scopes: string[];
  allowWrites?: boolean;
  allowedBoardIds?: string[] | null;
  expiresAt?: string | null;
}

/**
 * The person's side of an authorization: opens the URL, lands on the consent page, approves with `key` (or denies
 * without one) and follows back to the client. Returns the redirect URI's query and the consent page's details.
 */
export async function consent(
  baseUrl: string,
  authorizationUrl: URL,
  answer: { key: string; choice: ConsentChoice } | "deny",
  browser = new CookieBrowser(),
): Promise<{ query: URLSearchParams; details: ConsentDetails; approve: Response; back?: URL }> {
  const landing = await browser.follow(authorizationUrl.href, baseUrl);
  const uid = /\/oauth\/consent\/([^/?]+)/.exec(landing.url.pathname)?.[1];
  if (!uid) throw new Error(`no consent page: ended at ${landing.url.href}`);
  const details = (await (await browser.get(`${baseUrl}/oauth/consent/${uid}/details`)).json()) as ConsentDetails;
  const approve =
    answer === "deny"
      ? await browser.request(`${baseUrl}/oauth/consent/${uid}/deny`, { method: "POST" })
      : await browser.request(`${baseUrl}/oauth/consent/${uid}/approve`, {
          method: "POST",
          headers: { authorization: `Bearer ${answer.key}`, "content-type": "application/json" },
          body: JSON.stringify(answer.choice),
        });
  if (!approve.ok) return { query: new URLSearchParams(), details, approve };
  const { redirectTo } = (await approve.clone().json()) as { redirectTo: string };
  const back = await browser.follow(redirectTo, baseUrl);
  return { query: back.url.searchParams, details, approve, back: back.url };
}

export interface ConsentDetails {
  uid: string;
  client: { id: string; name: string; host: string };
  requestedScopes: string[];
  resource: string;
}

/** The client's side by hand, for the refusals: register, build an authorization URL, exchange a code. */
export class HandClient {
  readonly baseUrl: string;
  readonly redirectUri: string;
  clientId = "";
  verifier = randomBase64url(32);

  constructor(baseUrl: string, redirectUri = "http://127.0.0.1:9/callback") {
    this.baseUrl = baseUrl;
    this.redirectUri = redirectUri;
  }

  async register(name = "Hand Client"): Promise<this> {
    const response = await fetch(`${this.baseUrl}/oauth/register`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        client_name: name,
        redirect_uris: [this.redirectUri],
        grant_types: ["authorization_code", "refresh_token"],
        response_types: ["code"],
        token_endpoint_auth_method: "none",
      }),
    });
    if (response.status !== 201) throw new Error(`registration refused: ${await response.text()}`);
    this.clientId = ((await response.json()) as { client_id: string }).client_id;
    return this;
  }

  authorizationUrl(overrides: Record<string, string | undefined> = {}): URL {
    const url = new URL(`${this.baseUrl}/oauth/authorize`);
    const params: Record<string, string | undefined> = {
      response_type: "code",
      client_id: this.clientId,
      redirect_uri: this.redirectUri,
      scope: "scripts:read scripts:write",
      state: "s1",
      code_challenge: challengeOf(this.verifier),
      code_challenge_method: "S256",
      resource: `${this.baseUrl}/mcp`,
      ...overrides,
    };
    for (const [name, value] of Object.entries(params)) if (value !== undefined) url.searchParams.set(name, value);
    return url;
  }

  token(form: Record<string, string>): Promise<Response> {
    return fetch(`${this.baseUrl}/oauth/token`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ client_id: this.clientId, ...form }).toString(),
    });
  }

  exchange(code: string, verifier = this.verifier): Promise<Response> {
    return this.token({
      grant_type: "authorization_code",
      code,
      redirect_uri: this.redirectUri,
      code_verifier: verifier,
      resource: `${this.baseUrl}/mcp`,
    });
  }

  /** Register, approve with `key` and `choice`, exchange: the token answer. */
  async authorize(key: string, choice: ConsentChoice): Promise<Tokens> {
    if (!this.clientId) await this.register();
    const { query, approve } = await consent(this.baseUrl, this.authorizationUrl(), { key, choice });
    if (!approve.ok) throw new Error(`approval refused: ${await approve.text()}`);
    const response = await this.exchange(query.get("code")!);
    if (!response.ok) throw new Error(`exchange refused: ${await response.text()}`);
    return (await response.json()) as Tokens;
  }
}

export function randomBase64url(bytes: number): string {
  return randomBytes(bytes).toString("base64url");
}

export function challengeOf(verifier: string): string {
  return createHash("sha256").update(verifier).digest("base64url");
}
