/**
 * What TLS costs a bus request/reply round trip: two nats-servers of this run's own on loopback, one plain and one
 * with TLS on its client port (infra/nats/tls.mjs's block, certificates made with openssl for this run), each with
 * a "gateway" and a "service" NatsBus (service-kit's connectNatsBus, as the components connect) and an echo
 * responder. The same requests go to both, taking turns in rounds: one at a time (latency) and IN_FLIGHT at once
 * (throughput), at a call's size (BODY bytes) and at 64 KiB; plus the time to connect (TLS handshake included).
 * Any failed request ends the run with an error.
 *   pnpm --filter @bancada/bench nats-tls
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { makeCertificates, renderClientTls } from "@bancada/infra/nats/tls";
import { BusKeys, connectNatsBus, type NatsBus } from "@bancada/service-kit";
import { startNatsServer, type TestNatsServer } from "@bancada/testkit";
import { ms, rate, ratio, run, summarize, table, type Run } from "./lib/stats.js";

const SEQ_CALLS = Number(process.env.SEQ_CALLS ?? 2_000);
const CONC_CALLS = Number(process.env.CONC_CALLS ?? 8_000);
const IN_FLIGHT = Number(process.env.IN_FLIGHT ?? 32);
const ROUNDS = Number(process.env.ROUNDS ?? 4);
const BODY = Number(process.env.BODY ?? 600);
const CONNECTS = Number(process.env.CONNECTS ?? 20);
const subject = "bench.nats-tls.echo";

interface Side {
  name: "plain" | "tls";
  server: TestNatsServer;
  url: string;
  tls: { caFile: string } | undefined;
  gateway: NatsBus;
  service: NatsBus;
}

const folder = mkdtempSync(path.join(os.tmpdir(), "bancada-bench-nats-tls-"));
const sides: Side[] = [];

async function side(name: Side["name"], certificates: ReturnType<typeof makeCertificates>): Promise<Side> {
  const config = path.join(folder, `${name}.conf`);
  writeFileSync(config, name === "tls" ? `${renderClientTls(certificates)}\n` : "\n");
  const server = await startNatsServer({ args: ["-c", config] });
  const url = name === "tls" ? `tls://127.0.0.1:${server.port}` : server.url;
  const tls = name === "tls" ? { caFile: certificates.caFile } : undefined;
  const keys = BusKeys.generate();
  const connect = (who: string) => connectNatsBus({ url, name: `bench-${name}-${who}`, keys, tls });
  const service = await connect("service");
  service.serve(subject, async (message) => ({ data: message.data, headers: {} }), { queue: "bench" });
  const gateway = await connect("gateway");
  return { name, server, url, tls, gateway, service };
}

async function measure(target: Side, body: Uint8Array, calls: number, inFlight: number): Promise<Run> {
  return run(calls, inFlight, async () => {
    const reply = await target.gateway.request(subject, body, { timeoutMs: 10_000 });
    if (reply.data.length !== body.length) throw new Error(`${target.name}: a reply of ${reply.data.length} bytes for ${body.length}`);
  });
}

async function connectTimes(target: Side): Promise<Run> {
  return run(CONNECTS, 1, async () => {
    const bus = await connectNatsBus({ url: target.url, name: "bench-connect", keys: BusKeys.generate(), tls: target.tls });
    await bus.close(1_000);
  });
}

try {
  const certificates = makeCertificates(path.join(folder, "certs"));
  sides.push(await side("plain", certificates), await side("tls", certificates));
  const bodies = [
    { label: `${BODY} B`, data: new Uint8Array(BODY).fill(97) },
    { label: "64 KiB", data: new Uint8Array(64 * 1024).fill(98) },
  ];
  const results = new Map<string, Run[]>();
  const add = (key: string, result: Run) => results.set(key, [...(results.get(key) ?? []), result]);
  // warm-up: JIT, the connections' buffers
  for (const target of sides) await measure(target, bodies[0]!.data, 500, IN_FLIGHT);
  for (let round = 0; round < ROUNDS; round++) {
    process.stderr.write(`round ${round + 1}/${ROUNDS}\n`);
    const order = round % 2 === 0 ? sides : [...sides].reverse();
    for (const body of bodies)
      for (const target of order) {
        add(`${body.label}|sequential|${target.name}`, await measure(target, body.data, Math.ceil(SEQ_CALLS / ROUNDS), 1));
        add(
          `${body.label}|${IN_FLIGHT} in flight|${target.name}`,
          await measure(target, body.data, Math.ceil(CONC_CALLS / ROUNDS), IN_FLIGHT),
        );
      }
  }
  const connects = Object.fromEntries(
    await Promise.all(sides.map(async (target) => [target.name, summarize([await connectTimes(target)])] as const)),
  );

  const [load1, load5] = os.loadavg();
  console.log(`## nats-tls — ${new Date().toISOString()}`);
  console.log(
    `node ${process.version}, ${os.cpus().length} cores, loadavg ${load1!.toFixed(2)}/${load5!.toFixed(2)}; ` +
      `${SEQ_CALLS} sequential and ${CONC_CALLS} at ${IN_FLIGHT} in flight per body and side, in ${ROUNDS} rounds taking turns`,
  );
  const rows: string[][] = [];
  for (const body of bodies)
    for (const mode of ["sequential", `${IN_FLIGHT} in flight`]) {
      const [plain, tls] = (["plain", "tls"] as const).map((name) => summarize(results.get(`${body.label}|${mode}|${name}`)!));
      rows.push([body.label, mode, "plain (baseline)", String(plain!.calls), ms(plain!.p50), ms(plain!.p99), rate(plain!.perSecond), ""]);
      rows.push([
        body.label,
        mode,
        "TLS",
        String(tls!.calls),
        ms(tls!.p50),
        ms(tls!.p99),
        rate(tls!.perSecond),
        ratio(tls!.p50 / plain!.p50),
      ]);
    }
  console.log(table(["body", "mode", "connection", "calls", "p50 ms", "p99 ms", "per second", "p50 TLS/plain"], rows, 3));
  console.log(
    `\nconnect (and close), ${CONNECTS} each: plain p50 ${ms(connects.plain!.p50)} ms p99 ${ms(connects.plain!.p99)} ms; ` +
      `TLS p50 ${ms(connects.tls!.p50)} ms p99 ${ms(connects.tls!.p99)} ms`,
  );
} finally {
  await Promise.allSettled(sides.flatMap((target) => [target.gateway.close(1_000), target.service.close(1_000)]));
  await Promise.allSettled(sides.map((target) => target.server.kill()));
  rmSync(folder, { recursive: true, force: true });
}
