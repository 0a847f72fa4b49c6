/** One contract, two buses: the in-process bus must behave like NATS for everything Bancada relies on. */
import { randomBytes } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import { afterEach, describe, expect, it } from "vitest";
import { BusKeys, BusRequestError, MemoryBus, connectNatsBus, decodeJson, encodeJson, type Bus } from "../src/index.js";

const natsUrl = process.env.NATS_URL;
const makers: [string, () => Promise<Bus>][] = [["memory", async () => new MemoryBus()]];
if (natsUrl) makers.push(["nats", () => connectNatsBus({ url: natsUrl, name: "bus-contract", keys: BusKeys.generate() })]);

// Said only where it is true: with NATS_URL set, the NATS bus runs the whole contract below.
if (!natsUrl) {
  describe("the NATS bus", () => {
    it.skip("is not tested: NATS_URL is not set (queue groups, reconnects and the contract need a real nats-server)", () => {});
  });
}

describe.each(makers)("the %s bus", (_kind, make) => {
  const open: Bus[] = [];
  const bus = async () => {
    const created = await make();
    open.push(created);
    return created;
  };
  const subject = () => `contract.${randomBytes(4).toString("hex")}`;
  afterEach(async () => {
    await Promise.all(open.splice(0).map((b) => b.close()));
  });

  it("when a request is served, then the reply carries the handler's data and headers both ways", async () => {
    const b = await bus();
    const s = subject();
    b.serve(s, async (msg) => ({
      data: encodeJson({ echo: decodeJson(msg.data), saw: msg.headers["x-call"] }),
      headers: { "x-reply": "yes" },
    }));
    await sleep(20);
    const reply = await b.request(s, encodeJson({ n: 1 }), { timeoutMs: 1_000, headers: { "x-call": "abc" } });
    expect(decodeJson(reply.data)).toEqual({ echo: { n: 1 }, saw: "abc" });
    expect(reply.headers["x-reply"]).toBe("yes");
  });

  it("when nobody serves the subject, then the request fails at once with no_responders", async () => {
    const b = await bus();
    const started = Date.now();
    const error = await b.request(subject(), encodeJson({}), { timeoutMs: 3_000 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BusRequestError);
    expect((error as BusRequestError).reason).toBe("no_responders");
    expect(Date.now() - started).toBeLessThan(1_000);
  });

  it("when the handler is slower than the timeout, then the request fails with timeout", async () => {
    const b = await bus();
    const s = subject();
    b.serve(s, async () => {
      await sleep(500);
      return { data: encodeJson({}), headers: {} };
    });
    await sleep(20);
    const error = await b.request(s, encodeJson({}), { timeoutMs: 100 }).catch((e: unknown) => e);
    expect((error as BusRequestError).reason).toBe("timeout");
  });

  it("when the caller aborts, then the request fails with cancelled", async () => {
    const b = await bus();
    const s = subject();
    b.serve(s, async () => {
      await sleep(500);
      return { data: encodeJson({}), headers: {} };
    });
    await sleep(20);
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    const error = await b.request(s, encodeJson({}), { timeoutMs: 2_000, signal: controller.signal }).catch((e: unknown) => e);
    expect((error as BusRequestError).reason).toBe("cancelled");
  });

  it("when a handler throws, then the caller gets handler_failed, not a hang", async () => {
    const b = await bus();
    const s = subject();
    b.serve(s, async () => {
      throw new Error("boom");
    });
    await sleep(20);
    const error = await b.request(s, encodeJson({}), { timeoutMs: 1_000 }).catch((e: unknown) => e);
    expect((error as BusRequestError).reason).toBe("handler_failed");
  });

  it("when two replicas serve in one queue group, then each request is answered once and both share the load", async () => {
    const b = await bus();
    const s = subject();
    const counts = { a: 0, b: 0 };
    for (const name of ["a", "b"] as const) {
      b.serve(
        s,
        async () => {
          counts[name]++;
          return { data: encodeJson(name), headers: {} };
        },
        { queue: "q" },
      );
    }
    await sleep(20);
    for (let i = 0; i < 40; i++) await b.request(s, encodeJson(i), { timeoutMs: 1_000 });
    expect(counts.a + counts.b).toBe(40);
    expect(counts.a).toBeGreaterThan(0);
    expect(counts.b).toBeGreaterThan(0);
  });

  it("when a message is published, then every subscriber hears it, and an unsubscribed one does not", async () => {
    const b = await bus();
    const s = subject();
    const heard: string[] = [];
    b.subscribe(s, (msg) => heard.push(`one:${String(decodeJson(msg.data))}`));
    const two = b.subscribe(s, (msg) => heard.push(`two:${String(decodeJson(msg.data))}`));
    await sleep(20);
    b.publish(s, encodeJson("x"), { h: "1" });
    await sleep(50);
    two.unsubscribe();
    await sleep(20);
    b.publish(s, encodeJson("y"));
    await sleep(50);
    expect(heard.sort()).toEqual(["one:x", "one:y", "two:x"]);
  });

  it("when a server unsubscribes, then later requests find no responders", async () => {
    const b = await bus();
    const s = subject();
    const sub = b.serve(s, async () => ({ data: encodeJson(1), headers: {} }));
    await sleep(20);
    await b.request(s, encodeJson({}), { timeoutMs: 1_000 });
    sub.unsubscribe();
    await sleep(50);
    const error = await b.request(s, encodeJson({}), { timeoutMs: 1_000 }).catch((e: unknown) => e);
    expect((error as BusRequestError).reason).toBe("no_responders");
  });

  it("when the bus closes with a request in flight, then that request still gets its answer", async () => {
    const b = await bus();
    const s = subject();
    b.serve(s, async () => {
      await sleep(150);
      return { data: encodeJson("done"), headers: {} };
    });
    await sleep(20);
    const pending = b.request(s, encodeJson({}), { timeoutMs: 2_000 });
    await sleep(30);
    await b.close();
    expect(decodeJson((await pending).data)).toBe("done");
  });

  it("when request and reply are several MiB (more than NATS's default max_payload), then both cross whole, byte for byte, with their headers", async () => {
    const b = await bus();
    const s = subject();
    const big = randomBytes(3 * 1024 * 1024 + 17);
    b.serve(s, async (msg) => ({
      data: Buffer.concat([msg.data, msg.data]),
      headers: { "x-size": String(msg.data.byteLength), "x-saw": msg.headers["x-call"] ?? "" },
    }));
    await sleep(20);
    const reply = await b.request(s, big, { timeoutMs: 10_000, headers: { "x-call": "big" } });
    expect(reply.headers).toMatchObject({ "x-size": String(big.byteLength), "x-saw": "big" });
    expect(Object.keys(reply.headers).some((name) => name.includes("parts"))).toBe(false);
    expect(Buffer.from(reply.data).equals(Buffer.concat([big, big]))).toBe(true);
  });

  it("when a big reply meets nobody serving, then the request still fails with no_responders", async () => {
    const b = await bus();
    const error = await b.request(subject(), randomBytes(2 * 1024 * 1024), { timeoutMs: 3_000 }).catch((e: unknown) => e);
    expect((error as BusRequestError).reason).toBe("no_responders");
  });
});
