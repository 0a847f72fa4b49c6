/**
 * Bodies announced in parts are promises anyone on NATS can make: a service pulls no part of a call whose tag does
 * not name the announced size, a caller no part of a reply whose tag does not, and nobody more than the bus's caps.
 * And what a service says back (reply, catalog, progress) carries its tag on both buses alike.
 */
import { randomUUID } from "node:crypto";
import { connect, type NatsConnection } from "@nats-io/transport-node";
import { headers as natsHeaders } from "@nats-io/nats-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { Header, subjects as makeSubjects, type CallReply } from "@bancada/contracts";
import {
  BusKeys,
  BusRequestError,
  MemoryBus,
  admitsReply,
  checkBusSignature,
  checkReply,
  connectNatsBus,
  createLogger,
  decodeJson,
  defineTool,
  encodeJson,
  hostTools,
  maxBusBodyBytes,
  signBusMessage,
  type Bus,
  type NatsBus,
} from "../src/index.js";
import { docsReader } from "./principal.js";

const natsUrl = process.env.NATS_URL;
const countTo = defineTool({
  name: "count_to",
  description: "Counts, reporting progress.",
  input: z.strictObject({ n: z.number().int().min(1).max(3), pad: z.string().optional() }),
  output: z.object({ counted: z.number() }),
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  scope: "docs:read",
  handler: async (ctx, input) => {
    for (let i = 1; i <= input.n; i++) ctx.progress({ progress: i, total: input.n });
    return { counted: input.n };
  },
});

function host(bus: Bus) {
  const root = makeSubjects(`parts${randomUUID().slice(0, 8)}`);
  const tools = hostTools({
    bus,
    subjects: root,
    service: "echo",
    version: "1",
    instructions: "",
    tools: [countTo],
    log: createLogger("t", "silent"),
  });
  return { root, tools };
}

function call(args: unknown, progress = false) {
  const data = encodeJson({ kind: "tool", tool: "count_to", args });
  const plain = {
    [Header.principal]: JSON.stringify(docsReader),
    [Header.callId]: randomUUID(),
    [Header.deadline]: String(Date.now() + 30_000),
    [Header.transport]: "http",
    ...(progress ? { [Header.progress]: "1" } : {}),
  };
  return { data, plain };
}

const makers: [string, () => Promise<Bus>][] = [["memory", async () => new MemoryBus()]];
if (natsUrl) makers.push(["nats", () => connectNatsBus({ url: natsUrl, name: "bus-parts-trust", keys: BusKeys.generate() })]);

describe.each(makers)("what a service says back, on the %s bus", (_name, makeBus) => {
  it("when the service answers a call, its catalog and progress, then each carries its tag for that request, which no other key makes", async () => {
    const bus = await makeBus();
    const { root, tools } = host(bus);
    const key = bus.keys.for("echo");
    const { data, plain } = call({ n: 2 }, true);
    const request = { data, headers: signBusMessage(key, root.call("echo"), plain, data) };
    const progress: { headers: Record<string, string>; data: Uint8Array }[] = [];
    const subject = root.progress("echo", plain[Header.callId]);
    const listening = bus.subscribe(subject, (message) => void progress.push({ headers: { ...message.headers }, data: message.data }));
    const reply = await bus.request(root.call("echo"), data, { timeoutMs: 5_000, headers: request.headers });
    expect(decodeJson(reply.data)).toEqual({ ok: true, result: { counted: 2 } });
    expect(checkReply(key, root.call("echo"), request, reply)).toBeUndefined();
    expect(checkReply(bus.keys.for("boards"), root.call("echo"), request, reply)).toBe("bad_signature");
    // the same reply is no answer to another call
    const other = { data, headers: { ...request.headers, [Header.callId]: randomUUID() } };
    expect(checkReply(key, root.call("echo"), other, reply)).toBe("bad_signature");
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(progress).toHaveLength(2);
    for (const update of progress) expect(checkBusSignature(key, subject, update)).toBeUndefined();
    const catalogRequest = { data: encodeJson({}), headers: { [Header.callId]: randomUUID() } };
    const catalog = await bus.request(root.catalog("echo"), catalogRequest.data, { timeoutMs: 5_000, headers: catalogRequest.headers });
    expect(checkReply(key, root.catalog("echo"), catalogRequest, catalog)).toBeUndefined();
    expect(checkReply(key, root.catalog("echo"), { ...catalogRequest, headers: { [Header.callId]: "an earlier request" } }, catalog)).toBe(
      "bad_signature",
    );
    listening.unsubscribe();
    tools.stop();
    await bus.close();
  });
});

describe.skipIf(!natsUrl)("a body announced in parts over NATS (skipped without NATS_URL)", () => {
  let bus: NatsBus;
  let nats: NatsConnection;
  beforeAll(async () => {
    bus = await connectNatsBus({ url: natsUrl!, name: "bus-parts-trust", keys: BusKeys.generate() });
    nats = await connect({ servers: natsUrl! });
  });
  afterAll(async () => {
    await nats?.close();
    await bus?.close();
  });

  /** An inbox that counts the part requests it gets (and answers none): what a body's announcement points at. */
  async function partsInbox(): Promise<{ subject: string; pulls: () => number; close: () => void }> {
    let pulls = 0;
    const subject = `_INBOX.probe-${randomUUID()}`;
    const subscription = nats.subscribe(subject, { callback: () => void pulls++ });
    await nats.flush();
    return { subject, pulls: () => pulls, close: () => subscription.unsubscribe() };
  }

  const announcing = (headers: Record<string, string>, parts: string, count: number, bytes: number) => {
    const result = natsHeaders();
    for (const [name, value] of Object.entries(headers)) result.set(name, value);
    result.set("bancada-parts", `${parts} ${count} ${bytes}`);
    return result;
  };

  it("when a call to a service announces 300 MB unsigned, or a size its tag does not name, then the service pulls no part and answers unauthenticated", async () => {
    const { root, tools } = host(bus);
    const inbox = await partsInbox();
    const { data, plain } = call({ n: 1 });
    const ask = async (headers: ReturnType<typeof natsHeaders>) =>
      (await nats.request(root.call("echo"), new Uint8Array(), { timeout: 5_000, headers })).json<CallReply>();
    for (let i = 0; i < 3; i++)
      expect(await ask(announcing(plain, inbox.subject, 300, 300 * 1024 * 1024))).toMatchObject({
        ok: false,
        error: { code: "unauthenticated", details: { reason: "unsigned" } },
      });
    // a genuine tag of a small call, its body swapped for an announcement of 2 MiB: the tag names another size
    const genuine = signBusMessage(bus.keys.for("echo"), root.call("echo"), plain, data);
    expect(await ask(announcing(genuine, inbox.subject, 3, 2 * 1024 * 1024))).toMatchObject({
      ok: false,
      error: { code: "unauthenticated", details: { reason: "bad_signature" } },
    });
    await nats.flush();
    expect(inbox.pulls()).toBe(0);
    inbox.close();
    tools.stop();
  });

  it("when a genuine call is larger than one NATS message, then its parts are pulled and it runs", async () => {
    const { root, tools } = host(bus);
    const { data, plain } = call({ n: 1, pad: "x".repeat(2_500_000) });
    const headers = signBusMessage(bus.keys.for("echo"), root.call("echo"), plain, data);
    const reply = await bus.request(root.call("echo"), data, { timeoutMs: 20_000, headers });
    expect(decodeJson(reply.data)).toEqual({ ok: true, result: { counted: 1 } });
    tools.stop();
  });

  it("when a reply announces 600 MB, then the caller pulls no part: refused by the tag check, or as too large without one", async () => {
    const subject = `parts${randomUUID().slice(0, 8)}.echo.call`;
    const inbox = await partsInbox();
    const rogue = nats.subscribe(subject, {
      callback: (_error, msg) => void msg.respond(new Uint8Array(), { headers: announcing({}, inbox.subject, 600, 600 * 1024 * 1024) }),
    });
    await nats.flush();
    const request = { data: encodeJson({ kind: "tool" }), headers: { [Header.callId]: randomUUID() } };
    const admitted = await bus.request(subject, request.data, {
      timeoutMs: 5_000,
      headers: request.headers,
      admitReply: admitsReply(bus.keys.for("echo"), subject, request),
    });
    // handed on without a body, for the reply check to refuse
    expect(admitted.data.byteLength).toBe(0);
    expect(checkReply(bus.keys.for("echo"), subject, request, admitted)).toBe("unsigned");
    const unchecked = bus.request(subject, request.data, { timeoutMs: 5_000 });
    await expect(unchecked).rejects.toBeInstanceOf(BusRequestError);
    await expect(unchecked).rejects.toMatchObject({ reason: "too_large" });
    await nats.flush();
    expect(inbox.pulls()).toBe(0);
    expect(600 * 1024 * 1024).toBeGreaterThan(maxBusBodyBytes);
    rogue.unsubscribe();
    inbox.close();
  });
});
