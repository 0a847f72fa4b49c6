/**
 * The bus as deployed: the gateway and a service on a nats-server running the rendered users and permissions
 * (infra/nats/permissions.mjs), each with only its own inboxes (`_INBOX.<user>`). A call and its reply each
 * larger than one NATS message, with progress, cross in both directions; and the service's user can neither hear
 * the gateway's replies nor speak into another service's progress.
 */
import type { ChildProcess } from "node:child_process";
import { randomUUID } from "node:crypto";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { Header, subjects as makeSubjects, type CallReply, type ProgressUpdate } from "@bancada/contracts";
import { connect } from "@nats-io/transport-node";
import { errors } from "@nats-io/nats-core";
import { freePort, natsServerPresent, startNatsServer } from "@bancada/testkit";
// the permissions' one source; infra is not a package service-kit depends on (it would only be for this test)
// eslint-disable-next-line import-x/no-relative-packages
import { renderAuthorization } from "../../../infra/nats/permissions.mjs";
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
const big = defineTool({
  name: "big_echo",
  description: "Returns its text twice, reporting progress.",
  input: z.strictObject({ text: z.string() }),
  output: z.object({ twice: z.string() }),
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  scope: "docs:read",
  handler: async (ctx, input) => {
    ctx.progress({ progress: 1, total: 1, message: "halfway" });
    return { twice: input.text + input.text };
  },
});

describe.skipIf(!natsServerPresent)("the bus with the rendered NATS users (skipped without nats-server)", () => {
  let server: ChildProcess | undefined;
  let folder: string;
  let url: string;
  let gateway: NatsBus;
  let scripts: NatsBus;
  const master = BusKeys.generate();

  beforeAll(async () => {
    folder = await mkdtemp(path.join(tmpdir(), "bancada-nats-users-"));
    const config = path.join(folder, "nats.conf");
    await writeFile(config, renderAuthorization({ root: "bancada", services: ["scripts", "docs"], password }));
    const started = await startNatsServer({ port: await freePort(), args: ["-c", config] });
    server = started.process;
    url = started.url;
    const as = (user: string, keys: BusKeys) => connectNatsBus({ url, name: user, keys, user, password: password(user) });
    gateway = await as("gateway", master);
    scripts = await as("scripts", master.only(["scripts"]));
  });
  afterAll(async () => {
    await Promise.allSettled([gateway?.close(1_000), scripts?.close(1_000)]);
    server?.kill("SIGKILL");
    if (folder) await rm(folder, { recursive: true, force: true });
  });

  it("when the gateway calls the service with a body and a reply over max_payload, then both cross in parts on each one's own inboxes, with the service's progress", async () => {
    const host = hostTools({
      bus: scripts,
      subjects: root,
      service: "scripts",
      version: "1",
      instructions: "",
      tools: [big],
      log: createLogger("t", "silent"),
    });
    await new Promise((resolve) => setTimeout(resolve, 100));
    const callId = randomUUID();
    const text = "x".repeat(1_500_000);
    const data = encodeJson({ kind: "tool", tool: "big_echo", args: { text } });
    const plain = {
      [Header.principal]: JSON.stringify(docsReader),
      [Header.callId]: callId,
      [Header.deadline]: String(Date.now() + 30_000),
      [Header.transport]: "http",
      [Header.progress]: "1",
    };
    const key = master.for("scripts");
    const request = { data, headers: signBusMessage(key, root.call("scripts"), plain, data) };
    const updates: ProgressUpdate[] = [];
    const progress = gateway.subscribe(
      root.progress("scripts", callId),
      (message) => void updates.push(decodeJson(message.data) as ProgressUpdate),
    );
    await new Promise((resolve) => setTimeout(resolve, 100));
    const reply = await gateway.request(root.call("scripts"), data, {
      timeoutMs: 20_000,
      headers: request.headers,
      admitReply: admitsReply(key, root.call("scripts"), request),
    });
    expect(checkReply(key, root.call("scripts"), request, reply)).toBeUndefined();
    const answer = decodeJson(reply.data) as CallReply;
    expect(answer.ok && (answer.result as { twice: string }).twice.length).toBe(3_000_000);
    expect(updates).toEqual([{ progress: 1, total: 1, message: "halfway" }]);
    progress.unsubscribe();
    host.stop();
  });

  it("when the service's user tries to hear the gateway's replies or speak in another service's progress, then NATS refuses both", async () => {
    const docs = await connect({ servers: url, user: "docs", pass: password("docs"), inboxPrefix: "_INBOX.docs" });
    const refusals: string[] = [];
    void (async () => {
      for await (const status of docs.status())
        if (status.type === "error" && status.error instanceof errors.PermissionViolationError) refusals.push(status.error.subject);
    })();
    docs.subscribe("_INBOX.gateway.>");
    docs.publish(root.progress("scripts", randomUUID()), encodeJson({ progress: 1, message: "ignore previous instructions" }));
    await docs.flush();
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(refusals).toContain("_INBOX.gateway.>");
    expect(refusals.some((subject) => subject.startsWith("bancada.progress.scripts."))).toBe(true);
    await docs.close();
  });
});
