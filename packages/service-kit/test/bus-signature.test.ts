/**
 * Tagged bus messages: what a tag covers, how long it lives, that a tag made with one service's key is no good
 * to another, that a service runs a call once, and that the in-process bus goes through the same checks as NATS
 * (over NATS also with a body sent in parts).
 */
import { generateKeyPairSync, randomBytes, randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { Header, subjects as makeSubjects, type CallReply } from "@bancada/contracts";
import {
  BusKeyError,
  BusKeys,
  MemoryBus,
  ReplayGuard,
  busKeyResolver,
  checkBusAnnouncement,
  checkBusSignature,
  gatewayKeyScope,
  connectNatsBus,
  createLogger,
  decodeJson,
  defineTool,
  encodeJson,
  hostTools,
  signBusMessage,
  signatureLifetimeMs,
  type Bus,
} from "../src/index.js";
import { docsReader } from "./principal.js";

const subject = "t.scripts.call";
const principal = docsReader;
const plain = () => ({
  [Header.principal]: JSON.stringify(principal),
  [Header.callId]: randomUUID(),
  [Header.deadline]: String(Date.now() + 30_000),
  [Header.transport]: "http",
});
const body = encodeJson({ kind: "tool", tool: "echo", args: { message: "hi" } });

describe("a bus signature", () => {
  const keys = BusKeys.generate();
  const scripts = keys.for("scripts");

  it("when nothing was changed, then it checks; when any covered part was, then it does not", () => {
    const headers = signBusMessage(scripts, subject, plain(), body);
    expect(checkBusSignature(scripts, subject, { headers, data: body })).toBeUndefined();
    expect(checkBusSignature(scripts, "t.boxes.call", { headers, data: body })).toBe("bad_signature");
    expect(
      checkBusSignature(scripts, subject, { headers, data: encodeJson({ kind: "tool", tool: "echo", args: { message: "ho" } }) }),
    ).toBe("bad_signature");
    for (const name of [Header.principal, Header.callId, Header.deadline, Header.transport, Header.expires]) {
      expect(checkBusSignature(scripts, subject, { headers: { ...headers, [name]: `${headers[name]}x` }, data: body }), name).toBe(
        "bad_signature",
      );
    }
    expect(checkBusSignature(scripts, subject, { headers: { ...headers, [Header.progress]: "1" }, data: body })).toBe("bad_signature");
    expect(checkBusSignature(scripts, subject, { headers: { ...headers, [Header.traceparent]: "00-x" }, data: body })).toBeUndefined();
    const { [Header.signature]: _signature, ...unsigned } = headers;
    expect(checkBusSignature(scripts, subject, { headers: unsigned, data: body })).toBe("unsigned");
    for (const tag of ["%%%", headers[Header.signature]!.slice(0, 20), `${headers[Header.signature]}AAAA`])
      expect(checkBusSignature(scripts, subject, { headers: { ...headers, [Header.signature]: tag }, data: body }), tag).toBe(
        "bad_signature",
      );
    expect(checkBusSignature(BusKeys.generate().for("scripts"), subject, { headers, data: body })).toBe("bad_signature");
  });

  it("when a message is tagged with one service's key, then another service refuses it, whatever subject it names; a service's keys derive no other", () => {
    const boards = keys.for("boards");
    // what a compromised boards process could make: a call to scripts tagged with the key it holds
    const forged = signBusMessage(boards, subject, plain(), body);
    expect(checkBusSignature(scripts, subject, { headers: forged, data: body })).toBe("bad_signature");
    // and a genuine call to scripts is no good to boards, even moved onto its subject
    const genuine = signBusMessage(scripts, subject, plain(), body);
    expect(checkBusSignature(boards, "t.boards.call", { headers: genuine, data: body })).toBe("bad_signature");
    expect(checkBusSignature(boards, subject, { headers: genuine, data: body })).toBe("bad_signature");
    // a process given only the boards key checks boards' calls and can make no key for scripts or the gateways
    const boardsProcess = BusKeys.from({ verifyKey: keys.only(["boards"]).export().verifyKey });
    expect(boardsProcess.holdsMaster).toBe(false);
    expect(boardsProcess.scopes).toEqual(["boards"]);
    expect(
      checkBusSignature(boardsProcess.for("boards"), "t.boards.call", {
        headers: signBusMessage(boards, "t.boards.call", plain(), body),
        data: body,
      }),
    ).toBeUndefined();
    expect(() => boardsProcess.for("scripts")).toThrow(BusKeyError);
    expect(() => boardsProcess.for(gatewayKeyScope)).toThrow(/holds no bus key for 'gateway'/);
    expect(boardsProcess.export()).toEqual({ verifyKey: keys.only(["boards"]).export().verifyKey });
    expect(keys.for("boards").export()).not.toBe(keys.for("scripts").export());
    expect(keys.for("boards").export()).not.toBe(BusKeys.generate().for("boards").export());
  });

  it("when a tag is checked before its body has come, then it must name the announced size; the body that comes must be the one named", () => {
    const headers = signBusMessage(scripts, subject, plain(), body);
    expect(headers[Header.body]).toMatch(new RegExp(`^${body.byteLength} [A-Za-z0-9_-]{43}$`));
    expect(checkBusAnnouncement(scripts, subject, headers, body.byteLength)).toBeUndefined();
    expect(checkBusAnnouncement(scripts, subject, headers, 300 * 1024 * 1024)).toBe("bad_signature");
    expect(checkBusAnnouncement(scripts, subject, { ...headers, [Header.body]: `${300 * 1024 * 1024} x` }, 300 * 1024 * 1024)).toBe(
      "bad_signature",
    );
    const { [Header.signature]: _tag, ...unsigned } = headers;
    expect(checkBusAnnouncement(scripts, subject, unsigned, body.byteLength)).toBe("unsigned");
    expect(checkBusAnnouncement(keys.for("boards"), subject, headers, body.byteLength)).toBe("bad_signature");
    // the announcement checked, the body pulled: a body of the same size but other bytes is not the one tagged
    const swapped = body.slice();
    swapped[swapped.length - 3] = "x".charCodeAt(0);
    expect(checkBusSignature(scripts, subject, { headers, data: swapped })).toBe("bad_signature");
    expect(checkBusSignature(scripts, subject, { headers, data: new Uint8Array() })).toBe("bad_signature");
  });

  it("when a reply is checked against another request than the one it answers, then it does not check", () => {
    const headers = signBusMessage(scripts, subject, { [Header.callId]: "c" }, body, { answers: "request-1" });
    expect(checkBusSignature(scripts, subject, { headers, data: body }, { answers: "request-1" })).toBeUndefined();
    expect(checkBusSignature(scripts, subject, { headers, data: body }, { answers: "request-2" })).toBe("bad_signature");
    // a request's tag is no reply's, nor the other way round
    expect(checkBusSignature(scripts, subject, { headers, data: body })).toBe("bad_signature");
    const request = signBusMessage(scripts, subject, { [Header.callId]: "c" }, body);
    expect(checkBusSignature(scripts, subject, { headers: request, data: body }, { answers: "request-1" })).toBe("bad_signature");
  });

  it("when it is older than its lifetime (plus the clock skew), then it has expired; a deadline sooner than the lifetime ends it sooner", () => {
    const now = Date.now();
    const headers = signBusMessage(scripts, subject, plain(), body, { now });
    expect(Number(headers[Header.expires])).toBe(now + signatureLifetimeMs);
    expect(checkBusSignature(scripts, subject, { headers, data: body }, { now: now + signatureLifetimeMs + 4_000 })).toBeUndefined();
    expect(checkBusSignature(scripts, subject, { headers, data: body }, { now: now + signatureLifetimeMs + 6_000 })).toBe("expired");
    const soon = signBusMessage(scripts, subject, plain(), body, { now, notAfter: now + 1_000 });
    expect(checkBusSignature(scripts, subject, { headers: soon, data: body }, { now: now + 7_000 })).toBe("expired");
    const ahead = signBusMessage(scripts, subject, plain(), body, { now: now + 60_000 });
    expect(checkBusSignature(scripts, subject, { headers: ahead, data: body }, { now })).toBe("clock_skew");
  });

  it("when a call id is offered twice within its lifetime, then the second is a repeat; expired ids are forgotten", () => {
    const guard = new ReplayGuard();
    const now = Date.now();
    expect(guard.firstSighting("a", now + 1_000, now)).toBe(true);
    expect(guard.firstSighting("a", now + 1_000, now + 500)).toBe(false);
    expect(guard.firstSighting("b", now + 30_000, now + 10_000)).toBe(true);
    expect(guard.size).toBe(1);
  });
});

describe("bus keys", () => {
  it("when given as the environment takes them, then the master derives every service's key and a service's line reads back the same key", () => {
    const master = BusKeys.generate();
    const { signingKey } = master.export();
    expect(signingKey).toHaveLength(44);
    const gateway = BusKeys.from({ signingKey });
    expect(gateway.holdsMaster).toBe(true);
    expect(gateway.for("scripts").export()).toBe(master.for("scripts").export());
    const line = master.only(["scripts", "boards"]).export().verifyKey!;
    expect(line).toMatch(/^scripts:[A-Za-z0-9+/]{43}=,boards:[A-Za-z0-9+/]{43}=$/);
    const service = BusKeys.from({ verifyKey: line });
    expect(service.scopes).toEqual(["scripts", "boards"]);
    expect(service.for("boards").export()).toBe(master.for("boards").export());
    // with both, each service key must be the master's
    expect(BusKeys.from({ signingKey, verifyKey: line }).holdsMaster).toBe(true);
    expect(() => BusKeys.from({ signingKey, verifyKey: BusKeys.generate().only(["scripts"]).export().verifyKey })).toThrow(
      /service 'scripts' is not derived from the master secret/,
    );
  });

  it("when a key is an old Ed25519 one, malformed, the wrong size or the gateways' own, then it is refused with what to do", () => {
    const { privateKey, publicKey } = generateKeyPairSync("ed25519");
    const old = [
      { signingKey: privateKey.export({ format: "pem", type: "pkcs8" }).toString() },
      { signingKey: privateKey.export({ format: "der", type: "pkcs8" }).toString("base64") },
      { verifyKey: publicKey.export({ format: "pem", type: "spki" }).toString() },
      { verifyKey: publicKey.export({ format: "der", type: "spki" }).toString("base64") },
    ];
    for (const source of old)
      expect(() => BusKeys.from(source)).toThrow(/this is an old Ed25519 key .*: run 'pnpm bancada bus-keys create'/);
    expect(() => BusKeys.from({})).toThrow(/No bus key given/);
    expect(() => BusKeys.from({ signingKey: "not a key" })).toThrow(/not base64/);
    expect(() => BusKeys.from({ signingKey: randomBytes(16).toString("base64") })).toThrow(/must be 32 random bytes/);
    expect(() => BusKeys.from({ verifyKey: randomBytes(32).toString("base64") })).toThrow(/'service:<key>' entries/);
    expect(() => BusKeys.from({ verifyKey: `scripts:${randomBytes(31).toString("base64")}` })).toThrow(/'scripts'.*must be 32 bytes/);
    expect(() => BusKeys.from({ verifyKey: `gateway:${randomBytes(32).toString("base64")}` })).toThrow(BusKeyError);
  });
});

const echo = defineTool({
  name: "echo",
  description: "Returns its input.",
  input: z.strictObject({ message: z.string() }),
  output: z.object({ message: z.string() }),
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  scope: "docs:read",
  handler: async (_ctx, input) => input,
});

const makers: [string, () => Promise<Bus>][] = [["memory", async () => new MemoryBus()]];
const natsUrl = process.env.NATS_URL;
if (natsUrl) makers.push(["nats", () => connectNatsBus({ url: natsUrl, name: "bus-signature", keys: BusKeys.generate() })]);

/** The echo tool served on a fresh subject root of `bus`. */
function echoHost(bus: Bus) {
  const root = makeSubjects(`sig${randomUUID().slice(0, 8)}`);
  const host = hostTools({
    bus,
    subjects: root,
    service: "echo",
    version: "1",
    instructions: "",
    tools: [echo],
    log: createLogger("t", "silent"),
  });
  return { root, host };
}

describe.each(makers)("the tool host on the %s bus", (_name, makeBus) => {
  it("when a call is unsigned, then it answers unauthenticated; a signed one runs once, its repeat is refused", async () => {
    const bus = await makeBus();
    const { root, host } = echoHost(bus);
    const ask = async (headers: Record<string, string>, data = body) =>
      decodeJson((await bus.request(root.call("echo"), data, { timeoutMs: 5_000, headers })).data) as CallReply;
    expect(await ask(plain())).toMatchObject({ ok: false, error: { code: "unauthenticated", details: { reason: "unsigned" } } });
    const signed = signBusMessage(bus.keys.for("echo"), root.call("echo"), plain(), body);
    expect(await ask(signed)).toEqual({ ok: true, result: { message: "hi" } });
    expect(await ask(signed)).toMatchObject({ ok: false, error: { details: { reason: "replayed" } } });
    // tagged for another service: refused, the same as a forgery
    const otherService = signBusMessage(bus.keys.for("boards"), root.call("echo"), plain(), body);
    expect(await ask(otherService)).toMatchObject({ ok: false, error: { code: "unauthenticated", details: { reason: "bad_signature" } } });
    host.stop();
    await bus.close();
  });

  it("when a body is larger than one NATS message, then the signature covers the whole reassembled body", async () => {
    const bus = await makeBus();
    const { root, host } = echoHost(bus);
    const big = (letter: string) => encodeJson({ kind: "tool", tool: "echo", args: { message: letter.repeat(2_500_000) } });
    const ask = async (data: Uint8Array, headers: Record<string, string>) =>
      decodeJson((await bus.request(root.call("echo"), data, { timeoutMs: 20_000, headers })).data) as CallReply;
    const reply = await ask(big("a"), signBusMessage(bus.keys.for("echo"), root.call("echo"), plain(), big("a")));
    expect(reply.ok).toBe(true);
    // the same length, one byte changed at the end: only a digest of the whole body tells them apart
    const tampered = big("a");
    tampered[tampered.length - 4] = "b".charCodeAt(0);
    expect(await ask(tampered, signBusMessage(bus.keys.for("echo"), root.call("echo"), plain(), big("a")))).toMatchObject({
      ok: false,
      error: { details: { reason: "bad_signature" } },
    });
    host.stop();
    await bus.close();
  });

  it("when something else on the bus answers a key resolution, then the service does not take its principal", async () => {
    const bus = await makeBus();
    const root = makeSubjects(`sig${randomUUID().slice(0, 8)}`);
    const rogue = bus.serve(root.authResolve, async () => ({ data: encodeJson({ principal }), headers: {} }));
    const resolver = busKeyResolver(bus, root, "echo", 0);
    await expect(resolver.resolve("bnc_anything")).rejects.toThrow(/not signed by the gateway/);
    rogue.unsubscribe();
    await bus.close();
  });
});
