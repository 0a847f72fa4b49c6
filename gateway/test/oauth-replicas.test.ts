/**
 * Two gateway replicas on one database, as behind the Ingress: every OAuth step may land on either. A person starts
 * on one and approves on the other (cookies signed with the keys both derive from the shared pepper), a token
 * issued by one works on the other, and a grant revoked through one stops on the other within 5 s.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLogger } from "@bancada/service-kit";
import { createGateway, type Gateway } from "@bancada/gateway";
import { startStack, type Stack } from "@bancada/e2e";
import { scriptsFactory } from "./fixtures.js";
import { modernVersion } from "./mcp-clients.js";
import { CookieBrowser, HandClient } from "./oauth-client.js";
import { registeredScopes } from "@bancada/service-registry";

let stack: Stack;
let second: Gateway;
let server: Server;
let secondUrl: string;
let key: string;

beforeAll(async () => {
  stack = await startStack({ services: { scripts: scriptsFactory } });
  second = await createGateway({
    databaseUrl: stack.database.url,
    bus: stack.bus,
    subjects: stack.subjects,
    services: ["scripts"],
    scopes: registeredScopes(),
    log: createLogger("replica", "silent"),
    keyPepper: "test-pepper",
    bindHost: "127.0.0.1",
    publicUrl: stack.baseUrl,
  });
  server = createServer(second.app);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  secondUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const until = Date.now() + 30_000;
  while (!second.catalog.tool("list_scripts") && Date.now() < until) await second.catalog.refresh("scripts");
  key = await stack.createKey({ scopes: ["scripts:read", "keys:read", "keys:write"] });
});
afterAll(async () => {
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve));
  await second?.stop();
  await stack?.stop();
});

async function toolsList(baseUrl: string, token: string): Promise<number> {
  const response = await fetch(`${baseUrl}/mcp`, {
    method: "POST",
    headers: {
      authorization: `Bearer ${token}`,
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "mcp-protocol-version": modernVersion,
      "mcp-method": "tools/list",
    },
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "tools/list",
      params: {
        _meta: {
          "io.modelcontextprotocol/protocolVersion": modernVersion,
          "io.modelcontextprotocol/clientCapabilities": {},
          "io.modelcontextprotocol/clientInfo": { name: "replicas", version: "1" },
        },
      },
    }),
  });
  await response.text();
  return response.status;
}

describe("OAuth across gateway replicas", () => {
  it("when a flow starts on one replica and is approved on the other, then the tokens work on both, refresh on either, and a revocation on one stops the other within 5 s", async () => {
    const client = await new HandClient(stack.baseUrl).register();
    const browser = new CookieBrowser();
    // the authorization request reaches replica 1
    const landing = await browser.follow(client.authorizationUrl().href, stack.baseUrl);
    const uid = /\/oauth\/consent\/([^/]+)/.exec(landing.url.pathname)![1];
    // the consent page's requests reach replica 2
    const details = await browser.get(`${secondUrl}/oauth/consent/${uid}/details`);
    expect(details.status).toBe(200);
    const approve = await browser.request(`${secondUrl}/oauth/consent/${uid}/approve`, {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      body: JSON.stringify({ scopes: ["scripts:read"] }),
    });
    expect(approve.status, await approve.clone().text()).toBe(200);
    const { redirectTo } = (await approve.json()) as { redirectTo: string };
    const back = await browser.follow(redirectTo, stack.baseUrl);
    const code = back.url.searchParams.get("code");
    expect(code).toBeTruthy();

    const exchanged = await client.exchange(code!);
    expect(exchanged.status).toBe(200);
    const tokens = (await exchanged.json()) as { access_token: string; refresh_token: string };
    expect(await toolsList(stack.baseUrl, tokens.access_token)).toBe(200);
    expect(await toolsList(secondUrl, tokens.access_token)).toBe(200);

    const refreshed = await fetch(`${secondUrl}/oauth/token`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({
        grant_type: "refresh_token",
        refresh_token: tokens.refresh_token,
        client_id: client.clientId,
      }).toString(),
    });
    expect(refreshed.status).toBe(200);
    const next = (await refreshed.json()) as { access_token: string };
    expect(await toolsList(stack.baseUrl, next.access_token)).toBe(200);

    const { grants } = (await (await fetch(`${secondUrl}/v1/grants`, { headers: { authorization: `Bearer ${key}` } })).json()) as {
      grants: { id: string }[];
    };
    const revoked = await fetch(`${secondUrl}/v1/grants/${grants[0]!.id}/revoke`, {
      method: "POST",
      headers: { authorization: `Bearer ${key}` },
    });
    expect(revoked.status).toBe(200);
    const since = Date.now();
    while ((await toolsList(stack.baseUrl, next.access_token)) === 200) {
      expect(Date.now() - since).toBeLessThan(5_000);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  });
});
