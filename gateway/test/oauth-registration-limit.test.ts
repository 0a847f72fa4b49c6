/**
 * Dynamic client registration needs no credentials, so one address may register only a few clients: 20 at once,
 * then one every 3 minutes. The 21st answers 429 rate_limited with Retry-After, and nothing is stored for it.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startStack, type Stack } from "@bancada/e2e";
import { scriptsFactory } from "./fixtures.js";

let stack: Stack;
beforeAll(async () => {
  stack = await startStack({ services: { scripts: scriptsFactory } });
});
afterAll(async () => stack?.stop());

const register = (baseUrl: string, name: string) =>
  fetch(`${baseUrl}/oauth/register`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({
      client_name: name,
      redirect_uris: ["http://127.0.0.1:9/callback"],
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
      token_endpoint_auth_method: "none",
    }),
  });

describe("client registration from one address", () => {
  it("when an address registers more than 20 clients at once, then the 21st is refused with rate_limited and Retry-After", async () => {
    const statuses: number[] = [];
    for (let index = 0; index < 20; index++) statuses.push((await register(stack.baseUrl, `client ${index}`)).status);
    expect(statuses).toEqual(Array(20).fill(201));
    const refused = await register(stack.baseUrl, "one too many");
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(60);
    expect(await refused.json()).toMatchObject({ error: { code: "rate_limited", details: { retryAfterMs: expect.any(Number) } } });
    const stored = (name: string) => stack.gateway.db.$queryRaw<{ count: number }[]>`
      SELECT count(*)::int AS count FROM oauth_records WHERE model = 'Client' AND payload->>'client_name' = ${name}`;
    expect((await stored("client 0"))[0]?.count).toBe(1);
    expect((await stored("one too many"))[0]?.count).toBe(0);
  });
});
