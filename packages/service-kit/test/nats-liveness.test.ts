/**
 * Acknowledgements and heartbeats on the NATS bus (bus/nats-requests.ts), against the shared NATS server: a
 * responder that took a request and fell silent fails it within seconds as `responder_lost`; a long request
 * whose responder lives is answered; a fast one costs no extra message; a caller that does not ask for heartbeats
 * gets none. Raw nats.js connections play the responders and callers that misbehave.
 */
import { randomUUID } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connect, type NatsConnection } from "@nats-io/transport-node";
import { headers as natsHeaders } from "@nats-io/nats-core";
import { BusKeys, BusRequestError, connectNatsBus, decodeJson, encodeJson, natsLiveness, type NatsBus } from "../src/index.js";

const natsUrl = process.env.NATS_URL;

describe.skipIf(!natsUrl)("heartbeats on the NATS bus (skipped without NATS_URL)", () => {
  let caller: NatsBus;
  let responder: NatsBus;
  let raw: NatsConnection;
  beforeAll(async () => {
    caller = await connectNatsBus({ url: natsUrl!, name: "liveness-caller", keys: BusKeys.generate() });
    responder = await connectNatsBus({ url: natsUrl!, name: "liveness-responder", keys: BusKeys.generate() });
    raw = await connect({ servers: natsUrl! });
  });
  afterAll(async () => {
    await Promise.all([caller?.close(1_000), responder?.close(1_000), raw?.close()]);
  });
  const subject = () => `liveness.${randomUUID()}`;

  it("when a responder takes a request and never acknowledges it (it died), then the request fails as responder_lost about ackWithinMs later, not at its timeout", async () => {
    const s = subject();
    raw.subscribe(s, { callback: () => {} });
    await raw.flush();
    const started = Date.now();
    const error = await caller.request(s, encodeJson({}), { timeoutMs: 30_000 }).catch((e: unknown) => e);
    const tookMs = Date.now() - started;
    expect(error).toBeInstanceOf(BusRequestError);
    expect((error as BusRequestError).reason).toBe("responder_lost");
    expect(tookMs).toBeGreaterThanOrEqual(natsLiveness.ackWithinMs);
    expect(tookMs).toBeLessThan(natsLiveness.ackWithinMs + 3_000);
  });

  it("when a responder beats for a while and then stops, then the request fails as responder_lost about silenceMs after the last heartbeat", async () => {
    const s = subject();
    let lastBeat = 0;
    const beat = natsHeaders();
    beat.set("bancada-beat", "1");
    raw.subscribe(s, {
      callback: (_error, msg) => {
        void (async () => {
          for (let i = 0; i < 4; i++) {
            await sleep(500);
            msg.respond(undefined, { headers: beat });
            lastBeat = Date.now();
          }
        })();
      },
    });
    await raw.flush();
    const error = await caller.request(s, encodeJson({}), { timeoutMs: 30_000 }).catch((e: unknown) => e);
    const silentMs = Date.now() - lastBeat;
    expect((error as BusRequestError).reason).toBe("responder_lost");
    expect(silentMs).toBeGreaterThanOrEqual(natsLiveness.silenceMs);
    expect(silentMs).toBeLessThan(natsLiveness.silenceMs + 3_000);
  });

  it("when a handler runs longer than five heartbeats, then the request is answered", async () => {
    const s = subject();
    responder.serve(s, async (msg) => {
      await sleep(Number(decodeJson(msg.data)));
      return { data: encodeJson("done"), headers: {} };
    });
    await sleep(50);
    const waitMs = natsLiveness.beatMs * 5 + 1_000;
    const reply = await caller.request(s, encodeJson(waitMs), { timeoutMs: 30_000 });
    expect(decodeJson(reply.data)).toBe("done");
  }, 20_000);

  it("when this whole process stalls longer than the silence limit (a loaded machine), then a request whose responder lives is still answered", async () => {
    const s = subject();
    // still working well after the stall: only a heartbeat, not the answer, can be on its way when it ends
    responder.serve(s, async () => {
      await sleep(natsLiveness.silenceMs * 2 + 2_000);
      return { data: encodeJson("done"), headers: {} };
    });
    await sleep(50);
    const pending = caller.request(s, encodeJson({}), { timeoutMs: 30_000 });
    await sleep(natsLiveness.ackAfterMs + 300);
    // neither the caller's timers nor the responder's heartbeats run meanwhile
    const until = Date.now() + natsLiveness.silenceMs + 1_000;
    while (Date.now() < until);
    expect(decodeJson((await pending).data)).toBe("done");
  }, 20_000);

  it("when a handler answers within the acknowledgement window, then its answer is the only message; a slower one acknowledges first", async () => {
    const s = subject();
    responder.serve(s, async (msg) => {
      await sleep(Number(decodeJson(msg.data)));
      return { data: encodeJson("done"), headers: {} };
    });
    await sleep(50);
    const asking = natsHeaders();
    asking.set("bancada-beats", "1");
    // nats.js's own request takes the first message on the reply subject, whatever it is
    const fast = await raw.request(s, encodeJson(10), { timeout: 5_000, headers: asking });
    expect(fast.headers?.has("bancada-beat") ?? false).toBe(false);
    expect(decodeJson(fast.data)).toBe("done");
    const slow = await raw.request(s, encodeJson(natsLiveness.ackAfterMs * 3), { timeout: 5_000, headers: asking });
    expect(slow.headers?.get("bancada-beat")).toBe("1");
    expect(slow.data.length).toBe(0);
  });

  it("when a caller does not ask for heartbeats (an older gateway), then a slow handler's first message is its answer", async () => {
    const s = subject();
    responder.serve(s, async () => {
      await sleep(natsLiveness.ackAfterMs * 3);
      return { data: encodeJson("done"), headers: {} };
    });
    await sleep(50);
    const reply = await raw.request(s, encodeJson({}), { timeout: 5_000 });
    expect(decodeJson(reply.data)).toBe("done");
  });
});
