/**
 * What authenticating one bus call costs: the Ed25519 signature the gateway used to make (sign at the gateway,
 * verify at the tool host) beside the per-service HMAC-SHA256 tag that replaced it, on the same bytes, and the
 * whole of `signBusMessage` + `checkBusSignature` as the call router and the tool host run them (a get_script
 * call's headers and body). One thread, N of each (env N, default 100,000), after a warm-up.
 *   npx tsx bus-tags.ts
 */
import { createHash, generateKeyPairSync, sign, verify } from "node:crypto";
import os from "node:os";
import { Header } from "@bancada/contracts";
import { BusKeys, checkBusSignature, encodeJson, signBusMessage } from "@bancada/service-kit";

const N = Number(process.env.N ?? 100_000);
const subject = "bancada.scripts.call";
const principal = {
  keyId: "k_0123456789abcdef",
  accountId: "acct-bench",
  personId: "person-bench",
  agentId: "bench",
  profile: "full",
  scopes: ["scripts:read", "scripts:write"],
  allowWrites: true,
};
const headers = {
  [Header.principal]: JSON.stringify(principal),
  [Header.callId]: "5f0c7a52-3d1e-4c0a-9b7e-2a41f1e0c9d3",
  [Header.deadline]: String(Date.now() + 35_000),
  [Header.transport]: "http",
  [Header.traceparent]: "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01",
};
const body = encodeJson({ kind: "tool", tool: "get_script", args: { id: "3f2b8a90-5c1d-4e2f-8a7b-6c5d4e3f2a1b" } });
// the bytes a tag or signature covers, as bus-signature.ts builds them (same size and shape)
const covered = new TextEncoder().encode(
  JSON.stringify(["bancada-bus-2", subject, ...Object.values(headers), createHash("sha256").update(body).digest("base64url"), null]),
);

function time(name: string, run: () => unknown): { name: string; us: number } {
  for (let i = 0; i < Math.min(N, 5_000); i++) run();
  const started = process.hrtime.bigint();
  for (let i = 0; i < N; i++) run();
  return { name, us: Number(process.hrtime.bigint() - started) / 1_000 / N };
}

const { privateKey, publicKey } = generateKeyPairSync("ed25519");
const signature = sign(null, covered, privateKey);
const key = BusKeys.generate().for("scripts");
const tag = key.tag(covered);
const tagged = signBusMessage(key, subject, headers, body);
const message = { headers: tagged, data: body };

const rows = [
  time("Ed25519 sign (before, the gateway)", () => sign(null, covered, privateKey)),
  time("Ed25519 verify (before, the tool host)", () => verify(null, covered, publicKey, signature)),
  time("HMAC-SHA256 tag (now, the gateway)", () => key.tag(covered)),
  time("HMAC-SHA256 check, timingSafeEqual (now, the tool host)", () => key.matches(covered, tag)),
  time("signBusMessage whole (now: body digest, JSON, tag)", () => signBusMessage(key, subject, headers, body)),
  time("checkBusSignature whole (now)", () => checkBusSignature(key, subject, message)),
];
if (checkBusSignature(key, subject, message) !== undefined) throw new Error("the benchmark's message does not check");

const [load1, load5] = os.loadavg();
console.log(`## bus-tags — ${new Date().toISOString()}`);
console.log(
  `node ${process.version}, ${os.cpus().length} cores, loadavg ${load1!.toFixed(2)}/${load5!.toFixed(2)}; ${N.toLocaleString("en")} of each; ${covered.length} covered bytes`,
);
console.log("| step | µs each |");
console.log("| --- | ---: |");
for (const row of rows) console.log(`| ${row.name} | ${row.us.toFixed(2)} |`);
const before = rows[0]!.us + rows[1]!.us;
const after = rows[2]!.us + rows[3]!.us;
console.log(`\nsign + check per call: Ed25519 ${before.toFixed(1)} µs, HMAC ${after.toFixed(1)} µs (${(before / after).toFixed(0)}× less)`);
