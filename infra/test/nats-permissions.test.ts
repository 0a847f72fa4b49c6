/**
 * The NATS users of infra/nats/permissions.mjs, against a real nats-server running the rendered configuration:
 * each component may use exactly its subjects, the committed infra/k8s/base/nats/auth.conf is the
 * renderer's output, and the committed nats.conf's TLS blocks are infra/nats/tls.mjs's.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connect, type NatsConnection } from "@nats-io/transport-node";
import { errors } from "@nats-io/nats-core";
import { passwordVariable, permissionTable, renderAuthorization, renderK8sAuth, serviceNames } from "../nats/permissions.mjs";
import { indent, renderClientTls, renderRouteTls } from "../nats/tls.mjs";

const repo = path.resolve(import.meta.dirname, "../..");
const natsServer = process.env.NATS_SERVER_BIN || "/usr/sbin/nats-server";
const root = "bancada";
const password = (component: string) => `pw-${component}-0123456789`;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

let dir: string;
let server: ChildProcess | undefined;
let url: string;
const open: NatsConnection[] = [];

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = createServer().listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), "bancada-nats-permissions-"));
  const port = await freePort();
  url = `nats://127.0.0.1:${port}`;
  writeFileSync(path.join(dir, "server.conf"), `listen: "127.0.0.1:${port}"\n${renderAuthorization({ root, password })}`);
  server = spawn(natsServer, ["-c", path.join(dir, "server.conf")], { stdio: "ignore" });
  for (let i = 0; i < 100; i++) {
    const ready = await connect({ servers: url, user: "gateway", pass: password("gateway"), maxReconnectAttempts: 0 }).catch(
      () => undefined,
    );
    if (ready) return void (await ready.close());
    await sleep(100);
  }
  throw new Error(`nats-server did not start on ${url}`);
});

afterAll(async () => {
  await Promise.allSettled(open.map((connection) => connection.close()));
  server?.kill("SIGTERM");
  if (dir) rmSync(dir, { recursive: true, force: true });
});

async function as(component: string): Promise<NatsConnection> {
  // as the bus connects (service-kit nats-bus.ts): its NATS user is its inbox prefix
  const connection = await connect({ servers: url, user: component, pass: password(component), inboxPrefix: `_INBOX.${component}` });
  open.push(connection);
  return connection;
}

/** The permission violation the server reports for what `act` does on `connection`, if any, within a second. */
async function violation(
  connection: NatsConnection,
  act: () => void,
): Promise<InstanceType<typeof errors.PermissionViolationError> | undefined> {
  const iterator = connection.status()[Symbol.asyncIterator]();
  const seen = (async () => {
    for (;;) {
      const next = await iterator.next();
      if (next.done) return undefined;
      if (next.value.type === "error" && next.value.error instanceof errors.PermissionViolationError) return next.value.error;
    }
  })();
  act();
  await connection.flush();
  const found = await Promise.race([seen, sleep(1_000).then(() => undefined)]);
  void iterator.return?.();
  return found;
}

const encode = (text: string) => new TextEncoder().encode(text);

describe("the NATS users and permissions", () => {
  it("are one user per component: the gateway and every service of the registry (@bancada/service-registry)", () => {
    const services = serviceNames();
    for (const service of services) expect(existsSync(path.join(repo, "services", service))).toBe(true);
    const withService = readdirSync(path.join(repo, "services")).filter((name) =>
      existsSync(path.join(repo, "services", name, "src/service.ts")),
    );
    expect([...services].sort()).toEqual(withService.sort());
    expect(permissionTable().map((entry) => entry.component)).toEqual(["gateway", ...services]);
  });

  it("let only the gateway publish calls and cancellations, and only the gateway subscribe to auth.resolve", () => {
    for (const entry of permissionTable({ root })) {
      const publishesCalls = entry.publish.some((subject) => /\.(call|cancel)$/.test(subject) && subject !== `${root}.gateway.cancel`);
      expect(publishesCalls, entry.component).toBe(entry.component === "gateway");
      const hearsAuth = entry.subscribe.some((subject) => subject.startsWith(`${root}.auth.`));
      expect(hearsAuth, entry.component).toBe(entry.component === "gateway");
      for (const subject of [...entry.publish, ...entry.subscribe]) expect(subject.split(" ")[0]).not.toMatch(/^(>|\*|bancada\.>)$/);
    }
  });

  it("are committed as infra/k8s/base/nats/auth.conf, exactly as the renderer writes it, with passwords from the environment", () => {
    const committed = readFileSync(path.join(repo, "infra/k8s/base/nats/auth.conf"), "utf8");
    expect(committed).toBe(renderK8sAuth());
    for (const component of ["gateway", ...serviceNames()]) expect(committed).toContain(`password: $${passwordVariable(component)}\n`);
  });

  it("are served over TLS in the committed nats.conf: the renderer's client and route blocks, on the Secret the nats pods mount", () => {
    const conf = readFileSync(path.join(repo, "infra/k8s/base/nats/nats.conf"), "utf8");
    const files = { caFile: "/etc/nats-tls/ca.crt", certFile: "/etc/nats-tls/tls.crt", keyFile: "/etc/nats-tls/tls.key" };
    expect(conf).toContain(`\n${renderClientTls(files)}\n`);
    const cluster = conf.slice(conf.indexOf("\ncluster {"));
    expect(cluster).toContain(`\n${indent(renderRouteTls(files))}\n}`);
  });

  it("refuse the scripts user a publish to the boards service's calls, to its own calls, and a subscription to auth.resolve", async () => {
    const scripts = await as("scripts");
    const toBoards = await violation(scripts, () => scripts.publish(`${root}.boards.call`, encode("{}")));
    expect(toBoards?.operation).toBe("publish");
    expect(toBoards?.subject).toBe(`${root}.boards.call`);
    expect((await violation(scripts, () => scripts.publish(`${root}.scripts.call`, encode("{}"))))?.operation).toBe("publish");
    expect((await violation(scripts, () => scripts.publish(`${root}.scripts.cancel`, encode(""))))?.operation).toBe("publish");
    expect((await violation(scripts, () => void scripts.subscribe(`${root}.auth.resolve`)))?.operation).toBe("subscription");
    // its own calls only in its queue group, never another service's
    expect((await violation(scripts, () => void scripts.subscribe(`${root}.scripts.call`)))?.operation).toBe("subscription");
    expect((await violation(scripts, () => void scripts.subscribe(`${root}.boards.call`, { queue: `${root}.boards` })))?.operation).toBe(
      "subscription",
    );
  });

  it("let the boxes control plane ask a node's agent and its replicas tell each other, and nobody else publish there", async () => {
    const agent = await as("boxes");
    const controlPlane = await as("boxes");
    agent.subscribe(`${root}.boxes.node.node-b.agent`, {
      queue: `${root}.boxes.node.node-b`,
      callback: (_error, msg) => void msg.respond(encode(`node-b ran ${msg.string()}`)),
    });
    await agent.flush();
    expect((await controlPlane.request(`${root}.boxes.node.node-b.agent`, encode("exec"), { timeout: 2_000 })).string()).toBe(
      "node-b ran exec",
    );
    agent.subscribe(`${root}.boxes.replicas.events`);
    controlPlane.publish(`${root}.boxes.replicas.events`, encode("{}"));
    await controlPlane.flush();
    const scripts = await as("scripts");
    const gateway = await as("gateway");
    for (const subject of [`${root}.boxes.node.node-b.agent`, `${root}.boxes.node.node-b.agent-cancel`, `${root}.boxes.replicas.events`]) {
      expect((await violation(scripts, () => scripts.publish(subject, encode("{}"))))?.operation).toBe("publish");
      expect((await violation(gateway, () => gateway.publish(subject, encode("{}"))))?.operation).toBe("publish");
    }
  });

  it("carry a call from the gateway to the service and back, a key resolution from a service to the gateway, and parts over inboxes", async () => {
    const gateway = await as("gateway");
    const scripts = await as("scripts");
    scripts.subscribe(`${root}.scripts.call`, {
      queue: `${root}.scripts`,
      callback: (_error, msg) => void msg.respond(encode(`ran ${msg.string()}`)),
    });
    gateway.subscribe(`${root}.auth.resolve`, {
      queue: `${root}.gateway`,
      callback: (_error, msg) => void msg.respond(encode("principal")),
    });
    // a body offered in parts: the sender subscribes to a fresh inbox, the receiver requests each part there
    const offer = `_INBOX.scripts.parts-${Date.now()}`;
    scripts.subscribe(offer, { callback: (_error, msg) => void msg.respond(encode(`part ${msg.string()}`)) });
    await scripts.flush();
    await gateway.flush();
    expect((await gateway.request(`${root}.scripts.call`, encode("get_script"), { timeout: 2_000 })).string()).toBe("ran get_script");
    expect((await scripts.request(`${root}.auth.resolve`, encode("digest"), { timeout: 2_000 })).string()).toBe("principal");
    expect((await gateway.request(offer, encode("0"), { timeout: 2_000 })).string()).toBe("part 0");
    const progress = await violation(scripts, () => scripts.publish(`${root}.progress.scripts.call-1`, encode("{}")));
    expect(progress).toBeUndefined();
  });

  it("let a service publish the progress of its own calls only, and the gateway hear every service's", async () => {
    const gateway = await as("gateway");
    const scripts = await as("scripts");
    const docs = await as("docs");
    const heard: string[] = [];
    gateway.subscribe(`${root}.progress.*.*`, { callback: (_error, msg) => void heard.push(msg.subject) });
    await gateway.flush();
    expect(await violation(scripts, () => scripts.publish(`${root}.progress.scripts.call-2`, encode("{}")))).toBeUndefined();
    // docs speaking into a scripts call's progress stream, or on the old subject shape: refused by NATS
    const intoScripts = await violation(docs, () => docs.publish(`${root}.progress.scripts.call-2`, encode("{}")));
    expect(intoScripts?.operation).toBe("publish");
    expect((await violation(docs, () => docs.publish(`${root}.progress.call-2`, encode("{}"))))?.operation).toBe("publish");
    await gateway.flush();
    expect(heard).toEqual([`${root}.progress.scripts.call-2`]);
  });

  it("let each component subscribe to its own inboxes only: no service hears the replies meant for another component", async () => {
    const docs = await as("docs");
    expect(await violation(docs, () => void docs.subscribe(`_INBOX.docs.parts-${Date.now()}`))).toBeUndefined();
    for (const subject of ["_INBOX.>", "_INBOX.gateway.>", "_INBOX.scripts.x", "_INBOX.abc"])
      expect((await violation(docs, () => void docs.subscribe(subject)))?.operation, subject).toBe("subscription");
    const gateway = await as("gateway");
    expect((await violation(gateway, () => void gateway.subscribe("_INBOX.scripts.>")))?.operation).toBe("subscription");
  });

  it("refuse a service's user the queue group and subjects of another service (it cannot take another's calls or catalog requests)", async () => {
    const docs = await as("docs");
    for (const subject of ["call", "catalog", "cancel"]) {
      const joined = await violation(docs, () => void docs.subscribe(`${root}.scripts.${subject}`, { queue: `${root}.scripts` }));
      expect(joined?.operation, subject).toBe("subscription");
    }
  });
});
