/**
 * What an OAuth access token costs on /mcp beside an API key, in the same run: tools/call get_script (2026-07-28
 * request, JSON answer) with the key (baseline) and with a token of a grant holding the same scope. The token is
 * got the way a client gets one: Dynamic Client Registration, an authorization request with PKCE S256, the consent
 * page's approve (a key with keys:write) and the code exchange. A token and a key are each resolved through a cache
 * of 3 s, so most calls measure the cache; every answer is checked and any error fails the run.
 * Env: CALLS (3000 per path per round), IN_FLIGHT (16), ROUNDS (3).
 */
import "./lib/env.js";
import { createHash, randomBytes } from "node:crypto";
import os from "node:os";
import { createScript } from "@bancada/scripts/domain/create-script";
import { startBenchStack, stopOnExit } from "./lib/stack.js";
import { ms, progress, rate, ratio, run, summarize, table, type Run } from "./lib/stats.js";

const env = (name: string, fallback: number) => Number(process.env[name] ?? fallback);
const CALLS = env("CALLS", 3_000);
const IN_FLIGHT = env("IN_FLIGHT", 16);
const ROUNDS = env("ROUNDS", 3);
const modern = "2026-07-28";

const bench = await startBenchStack();
const stop = stopOnExit(bench);
try {
  const { stack, scripts, key, accountId, personId } = bench;
  const script = await createScript(
    { db: scripts.db, accountId, personId },
    { title: "Bench", text: "word ".repeat(300), status: "draft" },
  );
  const approver = await stack.createKey({ scopes: ["scripts:read", "scripts:write", "keys:write"] });
  progress("getting an access token through DCR, PKCE and the consent API");
  const token = await accessToken(stack.baseUrl, approver);

  const body = JSON.stringify({
    jsonrpc: "2.0",
    id: 1,
    method: "tools/call",
    params: {
      name: "get_script",
      arguments: { id: script.id },
      _meta: {
        "io.modelcontextprotocol/protocolVersion": modern,
        "io.modelcontextprotocol/clientCapabilities": {},
        "io.modelcontextprotocol/clientInfo": { name: "bench", version: "1" },
      },
    },
  });
  const call = (bearer: string) => async () => {
    const response = await fetch(stack.mcpUrl, {
      method: "POST",
      headers: {
        authorization: `Bearer ${bearer}`,
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        "mcp-protocol-version": modern,
        "mcp-method": "tools/call",
        "mcp-name": "get_script",
      },
      body,
    });
    const text = await response.text();
    if (response.status !== 200 || !text.includes(script.id) || text.includes('"isError":true'))
      throw new Error(`HTTP ${response.status}: ${text.slice(0, 300)}`);
  };
  const paths = { "api key": call(key), "oauth token": call(token) };

  progress("warm-up");
  for (const fn of Object.values(paths)) await run(300, IN_FLIGHT, fn);
  const results = new Map<string, Run[]>();
  for (let round = 0; round < ROUNDS; round++) {
    const order = Object.entries(paths);
    if (round % 2 === 1) order.reverse();
    for (const [name, fn] of order) results.set(name, [...(results.get(name) ?? []), await run(CALLS, IN_FLIGHT, fn)]);
    progress(`round ${round + 1}/${ROUNDS} done`);
  }
  const sequential = new Map(Object.entries(paths).map(([name]) => [name, [] as Run[]]));
  for (const [name, fn] of Object.entries(paths)) sequential.get(name)!.push(await run(Math.min(CALLS, 1_000), 1, fn));

  const baseline = summarize(results.get("api key")!);
  const baselineSequential = summarize(sequential.get("api key")!);
  console.log(`\n## oauth-token — ${new Date().toISOString()}`);
  console.log(
    `node ${process.version}, ${os.cpus().length} cores, loadavg ${os
      .loadavg()
      .map((v) => v.toFixed(2))
      .join("/")}; tools/call get_script, ${modern}; ${IN_FLIGHT} in flight × ${ROUNDS} rounds of ${CALLS}, then sequential.\n`,
  );
  const rows = [...results].flatMap(([name, runs]) => {
    const concurrent = summarize(runs);
    const one = summarize(sequential.get(name)!);
    return [
      [
        name,
        `${IN_FLIGHT}`,
        ms(concurrent.p50),
        ms(concurrent.p99),
        rate(concurrent.perSecond),
        ratio(concurrent.perSecond / baseline.perSecond),
      ],
      [name, "1", ms(one.p50), ms(one.p99), rate(one.perSecond), ratio(one.perSecond / baselineSequential.perSecond)],
    ];
  });
  console.log(table(["path", "in flight", "p50 ms", "p99 ms", "calls/s", "vs key"], rows, 2));
} finally {
  await stop();
}

/** DCR, an authorization request with PKCE S256, approve on the consent API, exchange the code. */
async function accessToken(baseUrl: string, approverKey: string): Promise<string> {
  const redirectUri = "http://127.0.0.1:9/bench";
  const registered = await fetch(`${baseUrl}/oauth/register`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ client_name: "Bench", redirect_uris: [redirectUri], token_endpoint_auth_method: "none" }),
  });
  const { client_id: clientId } = (await registered.json()) as { client_id: string };
  const verifier = randomBytes(32).toString("base64url");
  const authorize = new URL(`${baseUrl}/oauth/authorize`);
  for (const [name, value] of Object.entries({
    response_type: "code",
    client_id: clientId,
    redirect_uri: redirectUri,
    scope: "scripts:read",
    code_challenge: createHash("sha256").update(verifier).digest("base64url"),
    code_challenge_method: "S256",
    resource: `${baseUrl}/mcp`,
  }))
    authorize.searchParams.set(name, value);
  const cookies = new Map<string, string>();
  const visit = async (url: string, init: RequestInit = {}) => {
    const response = await fetch(url, {
      ...init,
      redirect: "manual",
      headers: { ...(init.headers as Record<string, string>), cookie: [...cookies].map(([n, v]) => `${n}=${v}`).join("; ") },
    });
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(";");
      const at = pair!.indexOf("=");
      cookies.set(pair!.slice(0, at), pair!.slice(at + 1));
    }
    return response;
  };
  const toConsent = (await visit(authorize.href)).headers.get("location")!;
  const uid = /\/oauth\/consent\/([^/?]+)/.exec(toConsent)![1];
  const approved = await visit(`${baseUrl}/oauth/consent/${uid}/approve`, {
    method: "POST",
    headers: { authorization: `Bearer ${approverKey}`, "content-type": "application/json" },
    body: JSON.stringify({ scopes: ["scripts:read"] }),
  });
  if (!approved.ok) throw new Error(`approval refused: ${await approved.text()}`);
  let next = ((await approved.json()) as { redirectTo: string }).redirectTo;
  while (!next.startsWith(redirectUri)) next = new URL((await visit(next)).headers.get("location")!, baseUrl).href;
  const code = new URL(next).searchParams.get("code")!;
  const exchanged = await fetch(`${baseUrl}/oauth/token`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({
      grant_type: "authorization_code",
      code,
      redirect_uri: redirectUri,
      code_verifier: verifier,
      client_id: clientId,
      resource: `${baseUrl}/mcp`,
    }).toString(),
  });
  if (!exchanged.ok) throw new Error(`exchange refused: ${await exchanged.text()}`);
  return ((await exchanged.json()) as { access_token: string }).access_token;
}
