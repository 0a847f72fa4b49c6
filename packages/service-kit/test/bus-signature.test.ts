/**
 * Signed bus messages: what a signature covers, how long it lives, that a service runs a call once, and that
 * the in-process bus goes through the same checks as NATS (over NATS also with a body sent in parts).
 */
import { generateKeyPairSync, randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { Header, subjects as makeSubjects, type CallReply } from "@bancada/contracts";
import {
  BusKeyError,
  BusKeys,
  MemoryBus,
  ReplayGuard,
  busKeyResolver,
  checkBusSignature,
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
import { checkBusSignatureOffLoop } from "../src/bus/bus-signature.js";
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

  it("when nothing was changed, then it checks; when any covered part was, then it does not", () => {
    const headers = signBusMessage(keys, subject, plain(), body);
    expect(checkBusSignature(keys, subject, { headers, data: body })).toBeUndefined();
    expect(checkBusSignature(keys, "t.boxes.call", { headers, data: body })).toBe("bad_signature");
    expect(checkBusSignature(keys, subject, { headers, data: encodeJson({ kind: "tool", tool: "echo", args: { message: "ho" } }) })).toBe(
      "bad_signature",
    );
    for (const name of [Header.principal, Header.callId, Header.deadline, Header.transport, Header.expires]) {
      expect(checkBusSignature(keys, subject, { headers: { ...headers, [name]: `${headers[name]}x` }, data: body }), name).toBe(
        "bad_signature",
      );
    }
    expect(checkBusSignature(keys, subject, { headers: { ...headers, [Header.progress]: "1" }, data: body })).toBe("bad_signature");
    expect(checkBusSignature(keys, subject, { headers: { ...headers, [Header.traceparent]: "00-x" }, data: body })).toBeUndefined();
    const { [Header.signature]: _signature, ...unsigned } = headers;
    expect(checkBusSignature(keys, subject, { headers: unsigned, data: body })).toBe("unsigned");
    expect(checkBusSignature(BusKeys.generate(), subject, { headers, data: body })).toBe("bad_signature");
  });

  it("when checked off the event loop (the tool host's check), then every verdict is the one checkBusSignature gives", async () => {
    const headers = signBusMessage(keys, subject, plain(), body);
    const old = signBusMessage(keys, subject, plain(), body, { now: Date.now() - 2 * signatureLifetimeMs });
    const { [Header.signature]: _signature, ...unsigned } = headers;
    const cases: [string, BusKeys, string, { headers: Record<string, string>; data: Uint8Array }][] = [
      ["intact", keys, subject, { headers, data: body }],
      ["another subject", keys, "t.boxes.call", { headers, data: body }],
      ["another body", keys, subject, { headers, data: encodeJson({ kind: "tool", tool: "echo", args: { message: "ho" } }) }],
      ["another principal", keys, subject, { headers: { ...headers, [Header.principal]: "{}" }, data: body }],
      ["unsigned", keys, subject, { headers: unsigned, data: body }],
      ["not base64", keys, subject, { headers: { ...headers, [Header.signature]: "%%%" }, data: body }],
      ["another key", BusKeys.generate(), subject, { headers, data: body }],
      ["expired", keys, subject, { headers: old, data: body }],
    ];
    for (const [name, checkKeys, checkSubject, message] of cases)
      expect(await checkBusSignatureOffLoop(checkKeys, checkSubject, message), name).toBe(
        checkBusSignature(checkKeys, checkSubject, message),
      );
    expect(await checkBusSignatureOffLoop(keys, subject, { headers, data: body })).toBeUndefined();
    expect(await checkBusSignatureOffLoop(keys, subject, { headers: old, data: body })).toBe("expired");
  });

  it("when a reply is checked against another request than the one it answers, then it does not check", () => {
    const headers = signBusMessage(keys, subject, { [Header.callId]: "c" }, body, { answers: "request-1" });
    expect(checkBusSignature(keys, subject, { headers, data: body }, { answers: "request-1" })).toBeUndefined();
    expect(checkBusSignature(keys, subject, { headers, data: body }, { answers: "request-2" })).toBe("bad_signature");
  });

  it("when it is older than its lifetime (plus the clock skew), then it has expired; a deadline sooner than the lifetime ends it sooner", () => {
    const now = Date.now();
    const headers = signBusMessage(keys, subject, plain(), body, { now });
    expect(Number(headers[Header.expires])).toBe(now + signatureLifetimeMs);
    expect(checkBusSignature(keys, subject, { headers, data: body }, { now: now + signatureLifetimeMs + 4_000 })).toBeUndefined();
    expect(checkBusSignature(keys, subject, { headers, data: body }, { now: now + signatureLifetimeMs + 6_000 })).toBe("expired");
    const soon = signBusMessage(keys, subject, plain(), body, { now, notAfter: now + 1_000 });
    expect(checkBusSignature(keys, subject, { headers: soon, data: body }, { now: now + 7_000 })).toBe("expired");
    const ahead = signBusMessage(keys, subject, plain(), body, { now: now + 60_000 });
    expect(checkBusSignature(keys, subject, { headers: ahead, data: body }, { now })).toBe("clock_skew");
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
  it("when given as PEM or base64 DER, then both halves read; a verify-only set cannot sign; a mismatched or non-Ed25519 key is refused", () => {
    const { privateKey, publicKey } = generateKeyPairSync("ed25519");
    const pem = BusKeys.from({
      signingKey: privateKey.export({ format: "pem", type: "pkcs8" }).toString(),
      verifyKey: publicKey.export({ format: "pem", type: "spki" }).toString(),
    });
    const verifyOnly = BusKeys.from({ verifyKey: pem.export().verifyKey });
    const data = new TextEncoder().encode("x");
    expect(verifyOnly.verify(data, pem.sign(data))).toBe(true);
    expect(verifyOnly.canSign).toBe(false);
    expect(() => verifyOnly.sign(data)).toThrow(/only the gateway signs/);
    expect(BusKeys.from({ signingKey: pem.export().signingKey }).canSign).toBe(true);
    expect(() => BusKeys.from({ signingKey: pem.export().signingKey, verifyKey: BusKeys.generate().export().verifyKey })).toThrow(
      /not one pair/,
    );
    const rsa = generateKeyPairSync("rsa", { modulusLength: 1024 }).publicKey.export({ format: "pem", type: "spki" }).toString();
    expect(() => BusKeys.from({ verifyKey: rsa })).toThrow(BusKeyError);
    expect(() => BusKeys.from({ verifyKey: "not a key" })).toThrow(/cannot be read/);
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
    const signed = signBusMessage(bus.keys, root.call("echo"), plain(), body);
    expect(await ask(signed)).toEqual({ ok: true, result: { message: "hi" } });
    expect(await ask(signed)).toMatchObject({ ok: false, error: { details: { reason: "replayed" } } });
    host.stop();
    await bus.close();
  });

  it("when a body is larger than one NATS message, then the signature covers the whole reassembled body", async () => {
    const bus = await makeBus();
    const { root, host } = echoHost(bus);
    const big = (letter: string) => encodeJson({ kind: "tool", tool: "echo", args: { message: letter.repeat(2_500_000) } });
    const ask = async (data: Uint8Array, headers: Record<string, string>) =>
      decodeJson((await bus.request(root.call("echo"), data, { timeoutMs: 20_000, headers })).data) as CallReply;
    const reply = await ask(big("a"), signBusMessage(bus.keys, root.call("echo"), plain(), big("a")));
    expect(reply.ok).toBe(true);
    // the same length, one byte changed at the end: only a digest of the whole body tells them apart
    const tampered = big("a");
    tampered[tampered.length - 4] = "b".charCodeAt(0);
    expect(await ask(tampered, signBusMessage(bus.keys, root.call("echo"), plain(), big("a")))).toMatchObject({
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
    const resolver = busKeyResolver(bus, root, 0);
    await expect(resolver.resolve("bnc_anything")).rejects.toThrow(/not signed by the gateway/);
    rogue.unsubscribe();
    await bus.close();
  });
});
