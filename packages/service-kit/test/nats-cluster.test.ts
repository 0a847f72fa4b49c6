/**
 * The NATS bus on a real cluster: several servers in one URL, user/password, node loss under load, parts across a
 * reconnect, and permissions NATS refuses. Each suite starts its own nats-server processes on free loopback ports
 * and kills them afterwards.
 *
 * The gateway's rule for a bus failure (gateway/src/call-router.ts) is mirrored in `outcomeOf`: `timeout` and
 * `cancelled` are `deadline_exceeded`, every other BusRequestError is `unavailable`, and anything else the bus
 * throws would reach the client as `internal` — which must never happen.
 */
import type { ChildProcess } from "node:child_process";
import { randomUUID } from "node:crypto";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { Header, subjects as makeSubjects, type Principal } from "@bancada/contracts";
import { connect } from "@nats-io/transport-node";
import { headers as natsHeaders } from "@nats-io/nats-core";
import { freePort, natsServerBin, natsServerPresent, startNatsServer } from "@bancada/testkit";
import {
  BusKeys,
  BusRequestError,
  NatsAuthError,
  connectNatsBus,
  createLogger,
  decodeJson,
  defineTool,
  encodeJson,
  hostTools,
  signBusMessage,
  type NatsBus,
  type NatsBusLog,
} from "../src/index.js";

const natsServer = natsServerBin;
const present = natsServerPresent;
const children: ChildProcess[] = [];
const folders: string[] = [];

afterAll(async () => {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
  await Promise.all(folders.map((folder) => rm(folder, { recursive: true, force: true })));
});

interface Node {
  port: number;
  monitor: number;
  url: string;
  process: ChildProcess;
}

async function startNode(args: string[], port: number, monitor: number): Promise<Node> {
  const server = await startNatsServer({ port, args: ["-m", String(monitor), ...args] });
  children.push(server.process);
  return { port, monitor, url: server.url, process: server.process };
}

/**
 * Three routed nodes, each with JetStream on its own folder, clients needing `user`/`password`. Its nine ports are
 * found free one by one, and another test file may take one before a node binds it: then it starts again on others.
 */
async function startCluster(user: string, password: string): Promise<Node[]> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await startClusterOnce(user, password);
    } catch (error) {
      for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
      if (attempt === 3) throw error;
    }
  }
}

async function startClusterOnce(user: string, password: string): Promise<Node[]> {
  const ports = await Promise.all(
    [0, 1, 2].map(async () => ({ client: await freePort(), cluster: await freePort(), monitor: await freePort() })),
  );
  const routes = ports.map((p) => `nats://127.0.0.1:${p.cluster}`).join(",");
  const nodes = await Promise.all(
    ports.map(async (p, index) => {
      const store = await mkdtemp(path.join(tmpdir(), "bancada-nats-"));
      folders.push(store);
      const args = ["-n", `n${index}`, "--cluster_name", "bancada-test", "-cluster", `nats://127.0.0.1:${p.cluster}`, "-routes", routes];
      return startNode([...args, "-js", "-sd", store, "--user", user, "--pass", password], p.client, p.monitor);
    }),
  );
  // routed: every node sees the two others
  const until = Date.now() + 15_000;
  for (const node of nodes) {
    for (;;) {
      const routez = (await (await fetch(`http://127.0.0.1:${node.monitor}/routez`)).json()) as { num_routes: number };
      if (routez.num_routes >= 2) break;
      if (Date.now() > until) throw new Error("the NATS cluster did not form");
      await sleep(100);
    }
  }
  return nodes;
}

function recorder(): NatsBusLog & { lines: { level: string; fields: object; message: string }[] } {
  const lines: { level: string; fields: object; message: string }[] = [];
  const at = (level: string) => (fields: object, message: string) => void lines.push({ level, fields, message });
  return { lines, info: at("info"), warn: at("warn"), error: at("error") };
}

const principal: Principal = {
  keyId: "k1",
  accountId: "acme",
  personId: "ana",
  agentId: "test",
  scopes: ["scripts:read"],
  allowWrites: false,
  allowedBoardIds: null,
  profile: "full",
};

type Outcome = "ok" | "unavailable" | "deadline_exceeded" | "internal" | string;

/** The gateway's reading of a bus request (call-router.ts), reduced to the outcome's code. */
async function outcomeOf(request: Promise<{ data: Uint8Array }>): Promise<Outcome> {
  try {
    const reply = decodeJson((await request).data) as { ok: boolean; error?: { code: string } };
    return reply.ok ? "ok" : (reply.error?.code ?? "internal");
  } catch (error) {
    if (!(error instanceof BusRequestError)) return "internal";
    return error.reason === "timeout" || error.reason === "cancelled" ? "deadline_exceeded" : "unavailable";
  }
}

describe.skipIf(!present)(`the NATS bus on a three-node cluster (skipped without ${natsServer})`, () => {
  const user = "bancada";
  const password = "cluster-secret";
  let nodes: Node[];
  let url: string;
  const open: NatsBus[] = [];

  beforeAll(async () => {
    nodes = await startCluster(user, password);
    url = nodes.map((node) => node.url).join(",");
  });
  afterAll(async () => {
    await Promise.allSettled(open.map((bus) => bus.close(1_000)));
  });

  it("when NATS_URL lists every node with a user and password, then the bus connects; a wrong password fails at start with a clear error", async () => {
    const keys = BusKeys.generate();
    const bus = await connectNatsBus({ url, name: "auth-ok", keys, user, password });
    open.push(bus);
    const subject = `auth.${randomUUID()}`;
    bus.serve(subject, async (msg) => ({ data: msg.data, headers: {} }));
    await sleep(50);
    expect(decodeJson((await bus.request(subject, encodeJson("hi"), { timeoutMs: 2_000 })).data)).toBe("hi");

    const started = Date.now();
    const refused = await connectNatsBus({ url, name: "auth-bad", keys, user, password: "wrong", firstConnectWithinMs: 5_000 }).catch(
      (error: unknown) => error,
    );
    expect(refused).toBeInstanceOf(NatsAuthError);
    expect((refused as Error).message).toMatch(
      /^NATS refused this component's credentials \(.*\): check NATS_USER\/NATS_PASSWORD or NATS_CREDS\.$/,
    );
    expect(Date.now() - started).toBeLessThan(3_000);
  });

  it("when a large reply's parts can no longer be pulled (their peer vanished), then the request ends at once as unavailable, not a hang", async () => {
    const bus = await connectNatsBus({ url, name: "parts", keys: BusKeys.generate(), user, password });
    open.push(bus);
    // a raw responder that names parts on an inbox nobody serves any more: what a replica that died leaves behind
    const raw = await connect({ servers: nodes[0]!.url, user, pass: password });
    const subject = `parts.${randomUUID()}`;
    raw.subscribe(subject, {
      callback: (_error, msg) => {
        const offer = natsHeaders();
        offer.set("bancada-parts", `_INBOX.${randomUUID().replaceAll("-", "")} 3 3000000`);
        msg.respond(new Uint8Array(), { headers: offer });
      },
    });
    await raw.flush();
    await sleep(50);
    const started = Date.now();
    expect(await outcomeOf(bus.request(subject, encodeJson({}), { timeoutMs: 20_000 }))).toBe("unavailable");
    expect(Date.now() - started).toBeLessThan(2_000);
    await raw.close();
  });

  it("when the node the gateway is on, then the node the service is on, are killed -9 under load, then in-flight calls end unavailable or deadline_exceeded (never internal), calls succeed again within 5 s and no call id runs twice", async () => {
    const keys = BusKeys.generate();
    const subjects = makeSubjects(`failover${randomUUID().slice(0, 8)}`);
    const serviceLog = recorder();
    const gatewayLog = recorder();
    const service = await connectNatsBus({
      url,
      name: "svc",
      keys: BusKeys.from({ verifyKey: keys.only(["echo"]).export().verifyKey }),
      user,
      password,
      log: serviceLog,
    });
    const gateway = await connectNatsBus({ url, name: "gw", keys, user, password, log: gatewayLog });
    open.push(service, gateway);
    const runs = new Map<string, number>();
    const echo = defineTool({
      name: "slow_echo",
      description: "answers after a while, sometimes with a body larger than max_payload",
      input: z.object({ n: z.number(), big: z.boolean() }).strict(),
      output: z.object({ n: z.number(), pad: z.string() }),
      annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
      scope: "scripts:read",
      maxDurationMs: 3_000,
      handler: async (ctx, input) => {
        runs.set(ctx.callId, (runs.get(ctx.callId) ?? 0) + 1);
        await sleep(100 + Math.random() * 300);
        return { n: input.n, pad: input.big ? "x".repeat(1_500_000) : "" };
      },
    });
    const host = hostTools({
      bus: service,
      subjects,
      service: "echo",
      version: "1",
      instructions: "",
      tools: [echo],
      log: createLogger("svc", "silent"),
    });
    await sleep(100);

    const results: { at: number; end: number; outcome: Outcome }[] = [];
    let n = 0;
    const call = async () => {
      const callId = randomUUID();
      const timeoutMs = echo.maxDurationMs + 1_000;
      const deadline = Date.now() + timeoutMs;
      const data = encodeJson({ kind: "tool", tool: "slow_echo", args: { n: ++n, big: n % 5 === 0 } });
      const plain = {
        [Header.principal]: JSON.stringify(principal),
        [Header.callId]: callId,
        [Header.deadline]: String(deadline),
        [Header.transport]: "http",
      };
      const headers = signBusMessage(keys.for("echo"), subjects.call("echo"), plain, data, { notAfter: deadline });
      const at = Date.now();
      const outcome = await outcomeOf(gateway.request(subjects.call("echo"), data, { timeoutMs, headers }));
      results.push({ at, end: Date.now(), outcome });
    };
    let loading = true;
    const workers = Array.from({ length: 12 }, async () => {
      while (loading) await call();
    });

    const nodeOf = (server: string) => nodes.find((node) => server.endsWith(`:${node.port}`))!;
    const kills: number[] = [];
    const kill = async (node: Node) => {
      kills.push(Date.now());
      node.process.kill("SIGKILL");
      await sleep(5_000);
    };
    await sleep(1_000);
    const first = nodeOf(gateway.server);
    await kill(first);
    // the service may have been on that node too: then kill where it is now, else where it was all along
    const second = nodeOf(service.server);
    await kill(second);
    loading = false;
    await Promise.all(workers);
    host.stop();

    const outcomes = new Set(results.map((r) => r.outcome));
    console.log(
      `failover: ${results.length} calls; ` +
        [...outcomes].map((o) => `${o} ${results.filter((r) => r.outcome === o).length}`).join(", ") +
        `; killed ${first.port} then ${second.port}`,
    );
    expect([...outcomes].filter((o) => !["ok", "unavailable", "deadline_exceeded"].includes(o))).toEqual([]);
    for (const killedAt of kills) {
      const inFlight = results.filter((r) => r.at < killedAt && r.end >= killedAt);
      expect(inFlight.length).toBeGreaterThan(0);
      const firstOkAfter = results.filter((r) => r.at >= killedAt && r.outcome === "ok").sort((a, b) => a.end - b.end)[0];
      expect(firstOkAfter, "a call succeeds after the node is gone").toBeDefined();
      expect(firstOkAfter!.end - killedAt).toBeLessThan(5_000);
    }
    // the last second of load: all well again, on the one node left, the service's queue group restored
    const lastSecond = results.filter((r) => r.at > kills[1]! + 4_000);
    expect(lastSecond.length).toBeGreaterThan(0);
    expect(lastSecond.every((r) => r.outcome === "ok")).toBe(true);
    expect(Math.max(...runs.values())).toBe(1);
    expect(gatewayLog.lines.some((line) => line.level === "warn" && line.message.startsWith("NATS connection lost"))).toBe(true);
    expect(gatewayLog.lines.some((line) => line.message.startsWith("NATS reconnected"))).toBe(true);
  }, 40_000);
});

describe.skipIf(!present)(`the NATS bus when its only server restarts (skipped without ${natsServer})`, () => {
  it("when the server is killed -9 and comes back within the outage grace, then a handler's reply finished meanwhile is delivered and a request made meanwhile is sent on reconnect (ok or unavailable, never internal or a hang)", async () => {
    const port = await freePort();
    const monitor = await freePort();
    let node = await startNode([], port, monitor);
    // a grace longer than this restart takes on a loaded machine: the outage is waited out, not failed
    const liveness = { outageGraceMs: 8_000 };
    const requester = await connectNatsBus({ url: node.url, name: "requester", keys: BusKeys.generate(), liveness });
    const server = await connectNatsBus({ url: node.url, name: "server", keys: BusKeys.generate(), liveness });
    const subject = `restart.${randomUUID()}`;
    server.serve(subject, async (msg) => {
      await sleep(Number(decodeJson(msg.data)));
      return { data: encodeJson({ ok: true, result: null }), headers: {} };
    });
    await sleep(100);
    // acknowledged before the loss: the handler runs while NATS is down and answers after it is back
    const slow = outcomeOf(requester.request(subject, encodeJson(3_000), { timeoutMs: 12_000 }));
    await sleep(200);
    node.process.kill("SIGKILL");
    await sleep(100);
    // made while the connection has no server: buffered, sent once reconnected
    const during = outcomeOf(requester.request(subject, encodeJson(10), { timeoutMs: 12_000 }));
    await sleep(700);
    node = await startNode([], port, monitor);
    expect(await slow).toBe("ok");
    // sent once reconnected: answered, or no_responders if the serving side is not back yet — never lost until the deadline
    const madeAt = Date.now();
    expect(["ok", "unavailable"]).toContain(await during);
    expect(Date.now() - madeAt).toBeLessThan(5_000);
    await Promise.all([requester.close(1_000), server.close(1_000)]);
    node.process.kill("SIGKILL");
  }, 20_000);
});

describe.skipIf(!present)(`NATS permissions (skipped without ${natsServer})`, () => {
  let url: string;

  beforeAll(async () => {
    const folder = await mkdtemp(path.join(tmpdir(), "bancada-nats-auth-"));
    folders.push(folder);
    const config = path.join(folder, "nats.conf");
    await writeFile(
      config,
      `authorization {
  users = [
    { user: gateway, password: gateway-secret, permissions: {
        publish: { allow: ["bancada.>", "_INBOX.>"], deny: ["bancada.boards.call"] },
        subscribe: { allow: ["_INBOX.>"] } } }
    { user: boards, password: boards-secret, permissions: {
        publish: { allow: ["_INBOX.>"] },
        subscribe: { allow: ["bancada.boards.>", "_INBOX.>"] } } }
  ]
}
`,
    );
    const node = await startNode(["-c", config], await freePort(), await freePort());
    url = node.url;
  });

  it("when the gateway's NATS user may not publish to a subject, then a request to it ends at once as unavailable and the refusal is logged with the subject", async () => {
    const log = recorder();
    const gateway = await connectNatsBus({ url, name: "gw", keys: BusKeys.generate(), user: "gateway", password: "gateway-secret", log });
    const service = await connectNatsBus({ url, name: "boards", keys: BusKeys.generate(), user: "boards", password: "boards-secret" });
    service.serve("bancada.boards.call", async (msg) => ({ data: msg.data, headers: {} }), { queue: "bancada.boards" });
    await sleep(100);
    const started = Date.now();
    const error = await gateway.request("bancada.boards.call", encodeJson({}), { timeoutMs: 10_000 }).catch((e: unknown) => e);
    expect(Date.now() - started).toBeLessThan(1_000);
    expect(error).toBeInstanceOf(BusRequestError);
    expect((error as BusRequestError).reason).toBe("refused");
    expect(await outcomeOf(Promise.reject(error))).toBe("unavailable");
    await sleep(50);
    const line = log.lines.find(
      (entry) => entry.level === "warn" && (entry.fields as { subject?: string }).subject === "bancada.boards.call",
    );
    expect(line?.message).toBe("NATS refused to let this component publish to bancada.boards.call: its NATS user lacks the permission");
    // the connection stays usable for what it may do
    const other = await gateway.request("bancada.nobody.call", encodeJson({}), { timeoutMs: 1_000 }).catch((e: unknown) => e);
    expect((other as BusRequestError).reason).toBe("no_responders");
    await Promise.all([gateway.close(1_000), service.close(1_000)]);
  });

  it("when a service's NATS user may not subscribe to its subject, then the refusal is logged with the subject and queue", async () => {
    const log = recorder();
    const errors: unknown[] = [];
    const service = await connectNatsBus({
      url,
      name: "boards",
      keys: BusKeys.generate(),
      user: "boards",
      password: "boards-secret",
      log,
      onError: (error) => errors.push(error),
    });
    service.serve("bancada.scripts.call", async (msg) => ({ data: msg.data, headers: {} }), { queue: "bancada.scripts" });
    await sleep(300);
    const line = log.lines.find((entry) => (entry.fields as { subject?: string }).subject === "bancada.scripts.call");
    expect(line?.level).toBe("warn");
    expect(line?.message).toMatch(/subscribe to bancada\.scripts\.call/);
    expect(errors.length).toBeGreaterThan(0);
    await service.close(1_000);
  });
});
