/**
 * What OAuth refuses, each on its own: discovery first (what a client reads before anything), then every refusal the
 * issue lists — no PKCE, plain PKCE, a wrong verifier, an unregistered redirect URI, a client metadata document on a
 * private address, another audience, an expired or revoked token, a replayed code, a replayed refresh token (the
 * family dies), a grant wider than the signing-in key — and tenancy: a grant reaches its own account only, and
 * only its owner lists or revokes it.
 */
import { createServer } from "node:https";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startStack, type Stack } from "@bancada/e2e";
import { scriptsFactory } from "./fixtures.js";
import { modernVersion } from "./mcp-clients.js";
import { challengeOf, consent, CookieBrowser, HandClient } from "./oauth-client.js";

let stack: Stack;
let key: string;

beforeAll(async () => {
  stack = await startStack({ services: { scripts: scriptsFactory } });
  key = await stack.createKey({ scopes: ["scripts:read", "scripts:write", "keys:read", "keys:write"] });
});
afterAll(async () => stack?.stop());

async function mcp(token: string, method: string, params: Record<string, unknown> = {}) {
  const response = await fetch(stack.mcpUrl, {
    method: "POST",
    headers: {
      authorization: `Bearer ${token}`,
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "mcp-protocol-version": modernVersion,
      "mcp-method": method,
      ...(typeof params.name === "string" ? { "mcp-name": params.name } : {}),
    },
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method,
      params: {
        ...params,
        _meta: {
          "io.modelcontextprotocol/protocolVersion": modernVersion,
          "io.modelcontextprotocol/clientCapabilities": {},
          "io.modelcontextprotocol/clientInfo": { name: "oauth-refusals", version: "1" },
        },
      },
    }),
  });
  const text = await response.text();
  const body = text.startsWith("{") ? JSON.parse(text) : JSON.parse(/^data: (.*)$/m.exec(text)?.[1] ?? "null");
  return { status: response.status, challenge: response.headers.get("www-authenticate"), body };
}

describe("discovery", () => {
  it("when /mcp is called without credentials, then 401 points at the resource metadata, which names the authorization server", async () => {
    const refused = await fetch(stack.mcpUrl, { method: "POST", headers: { "content-type": "application/json" }, body: "{}" });
    expect(refused.status).toBe(401);
    const challenge = refused.headers.get("www-authenticate")!;
    const metadataUrl = /resource_metadata="([^"]+)"/.exec(challenge)![1]!;
    for (const url of [metadataUrl, `${stack.baseUrl}/.well-known/oauth-protected-resource/mcp`]) {
      const metadata = (await (await fetch(url)).json()) as {
        resource: string;
        authorization_servers: string[];
        scopes_supported: string[];
      };
      expect(metadata.resource).toBe(stack.mcpUrl);
      expect(metadata.authorization_servers).toEqual([stack.baseUrl]);
      expect(metadata.scopes_supported).toContain("scripts:read");
      expect(metadata.scopes_supported).not.toContain("keys:write");
    }
    const server = (await (await fetch(`${stack.baseUrl}/.well-known/oauth-authorization-server`)).json()) as Record<string, unknown>;
    expect(server.issuer).toBe(stack.baseUrl);
    expect(server.code_challenge_methods_supported).toEqual(["S256"]);
    expect(server.response_types_supported).toEqual(["code"]);
    expect(server.grant_types_supported).toEqual(expect.arrayContaining(["authorization_code", "refresh_token"]));
    expect(server.registration_endpoint).toBe(`${stack.baseUrl}/oauth/register`);
    expect(server.revocation_endpoint).toBe(`${stack.baseUrl}/oauth/revoke`);
    expect(server.client_id_metadata_document_supported).toBe(true);
  });

  it("when an API key calls /mcp, then it works as before beside OAuth", async () => {
    expect((await mcp(key, "tools/list")).status).toBe(200);
  });
});

describe("refusals", () => {
  /** Where the authorization endpoint sends the browser: an error back to the client, or a page of its own. */
  async function authorizeAnswer(url: URL) {
    const response = await fetch(url, { redirect: "manual" });
    const location = response.headers.get("location");
    return { status: response.status, location: location ? new URL(location, stack.baseUrl) : undefined, text: await response.text() };
  }

  it("when the request carries no PKCE, or plain PKCE, then the client gets invalid_request and no consent page", async () => {
    const client = await new HandClient(stack.baseUrl).register();
    for (const overrides of [
      { code_challenge: undefined, code_challenge_method: undefined },
      { code_challenge: client.verifier, code_challenge_method: "plain" },
    ]) {
      const answer = await authorizeAnswer(client.authorizationUrl(overrides));
      expect(answer.location?.origin).toBe("http://127.0.0.1:9");
      expect(answer.location?.searchParams.get("error")).toBe("invalid_request");
    }
  });

  it("when the code is exchanged with a wrong verifier, then invalid_grant", async () => {
    const client = await new HandClient(stack.baseUrl).register();
    const { query } = await consent(stack.baseUrl, client.authorizationUrl(), { key, choice: { scopes: ["scripts:read"] } });
    const response = await client.exchange(query.get("code")!, "a-wrong-verifier-that-is-long-enough-to-be-valid-xyz");
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: string }).error).toBe("invalid_grant");
  });

  it("when the redirect URI is not registered, then the server answers itself and never redirects there", async () => {
    const client = await new HandClient(stack.baseUrl).register();
    const answer = await authorizeAnswer(client.authorizationUrl({ redirect_uri: "https://evil.example/callback" }));
    expect(answer.status).toBe(400);
    expect(answer.location).toBeUndefined();
    expect(answer.text).toContain("redirect_uri");
  });

  it("when the client id is a metadata document on a loopback address, then it is never fetched and the client is refused", async () => {
    let fetched = 0;
    const server = createServer((_req, res) => {
      fetched++;
      res.end("{}");
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      const clientId = `https://localhost:${(server.address() as AddressInfo).port}/client.json`;
      const client = new HandClient(stack.baseUrl);
      client.clientId = clientId;
      const answer = await authorizeAnswer(client.authorizationUrl());
      expect(answer.status).toBe(400);
      expect(answer.location).toBeUndefined();
      expect(answer.text).toMatch(/invalid_client/);
      expect(fetched).toBe(0);
    } finally {
      server.close();
    }
  });

  it("when a token is asked for another resource, then invalid_target; a token bound elsewhere is refused by /mcp", async () => {
    const client = await new HandClient(stack.baseUrl).register();
    const answer = await authorizeAnswer(client.authorizationUrl({ resource: "https://other.example/mcp" }));
    expect(answer.location?.searchParams.get("error")).toBe("invalid_target");
    // a token the authorization server holds for another audience (as another resource server's would be)
    const tokens = await new HandClient(stack.baseUrl).authorize(key, { scopes: ["scripts:read"] });
    const provider = stack.gateway.oauth.provider({ protocol: "http", get: () => new URL(stack.baseUrl).host } as never);
    const original = await provider.AccessToken.find(tokens.access_token);
    const foreign = new provider.AccessToken({
      accountId: original!.accountId,
      clientId: original!.clientId,
      grantId: original!.grantId,
      scope: "scripts:read",
      aud: "https://other.example/mcp",
    } as never);
    const foreignToken = await foreign.save();
    const refused = await mcp(foreignToken, "tools/list");
    expect(refused.status).toBe(401);
    expect(refused.challenge).toMatch(/error="invalid_token"/);
    expect((await mcp(tokens.access_token, "tools/list")).status).toBe(200);
  });

  it("when a token is revoked (RFC 7009) or has expired, then /mcp answers 401 invalid_token", async () => {
    const client = new HandClient(stack.baseUrl);
    const revoked = await client.authorize(key, { scopes: ["scripts:read"] });
    const answer = await fetch(`${stack.baseUrl}/oauth/revoke`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ token: revoked.access_token, client_id: client.clientId }).toString(),
    });
    expect(answer.status).toBe(200);
    expect((await mcp(revoked.access_token, "tools/list")).status).toBe(401);

    const expired = await new HandClient(stack.baseUrl).authorize(key, { scopes: ["scripts:read"] });
    await stack.gateway.db.oAuthRecord.updateMany({ where: { model: "AccessToken" }, data: { expiresAt: new Date(Date.now() - 1000) } });
    const refused = await mcp(expired.access_token, "tools/list");
    expect(refused.status).toBe(401);
    expect(refused.body.error.message).toMatch(/authorize again/);
    // the sweep deletes expired rows and nothing else
    expect(await stack.gateway.oauth.sweep()).toBeGreaterThan(0);
    expect(await stack.gateway.db.oAuthRecord.count({ where: { model: "AccessToken" } })).toBe(0);
    expect(await stack.gateway.db.oAuthRecord.count({ where: { model: "Client" } })).toBeGreaterThan(0);
  });

  it("when a client registers with a client secret, then the secret is sealed at rest, and only the right one gets tokens", async () => {
    const client = new HandClient(stack.baseUrl);
    const registered = await fetch(`${stack.baseUrl}/oauth/register`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        client_name: "Confidential Client",
        redirect_uris: [client.redirectUri],
        grant_types: ["authorization_code", "refresh_token"],
        response_types: ["code"],
        token_endpoint_auth_method: "client_secret_post",
      }),
    });
    expect(registered.status).toBe(201);
    const { client_id, client_secret } = (await registered.json()) as { client_id: string; client_secret: string };
    expect(client_secret.length).toBeGreaterThanOrEqual(32);
    client.clientId = client_id;
    const [row] = await stack.gateway.db.$queryRaw<{ payload: string }[]>`
      SELECT payload::text AS payload FROM oauth_records WHERE model = 'Client' AND payload->>'client_name' = 'Confidential Client'`;
    expect(row!.payload).not.toContain(client_secret);
    expect(row!.payload).toContain('"client_secret": "sealed:v1:');
    const { query } = await consent(stack.baseUrl, client.authorizationUrl(), { key, choice: { scopes: ["scripts:read"] } });
    const exchange = (secret: string) =>
      client.token({
        grant_type: "authorization_code",
        code: query.get("code")!,
        redirect_uri: client.redirectUri,
        code_verifier: client.verifier,
        resource: `${stack.baseUrl}/mcp`,
        client_secret: secret,
      });
    const wrong = await exchange(`${client_secret}x`);
    expect(wrong.status).toBe(401);
    expect(((await wrong.json()) as { error: string }).error).toBe("invalid_client");
    const right = await exchange(client_secret);
    expect(right.status, await right.clone().text()).toBe(200);
    const tokens = (await right.json()) as { access_token: string };
    expect((await mcp(tokens.access_token, "tools/list")).status).toBe(200);
  });

  it("when a code is replayed, then the second exchange fails and the tokens of the first are revoked", async () => {
    const client = await new HandClient(stack.baseUrl).register();
    const { query } = await consent(stack.baseUrl, client.authorizationUrl(), { key, choice: { scopes: ["scripts:read"] } });
    const first = await client.exchange(query.get("code")!);
    expect(first.status).toBe(200);
    const tokens = (await first.json()) as { access_token: string };
    const again = await client.exchange(query.get("code")!);
    expect(again.status).toBe(400);
    expect(((await again.json()) as { error: string }).error).toBe("invalid_grant");
    await new Promise((resolve) => setTimeout(resolve, 3_100)); // past the token cache
    expect((await mcp(tokens.access_token, "tools/list")).status).toBe(401);
  });

  it("when a rotated refresh token is replayed, then it is refused and the whole family is revoked", async () => {
    const client = new HandClient(stack.baseUrl);
    const tokens = await client.authorize(key, { scopes: ["scripts:read"] });
    const rotated = await client.token({ grant_type: "refresh_token", refresh_token: tokens.refresh_token! });
    expect(rotated.status).toBe(200);
    const next = (await rotated.json()) as { access_token: string; refresh_token: string };
    const replay = await client.token({ grant_type: "refresh_token", refresh_token: tokens.refresh_token! });
    expect(replay.status).toBe(400);
    expect(((await replay.json()) as { error: string }).error).toBe("invalid_grant");
    const successor = await client.token({ grant_type: "refresh_token", refresh_token: next.refresh_token });
    expect(successor.status).toBe(400);
    expect((await mcp(next.access_token, "tools/list")).status).toBe(401);
  });

  it("when the approval asks more than the signing-in key holds, then 403 names each excess", async () => {
    const narrow = await stack.createKey({
      scopes: ["scripts:read", "keys:write"],
      allowWrites: true,
      allowedBoardIds: ["6f1b2a10-0000-4000-8000-000000000001"],
      expiresAt: new Date(Date.now() + 86_400_000),
    });
    const client = await new HandClient(stack.baseUrl).register();
    const { approve } = await consent(stack.baseUrl, client.authorizationUrl(), {
      key: narrow,
      choice: { scopes: ["scripts:read", "scripts:write"], allowedBoardIds: null, expiresAt: null },
    });
    expect(approve.status).toBe(403);
    const body = (await approve.json()) as { error: { code: string; message: string; details: { issues: { path: string }[] } } };
    expect(body.error.code).toBe("permission_denied");
    expect(body.error.details.issues.map((issue) => issue.path)).toEqual(["scopes[1]", "allowedBoardIds", "expiresAt"]);
  });

  it("when the approval is signed in with a key without keys:write, then 403", async () => {
    const reader = await stack.createKey({ scopes: ["scripts:read"] });
    const client = await new HandClient(stack.baseUrl).register();
    const { approve } = await consent(stack.baseUrl, client.authorizationUrl(), { key: reader, choice: { scopes: ["scripts:read"] } });
    expect(approve.status).toBe(403);
  });

  it("when the person denies, then the client gets access_denied and no code", async () => {
    const client = await new HandClient(stack.baseUrl).register();
    const { query } = await consent(stack.baseUrl, client.authorizationUrl(), "deny");
    expect(query.get("error")).toBe("access_denied");
    expect(query.get("code")).toBeNull();
    expect(query.get("state")).toBe("s1");
  });

  it("when the consent API is called from another browser (no interaction cookie), then it says to start again", async () => {
    const client = await new HandClient(stack.baseUrl).register();
    const landing = await new CookieBrowser().follow(client.authorizationUrl().href, stack.baseUrl);
    const uid = /\/oauth\/consent\/([^/]+)/.exec(landing.url.pathname)![1];
    const stranger = await fetch(`${stack.baseUrl}/oauth/consent/${uid}/approve`, {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      body: JSON.stringify({ scopes: ["scripts:read"] }),
    });
    expect(stranger.status).toBe(409);
    expect(((await stranger.json()) as { error: { message: string } }).error.message).toMatch(/start the connection again/);
  });

  it("when a grant lacks the scope a tool needs, then 403 insufficient_scope names that scope", async () => {
    const tokens = await new HandClient(stack.baseUrl).authorize(key, { scopes: ["scripts:read"] });
    const refused = await mcp(tokens.access_token, "tools/call", { name: "create_script", arguments: { title: "t", text: "x" } });
    expect(refused.status).toBe(403);
    expect(refused.challenge).toMatch(/^Bearer error="insufficient_scope", scope="scripts:write", resource_metadata="/);
  });

  it("when PKCE's challenge does not match the S256 of the verifier sent, then invalid_grant (the challenge is checked, not trusted)", async () => {
    const client = await new HandClient(stack.baseUrl).register();
    const other = "another-verifier-of-enough-length-to-be-accepted-0123456789";
    const url = client.authorizationUrl({ code_challenge: challengeOf(other) });
    const { query } = await consent(stack.baseUrl, url, { key, choice: { scopes: ["scripts:read"] } });
    expect((await client.exchange(query.get("code")!)).status).toBe(400);
  });
});

describe("tenancy", () => {
  it("when account A's grant asks for account B's script, then not_found, exactly as A's key", async () => {
    const keyB = await stack.createKey({ accountId: "acct-b", personId: "person-b", scopes: ["scripts:read", "scripts:write"] });
    const created = await mcp(keyB, "tools/call", { name: "create_script", arguments: { title: "B only", text: "secret" } });
    const id = (created.body.result.structuredContent as { script: { id: string } }).script.id;
    expect(id).toBeTruthy();
    const tokens = await new HandClient(stack.baseUrl).authorize(key, { scopes: ["scripts:read"] });
    const read = await mcp(tokens.access_token, "tools/call", { name: "get_script", arguments: { id } });
    expect(read.body.result.isError).toBe(true);
    expect(read.body.result.structuredContent.error.code).toBe("not_found");
    const list = await mcp(tokens.access_token, "tools/call", { name: "list_scripts", arguments: {} });
    expect(JSON.stringify(list.body.result.structuredContent)).not.toContain("B only");
    // a token is for /mcp only: the REST API (and the key routes behind it) refuse it
    for (const path of ["/v1/session", "/v1/scripts", "/v1/grants"]) {
      expect((await fetch(`${stack.baseUrl}${path}`, { headers: { authorization: `Bearer ${tokens.access_token}` } })).status, path).toBe(
        401,
      );
    }
  });

  it("when another person lists or revokes a grant, then they see none of it and the revoke is not_found; its owner's revoke stops it within 5 s", async () => {
    const tokens = await new HandClient(stack.baseUrl).authorize(key, { scopes: ["scripts:read"] });
    expect((await mcp(tokens.access_token, "tools/list")).status).toBe(200);
    const mine = (await (await fetch(`${stack.baseUrl}/v1/grants`, { headers: { authorization: `Bearer ${key}` } })).json()) as {
      grants: { id: string; clientName: string; scopes: string[] }[];
    };
    const grant = mine.grants[0]!;
    expect(grant.clientName).toBe("Hand Client");
    const other = await stack.createKey({ accountId: "acct-a", personId: "person-z", scopes: ["keys:read", "keys:write"] });
    const theirs = (await (await fetch(`${stack.baseUrl}/v1/grants`, { headers: { authorization: `Bearer ${other}` } })).json()) as {
      grants: unknown[];
    };
    expect(theirs.grants).toEqual([]);
    const stranger = await fetch(`${stack.baseUrl}/v1/grants/${grant.id}/revoke`, {
      method: "POST",
      headers: { authorization: `Bearer ${other}` },
    });
    expect(stranger.status).toBe(404);
    expect((await mcp(tokens.access_token, "tools/list")).status).toBe(200);

    const revoked = await fetch(`${stack.baseUrl}/v1/grants/${grant.id}/revoke`, {
      method: "POST",
      headers: { authorization: `Bearer ${key}` },
    });
    expect(revoked.status).toBe(200);
    const since = Date.now();
    while ((await mcp(tokens.access_token, "tools/list")).status === 200) {
      expect(Date.now() - since).toBeLessThan(5_000);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  });

  it("when a grant is used, then the audit trail names the client", async () => {
    const tokens = await new HandClient(stack.baseUrl, "http://127.0.0.1:9/audit").authorize(key, { scopes: ["scripts:read"] });
    await mcp(tokens.access_token, "tools/call", { name: "list_scripts", arguments: {} });
    const until = Date.now() + 5_000;
    for (;;) {
      const rows = await stack.gateway.db.toolCall.findMany({ where: { agentId: "Hand Client", tool: "list_scripts" } });
      if (rows.length > 0) break;
      expect(Date.now()).toBeLessThan(until);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  });
});
