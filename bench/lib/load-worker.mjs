// The load generator of mcp-vs-relay.ts, on its own thread: plain HTTP keep-alive POSTs, N in flight, every
// answer checked (the script asked for, no error). Plain JS so the worker needs no TypeScript loader.
import { parentPort, workerData } from "node:worker_threads";

const { mcpUrl, relayUrl, key, ids } = workerData;
const meta = {
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientCapabilities": {},
  "io.modelcontextprotocol/clientInfo": { name: "bench", version: "1" },
};
const mcpHeaders = { authorization: `Bearer ${key}`, "content-type": "application/json", accept: "application/json, text/event-stream" };
const modernHeaders = { ...mcpHeaders, "mcp-protocol-version": "2026-07-28", "mcp-method": "tools/call", "mcp-name": "get_script" };

/** The JSON-RPC message of an answer, JSON or SSE. */
function rpcOf(text) {
  const line = text.startsWith("{")
    ? text
    : text
        .split("\n")
        .find((l) => l.startsWith("data: "))
        ?.slice(6);
  return JSON.parse(line ?? "null");
}

const calls = {
  async "mcp-2025"(i) {
    const id = ids[i % ids.length];
    const body = { jsonrpc: "2.0", id: i, method: "tools/call", params: { name: "get_script", arguments: { id } } };
    const response = await fetch(mcpUrl, { method: "POST", headers: mcpHeaders, body: JSON.stringify(body) });
    const rpc = rpcOf(await response.text());
    if (rpc?.result?.structuredContent?.script?.id !== id) throw new Error(`mcp-2025: ${JSON.stringify(rpc).slice(0, 300)}`);
  },
  async "mcp-2026"(i) {
    const id = ids[i % ids.length];
    const body = { jsonrpc: "2.0", id: i, method: "tools/call", params: { name: "get_script", arguments: { id }, _meta: meta } };
    const response = await fetch(mcpUrl, { method: "POST", headers: modernHeaders, body: JSON.stringify(body) });
    const rpc = rpcOf(await response.text());
    if (rpc?.result?.structuredContent?.script?.id !== id) throw new Error(`mcp-2026: ${JSON.stringify(rpc).slice(0, 300)}`);
  },
  async relay(i) {
    const id = ids[i % ids.length];
    const response = await fetch(relayUrl, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ id }),
    });
    const body = await response.json();
    if (body?.script?.id !== id) throw new Error(`relay: ${JSON.stringify(body).slice(0, 300)}`);
  },
  async "tools-list"(i) {
    const body = { jsonrpc: "2.0", id: i, method: "tools/list", params: { _meta: meta } };
    const headers = { ...mcpHeaders, "mcp-protocol-version": "2026-07-28", "mcp-method": "tools/list" };
    const response = await fetch(mcpUrl, { method: "POST", headers, body: JSON.stringify(body) });
    const rpc = rpcOf(await response.text());
    if (!Array.isArray(rpc?.result?.tools)) throw new Error(`tools/list: ${JSON.stringify(rpc).slice(0, 300)}`);
  },
};

const resetCodes = new Set(["UND_ERR_SOCKET", "ECONNRESET"]);

async function load(path, n, inFlight) {
  const call = calls[path];
  let resets = 0;
  const samples = [];
  let next = 0;
  const started = performance.now();
  const worker = async () => {
    for (;;) {
      const i = next++;
      if (i >= n) return;
      const t0 = performance.now();
      try {
        await call(i);
      } catch (error) {
        // A keep-alive connection the server closed as the next request left on it (seen only at load 30+ on 2
        // cores, with the old and new code alike): sent again once on a fresh connection, and counted in the output.
        if (!resetCodes.has(error?.cause?.code)) throw error;
        resets++;
        await call(i);
      }
      samples.push(performance.now() - t0);
    }
  };
  await Promise.all(Array.from({ length: inFlight }, worker));
  return { samples, wallMs: performance.now() - started, calls: samples.length, resets };
}

parentPort.on("message", ({ job, path, calls: n, inFlight }) => {
  load(path, n, inFlight).then(
    (run) => parentPort.postMessage({ job, run }),
    // undici says only "fetch failed": the cause (ECONNRESET, UND_ERR_SOCKET …) is what tells what happened
    (error) =>
      parentPort.postMessage({
        job,
        error: `${path}: ${String(error?.message ?? error)} (${String(error?.cause?.code ?? error?.cause ?? "")})`,
      }),
  );
});
