/**
 * Client ID Metadata Documents: a client whose id is the HTTPS URL of its metadata. With the development flag that
 * lets the gateway fetch from loopback (a real deployment refuses it: oauth-refusals.test.ts), a document served on
 * https://localhost is fetched, names the client on the consent page and lets it through; a redirect URI the
 * document does not list is refused. The test process trusts the test server's own certificate (a CA made here).
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:https";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startStack, type Stack } from "@bancada/e2e";
import { scriptsFactory } from "./fixtures.js";
import { consent, HandClient } from "./oauth-client.js";

let stack: Stack;
let key: string;
let server: Server;
let clientId: string;
let fetched = 0;
const dispatcherSymbol = Symbol.for("undici.globalDispatcher.1");
let previousDispatcher: unknown;

/** A self-signed certificate for localhost, made with openssl. */
function localhostCertificate(): { key: string; cert: string } {
  const dir = mkdtempSync(path.join(tmpdir(), "bancada-cimd-"));
  try {
    execFileSync(
      "openssl",
      [
        "req",
        "-x509",
        "-newkey",
        "ec",
        "-pkeyopt",
        "ec_paramgen_curve:P-256",
        "-nodes",
        "-days",
        "1",
        "-subj",
        "/CN=localhost",
        "-addext",
        "subjectAltName=DNS:localhost",
        "-keyout",
        path.join(dir, "key.pem"),
        "-out",
        path.join(dir, "cert.pem"),
      ],
      { stdio: "ignore" },
    );
    return { key: readFileSync(path.join(dir, "key.pem"), "utf8"), cert: readFileSync(path.join(dir, "cert.pem"), "utf8") };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

beforeAll(async () => {
  const tls = localhostCertificate();
  server = createServer(tls, (req, res) => {
    fetched++;
    if (req.url !== "/client.json") return void res.writeHead(404).end();
    res.writeHead(200, { "content-type": "application/json", "cache-control": "max-age=600" });
    res.end(
      JSON.stringify({
        client_id: clientId,
        client_name: "CIMD Agent",
        redirect_uris: ["http://127.0.0.1:9/cimd-callback"],
        grant_types: ["authorization_code", "refresh_token"],
        response_types: ["code"],
        token_endpoint_auth_method: "none",
      }),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  clientId = `https://localhost:${(server.address() as AddressInfo).port}/client.json`;
  // trust the test certificate for this process's fetch (Node's built-in undici keeps its dispatcher under this symbol)
  await fetch("http://127.0.0.1:1").catch(() => {});
  const globals = globalThis as unknown as Record<symbol, { constructor: new (options: unknown) => unknown }>;
  previousDispatcher = globals[dispatcherSymbol];
  const Agent = globals[dispatcherSymbol]!.constructor;
  globals[dispatcherSymbol] = new Agent({ connect: { ca: tls.cert } }) as never;

  stack = await startStack({ services: { scripts: scriptsFactory }, gateway: { allowPrivateClientDocuments: true } });
  key = await stack.createKey({ scopes: ["scripts:read", "keys:write"] });
});
afterAll(async () => {
  (globalThis as unknown as Record<symbol, unknown>)[dispatcherSymbol] = previousDispatcher;
  server?.close();
  await stack?.stop();
});

describe("Client ID Metadata Documents", () => {
  it("when the client id is its metadata document's URL, then the document is fetched once, names the client, and the flow completes", async () => {
    const client = new HandClient(stack.baseUrl, "http://127.0.0.1:9/cimd-callback");
    client.clientId = clientId;
    const { query, details } = await consent(stack.baseUrl, client.authorizationUrl(), { key, choice: { scopes: ["scripts:read"] } });
    expect(details.client).toEqual({ id: clientId, name: "CIMD Agent", host: new URL(clientId).host });
    const exchanged = await client.exchange(query.get("code")!);
    expect(exchanged.status, await exchanged.clone().text()).toBe(200);
    expect(((await exchanged.json()) as { access_token: string }).access_token).toBeTruthy();
    expect(fetched).toBe(1);
  });

  it("when the redirect URI is not one the document lists, then the server refuses and never redirects there", async () => {
    const client = new HandClient(stack.baseUrl, "http://127.0.0.1:9/elsewhere");
    client.clientId = clientId;
    const response = await fetch(client.authorizationUrl(), { redirect: "manual" });
    expect(response.status).toBe(400);
    expect(response.headers.get("location")).toBeNull();
    expect(await response.text()).toContain("redirect_uri");
  });
});
