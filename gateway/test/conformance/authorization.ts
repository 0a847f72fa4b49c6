/**
 * The official conformance suite's authorization-server scenarios against Bancada: a test stack on a loopback port,
 * a client registered by DCR with the suite's callback as its redirect URI, then `conformance authorization`. The
 * suite prints an authorization URL for a person to open; this script is that person: it opens the URL, approves
 * on the consent page with a key, and follows the redirect back to the suite's callback.
 * (The suite's `auth/*` scenarios test MCP clients against the suite's own servers: none applies to a server.)
 * Usage: pnpm exec tsx gateway/test/conformance/authorization.ts   (CONFORMANCE_OUT=<dir> keeps the results)
 */
import { spawn } from "node:child_process";
import { startStack } from "@bancada/e2e";
import { scriptsFactory } from "../fixtures.js";
import { CookieBrowser, consent } from "../oauth-client.js";

const port = Number(process.env.CONFORMANCE_CALLBACK_PORT ?? 38_917);
const redirectUri = `http://127.0.0.1:${port}/callback`;
const stack = await startStack({ services: { scripts: scriptsFactory } });
const key = await stack.createKey({ scopes: ["scripts:read", "keys:write"] });
const registered = await fetch(`${stack.baseUrl}/oauth/register`, {
  method: "POST",
  headers: { "content-type": "application/json" },
  body: JSON.stringify({ client_name: "MCP conformance suite", redirect_uris: [redirectUri], token_endpoint_auth_method: "none" }),
});
const { client_id: clientId } = (await registered.json()) as { client_id: string };
const shim = new URL("./node20-shim.mjs", import.meta.url).pathname;

// one run for every scenario: the code grant reads the metadata the first scenario fetched
const code = await new Promise<number | null>((resolve) => {
  const child = spawn(
    "npm",
    [
      "exec",
      "--yes",
      "--package=@modelcontextprotocol/conformance@0.2.0-alpha.12",
      "--",
      "conformance",
      "authorization",
      "--url",
      stack.baseUrl,
      "--client-id",
      clientId,
      "--resource",
      stack.mcpUrl,
      "--port",
      String(port),
      ...(process.env.CONFORMANCE_OUT ? ["--output-dir", process.env.CONFORMANCE_OUT] : []),
    ],
    {
      stdio: ["ignore", "pipe", "inherit"],
      env: { ...process.env, NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ""} --import ${shim}`.trim() },
    },
  );
  let text = "";
  child.stdout.on("data", (chunk: Buffer) => {
    process.stdout.write(chunk);
    text += chunk.toString("utf8");
    const url = /^(http\S+\/oauth\/authorize\?\S+)$/m.exec(text)?.[1];
    if (!url) return;
    text = "";
    void approve(new URL(url));
  });
  child.on("exit", resolve);
});
await stack.stop();
process.exit(code === 0 ? 0 : 1);

/** The person: approve on the consent page, then deliver the redirect to the suite's callback. */
async function approve(url: URL): Promise<void> {
  const browser = new CookieBrowser();
  const { approve: answer, back } = await consent(stack.baseUrl, url, { key, choice: { scopes: ["scripts:read"] } }, browser);
  if (!answer.ok || !back) throw new Error(`approval refused: ${await answer.text()}`);
  await fetch(back);
}
