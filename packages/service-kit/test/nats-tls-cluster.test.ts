/**
 * The bus on a shared network: three real nats-servers (loopback ports of this test's own) with TLS on the client
 * port and on the routes between them (infra/nats/tls.mjs, certificates made here with openssl) and the rendered
 * users (infra/nats/permissions.mjs). A call from the gateway on one node reaches a service on another over TLS
 * routes and comes back; a connection without TLS, or one that does not trust the cluster's CA, is refused; and a
 * component cannot subscribe to another component's inboxes nor to `_INBOX.>`, whichever node it is on.
 */
import { spawnSync } from "node:child_process";
import { randomUUID } from "node:crypto";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { Header, subjects as makeSubjects, type CallReply } from "@bancada/contracts";
import { connect, type NatsConnection } from "@nats-io/transport-node";
import { errors } from "@nats-io/nats-core";
import { freePort, natsServerPresent, startNatsServer, type TestNatsServer } from "@bancada/testkit";
// the permissions' and TLS blocks' one source; infra is not a package service-kit depends on (only this test)
// eslint-disable-next-line import-x/no-relative-packages
import { renderAuthorization } from "../../../infra/nats/permissions.mjs";
// eslint-disable-next-line import-x/no-relative-packages
import { indent, makeCertificates, renderClientTls, renderRouteTls, type Certificates } from "../../../infra/nats/tls.mjs";
import {
  BusKeys,
  admitsReply,
  checkReply,
  connectNatsBus,
  createLogger,
  decodeJson,
  defineTool,
  encodeJson,
  hostTools,
  signBusMessage,
  type NatsBus,
} from "../src/index.js";
import { docsReader } from "./principal.js";

const root = makeSubjects("bancada");
const password = (component: string) => `pw-${component}-0123456789`;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const echo = defineTool({
  name: "echo",
  description: "Returns its text.",
  input: z.strictObject({ text: z.string() }),
  output: z.object({ text: z.string() }),
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  scope: "docs:read",
  handler: async (_ctx, input) => ({ text: input.text }),
});

/** The certificates are made at run time with openssl (infra/nats/tls.mjs). */
const opensslPresent = spawnSync(process.env.OPENSSL_BIN || "openssl", ["version"]).status === 0;

interface Node {
  server: TestNatsServer;
  monitor: string;
}

describe.skipIf(!natsServerPresent || !opensslPresent)(
  "the bus over a TLS NATS cluster of three nodes (skipped without nats-server or openssl)",
  () => {
    let folder: string;
    let certificates: Certificates;
    const nodes: Node[] = [];
    const open: NatsConnection[] = [];
    const buses: NatsBus[] = [];
    const master = BusKeys.generate();
    const tlsUrl = (node: Node) => `tls://127.0.0.1:${node.server.port}`;

    beforeAll(async () => {
      folder = await mkdtemp(path.join(tmpdir(), "bancada-nats-tls-"));
      certificates = makeCertificates(path.join(folder, "certs"));
      const ports = await Promise.all(
        [0, 1, 2].map(async () => ({ client: await freePort(), route: await freePort(), monitor: await freePort() })),
      );
      const authorization = renderAuthorization({ root: "bancada", services: ["scripts", "docs"], password });
      for (const [index, port] of ports.entries()) {
        const routes = ports.filter((other) => other !== port).map((other) => JSON.stringify(`nats-route://127.0.0.1:${other.route}`));
        const config = path.join(folder, `n${index + 1}.conf`);
        await writeFile(
          config,
          [
            `server_name: "n${index + 1}"`,
            `http: "127.0.0.1:${port.monitor}"`,
            renderClientTls(certificates),
            "cluster {",
            '  name: "bancada-tls-test"',
            `  listen: "127.0.0.1:${port.route}"`,
            `  routes: [${routes.join(", ")}]`,
            indent(renderRouteTls(certificates)),
            "}",
            authorization,
          ].join("\n"),
        );
        nodes.push({
          server: await startNatsServer({ port: port.client, args: ["-c", config] }),
          monitor: `http://127.0.0.1:${port.monitor}`,
        });
      }
      // the routes are up once every node counts the two others
      for (let attempt = 0; ; attempt++) {
        const routes = await Promise.all(
          nodes.map(async (node) => ((await (await fetch(`${node.monitor}/routez`)).json()) as { num_routes: number }).num_routes),
        );
        if (routes.every((count) => count === 2)) break;
        if (attempt > 100) throw new Error(`the TLS routes did not form: ${routes.join(", ")}`);
        await sleep(100);
      }
    }, 30_000);

    afterAll(async () => {
      await Promise.allSettled([...buses.map((bus) => bus.close(1_000)), ...open.map((connection) => connection.close())]);
      await Promise.allSettled(nodes.map((node) => node.server.kill()));
      if (folder) await rm(folder, { recursive: true, force: true });
    });

    const bus = async (user: string, keys: BusKeys, node: Node) => {
      const connected = await connectNatsBus({
        url: tlsUrl(node),
        name: user,
        keys,
        user,
        password: password(user),
        tls: { caFile: certificates.caFile },
      });
      buses.push(connected);
      return connected;
    };

    it("when the gateway on node 1 calls a service on node 3, then the call and its reply cross the TLS routes, and every connection is TLS", async () => {
      const gateway = await bus("gateway", master, nodes[0]!);
      const scripts = await bus("scripts", master.only(["scripts"]), nodes[2]!);
      const host = hostTools({
        bus: scripts,
        subjects: root,
        service: "scripts",
        version: "1",
        instructions: "",
        tools: [echo],
        log: createLogger("t", "silent"),
      });
      try {
        const data = encodeJson({ kind: "tool", tool: "echo", args: { text: "over tls" } });
        const plain = {
          [Header.principal]: JSON.stringify(docsReader),
          [Header.callId]: randomUUID(),
          [Header.deadline]: String(Date.now() + 10_000),
          [Header.transport]: "http",
        };
        const key = master.for("scripts");
        const request = { data, headers: signBusMessage(key, root.call("scripts"), plain, data) };
        // the service's subscription reaches node 1 through the routes
        let reply;
        for (let attempt = 0; !reply; attempt++) {
          reply = await gateway
            .request(root.call("scripts"), data, {
              timeoutMs: 5_000,
              headers: request.headers,
              admitReply: admitsReply(key, root.call("scripts"), request),
            })
            .catch((error: Error) => (attempt < 50 ? sleep(100).then(() => undefined) : Promise.reject(error)));
        }
        expect(checkReply(key, root.call("scripts"), request, reply)).toBeUndefined();
        expect((decodeJson(reply.data) as CallReply & { result: { text: string } }).result).toEqual({ text: "over tls" });
        for (const [index, node] of [nodes[0]!, nodes[2]!].entries()) {
          const connz = (await (await fetch(`${node.monitor}/connz?auth=true`)).json()) as {
            connections: { authorized_user?: string; tls_version?: string }[];
          };
          const user = index === 0 ? "gateway" : "scripts";
          const mine = connz.connections.filter((connection) => connection.authorized_user === user);
          expect(mine.length, `${user} on its node`).toBeGreaterThan(0);
          for (const connection of mine) expect(connection.tls_version, user).toMatch(/^1\.[23]$/);
        }
      } finally {
        host.stop();
      }
    });

    it("when a component connects without TLS, or without trusting the cluster's CA, then every node refuses it", async () => {
      for (const node of nodes) {
        // tls: null: the client never upgrades, as a plaintext client would not
        const plaintext = connect({ servers: node.server.url, user: "docs", pass: password("docs"), tls: null, maxReconnectAttempts: 0 });
        await expect(plaintext, `plaintext to ${node.server.url}`).rejects.toThrow();
      }
      // the system's CAs do not know the cluster's: the server's certificate is refused
      await expect(
        connectNatsBus({ url: tlsUrl(nodes[1]!), name: "docs", keys: master.only(["docs"]), user: "docs", password: password("docs") }),
      ).rejects.toThrow(/certificate/i);
    });

    it("when a component subscribes to another component's inboxes or to _INBOX.>, on any node, then NATS refuses it and it hears no reply", async () => {
      // the gateway's replies flow on node 2 while docs, on every node in turn, tries to hear them
      const gateway = await bus("gateway", master, nodes[1]!);
      const scripts = await bus("scripts", master.only(["scripts"]), nodes[1]!);
      const host = hostTools({
        bus: scripts,
        subjects: root,
        service: "scripts",
        version: "1",
        instructions: "",
        tools: [echo],
        log: createLogger("t", "silent"),
      });
      try {
        for (const node of nodes) {
          const docs = await connect({
            servers: tlsUrl(node),
            user: "docs",
            pass: password("docs"),
            inboxPrefix: "_INBOX.docs",
            tls: { caFile: certificates.caFile },
          });
          open.push(docs);
          const refused: string[] = [];
          void (async () => {
            for await (const status of docs.status())
              if (
                status.type === "error" &&
                status.error instanceof errors.PermissionViolationError &&
                status.error.operation === "subscription"
              )
                refused.push(status.error.subject);
          })();
          const heard: string[] = [];
          const stolen = ["_INBOX.>", "_INBOX.gateway.>", "_INBOX.scripts.>", "_INBOX.*"];
          // a refused subscription's callback is called once with the violation: only messages count as heard
          for (const subject of stolen)
            docs.subscribe(subject, { callback: (error, msg) => void (error ? undefined : heard.push(msg.subject)) });
          // its own inboxes stay its own to use
          docs.subscribe(`_INBOX.docs.${randomUUID()}`);
          await docs.flush();
          const data = encodeJson({ kind: "tool", tool: "echo", args: { text: "secret" } });
          const key = master.for("scripts");
          const plain = {
            [Header.principal]: JSON.stringify(docsReader),
            [Header.callId]: randomUUID(),
            [Header.deadline]: String(Date.now() + 10_000),
            [Header.transport]: "http",
          };
          const request = { data, headers: signBusMessage(key, root.call("scripts"), plain, data) };
          const reply = await gateway.request(root.call("scripts"), data, { timeoutMs: 5_000, headers: request.headers });
          expect((decodeJson(reply.data) as { ok: boolean }).ok).toBe(true);
          await sleep(300);
          expect([...refused].sort(), `docs on ${node.server.url}`).toEqual([...stolen].sort());
          expect(heard).toEqual([]);
        }
      } finally {
        host.stop();
      }
    });
  },
);
