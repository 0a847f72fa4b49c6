/**
 * What a client that can reach NATS, but holds no bus key, can do: nothing a service runs, and nothing secret
 * to read about API keys; and what one holding another service's key can do (a compromised service): nothing
 * this service runs, no key resolution in this service's name. A plain NATS client (not our bus) plays the
 * attacker against a real stack.
 */
import { randomUUID } from "node:crypto";
import { connect, type NatsConnection } from "@nats-io/transport-node";
import { headers as natsHeaders, type Msg } from "@nats-io/nats-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Header, type CallReply, type Principal } from "@bancada/contracts";
import { apiKeyDigest, bodyDigest, checkBusSignature, signBusMessage } from "@bancada/service-kit";
import { callServiceOverBus, captureLogs, connectClient, expectToolResult, natsUrl, startStack, type Stack } from "@bancada/e2e";
import { scriptsFactory } from "./fixtures.js";

interface Captured {
  subject: string;
  headers: Record<string, string>;
  data: Uint8Array;
}

describe.skipIf(!natsUrl)("a NATS client without the gateway's key (skipped without NATS_URL: it needs a real NATS server)", () => {
  let stack: Stack;
  let nats: NatsConnection;
  const logs = captureLogs();
  let keyA: string;
  let principalB: Principal;
  let scriptA: string;
  let scriptB: string;

  beforeAll(async () => {
    stack = await startStack({ services: { scripts: scriptsFactory }, log: logs.log });
    nats = await connect({ servers: natsUrl! });
    keyA = await stack.createKey();
    const keyB = await stack.createKey({ accountId: "acct-b", personId: "person-b" });
    principalB = (await stack.gateway.keys.resolve(keyB))!;
    const create = async (key: string, title: string) => {
      const client = await connectClient(stack.mcpUrl, key);
      const { script } = await expectToolResult<{ script: { id: string } }>(client, "create_script", { title, text: "secret plot" });
      await client.close();
      return script.id;
    };
    scriptA = await create(keyA, "A's script");
    scriptB = await create(keyB, "B's script");
  });
  afterAll(async () => {
    await nats?.close();
    await stack?.stop();
  });

  const callSubject = () => stack.subjects.call("scripts");
  const send = async (headers: Record<string, string>, data: Uint8Array): Promise<CallReply> => {
    const h = natsHeaders();
    for (const [name, value] of Object.entries(headers)) h.set(name, value);
    const reply = await nats.request(callSubject(), data, { timeout: 10_000, headers: h });
    return reply.json<CallReply>();
  };
  const getScriptBody = (id: string) => new TextEncoder().encode(JSON.stringify({ kind: "tool", tool: "get_script", args: { id } }));
  const refusals = () => logs.lines().filter((line) => line.msg === "refused a bus message not signed by the gateway");

  /** A genuine call as the gateway sends it, copied off the wire by a plain subscriber (NATS hands every subscriber a copy). */
  async function captureGenuineCall(): Promise<Captured> {
    const seen: Captured[] = [];
    const tap = nats.subscribe(callSubject(), { callback: (_error, msg) => void seen.push(copy(msg)) });
    const client = await connectClient(stack.mcpUrl, keyA);
    await expectToolResult(client, "get_script", { id: scriptA });
    await client.close();
    await nats.flush();
    tap.unsubscribe();
    expect(seen).toHaveLength(1);
    return seen[0]!;
  }

  it("when it sends a call with a forged principal header, then the service refuses it as unauthenticated, runs nothing, and logs the subject and reason without the body", async () => {
    const reply = await send(
      {
        [Header.principal]: JSON.stringify(principalB),
        [Header.callId]: randomUUID(),
        [Header.deadline]: String(Date.now() + 30_000),
        [Header.transport]: "http",
      },
      getScriptBody(scriptB),
    );
    expect(reply.ok).toBe(false);
    if (reply.ok) return;
    expect(reply.error.code).toBe("unauthenticated");
    expect(reply.error.message).toMatch(/not signed by the gateway/);
    expect(JSON.stringify(reply)).not.toContain("secret plot");
    // the same call tagged with the scripts key runs: the refusal is the signature's doing
    const signed = await callServiceOverBus(stack, "scripts", principalB, { kind: "tool", tool: "get_script", args: { id: scriptB } });
    expect(signed).toMatchObject({ ok: true, result: { script: { id: scriptB } } });
    const logged = refusals().find((line) => line.reason === "unsigned");
    expect(logged).toMatchObject({ level: 40, subject: callSubject(), reason: "unsigned" });
    expect(JSON.stringify(logged)).not.toContain(scriptB);
  });

  it("when it replays a captured genuine call, then the repeat is refused (same call id); and a genuinely signed call past its expiry is refused as expired", async () => {
    const captured = await captureGenuineCall();
    const replayed = await send(captured.headers, captured.data);
    expect(replayed).toMatchObject({ ok: false, error: { code: "unauthenticated", details: { reason: "replayed" } } });

    // what a capture looks like once its lifetime has passed: signed with the gateway's own key 40 s ago
    const { [Header.signature]: _s, [Header.expires]: _e, ...plain } = captured.headers;
    const stale = signBusMessage(stack.bus.keys.for("scripts"), callSubject(), { ...plain, [Header.callId]: randomUUID() }, captured.data, {
      now: Date.now() - 40_000,
    });
    const expired = await send(stale, captured.data);
    expect(expired).toMatchObject({ ok: false, error: { code: "unauthenticated", details: { reason: "expired" } } });
    expect((expired as { error: { message: string } }).error.message).toMatch(/signature has expired/);
    expect(refusals().map((line) => line.reason)).toEqual(expect.arrayContaining(["replayed", "expired"]));
  });

  it("when it keeps a genuine signature but changes the arguments, the principal or the subject, then the service refuses it", async () => {
    const captured = await captureGenuineCall();
    const fresh = { ...captured.headers, [Header.callId]: captured.headers[Header.callId]! };
    const otherArgs = await send(fresh, getScriptBody(scriptB));
    expect(otherArgs).toMatchObject({ ok: false, error: { code: "unauthenticated", details: { reason: "bad_signature" } } });
    const otherPrincipal = await send({ ...fresh, [Header.principal]: JSON.stringify(principalB) }, captured.data);
    expect(otherPrincipal).toMatchObject({ ok: false, error: { details: { reason: "bad_signature" } } });
    expect(refusals().some((line) => line.reason === "bad_signature" && line.subject === callSubject())).toBe(true);
  });

  it("when it holds another service's key (a compromised boards process), then a call it tags for scripts is refused as bad_signature", async () => {
    const boardsKey = stack.bus.keys.for("boards");
    const body = getScriptBody(scriptB);
    const plain = {
      [Header.principal]: JSON.stringify(principalB),
      [Header.callId]: randomUUID(),
      [Header.deadline]: String(Date.now() + 30_000),
      [Header.transport]: "http",
    };
    const forged = await send(signBusMessage(boardsKey, callSubject(), plain, body), body);
    expect(forged).toMatchObject({ ok: false, error: { code: "unauthenticated", details: { reason: "bad_signature" } } });
    expect(JSON.stringify(forged)).not.toContain("secret plot");
    // the same headers tagged with the scripts key run: only the key differs
    const genuine = await send(
      signBusMessage(stack.bus.keys.for("scripts"), callSubject(), { ...plain, [Header.callId]: randomUUID() }, body),
      body,
    );
    expect(genuine).toMatchObject({ ok: true, result: { script: { id: scriptB } } });
  });

  it("when it asks for a key resolution in another service's name, then the gateway answers nothing tagged; asked in its own name, the answer is tagged with its key and no other", async () => {
    const keyDigest = apiKeyDigest(keyA);
    const resolve = async (service: string, tagWith: string) => {
      const request = new TextEncoder().encode(JSON.stringify({ keyDigest, service }));
      const headers = signBusMessage(stack.bus.keys.for(tagWith), stack.subjects.authResolve, { [Header.callId]: randomUUID() }, request);
      const h = natsHeaders();
      for (const [name, value] of Object.entries(headers)) h.set(name, value);
      const reply = copy(await nats.request(stack.subjects.authResolve, request, { timeout: 10_000, headers: h }));
      return { reply, answers: bodyDigest(request), body: JSON.parse(new TextDecoder().decode(reply.data)) as { principal: unknown } };
    };
    // boards asking as scripts: no tag, no principal
    const impersonated = await resolve("scripts", "boards");
    expect(impersonated.body).toEqual({ principal: null });
    expect(impersonated.reply.headers[Header.signature]).toBeUndefined();
    expect(
      logs
        .lines()
        .some((line) => line.msg === "refused a key resolution not signed by the service it names" && line.reason === "bad_signature"),
    ).toBe(true);
    // unsigned: the same
    const h = natsHeaders();
    h.set(Header.callId, randomUUID());
    const unsigned = await nats.request(
      stack.subjects.authResolve,
      new TextEncoder().encode(JSON.stringify({ keyDigest, service: "scripts" })),
      {
        timeout: 10_000,
        headers: h,
      },
    );
    expect(unsigned.json()).toEqual({ principal: null });
    // boards asking as boards: a true answer, tagged for boards only
    const own = await resolve("boards", "boards");
    expect(own.body.principal).toMatchObject({ accountId: expect.any(String) });
    const check = (service: string) =>
      checkBusSignature(stack.bus.keys.for(service), stack.subjects.authResolve, own.reply, { answers: own.answers });
    expect(check("boards")).toBeUndefined();
    expect(check("scripts")).toBe("bad_signature");
  });

  it("when it listens to everything on the bus during a REST call, then the bearer key never appears, and the call works", async () => {
    const seen: Captured[] = [];
    const taps = [`${stack.subjects.authResolve.split(".")[0]}.>`, "_INBOX.>"].map((subject) =>
      nats.subscribe(subject, { callback: (_error, msg) => void seen.push(copy(msg)) }),
    );
    await nats.flush();
    const fresh = await stack.createKey({ agentId: "rest-sniffed" });
    const response = await fetch(`${stack.baseUrl}/v1/scripts/${scriptA}`, { headers: { authorization: `Bearer ${fresh}` } });
    expect(response.status).toBe(200);
    await nats.flush();
    taps.forEach((tap) => tap.unsubscribe());
    const resolves = seen.filter((message) => message.subject === stack.subjects.authResolve);
    expect(resolves.length).toBeGreaterThan(0);
    const everything = seen
      .map((message) => `${message.subject} ${JSON.stringify(message.headers)} ${new TextDecoder().decode(message.data)}`)
      .join("\n");
    expect(everything).not.toContain(fresh);
    expect(everything).not.toContain(fresh.slice(4));
  });
});

function copy(msg: Msg): Captured {
  const headers: Record<string, string> = {};
  for (const key of msg.headers?.keys() ?? []) headers[key.toLowerCase()] = msg.headers!.get(key);
  return { subject: msg.subject, headers, data: msg.data.slice() };
}
