/**
 * One account cannot starve another: box work in flight is capped per account (past it, rate_limited with a retry
 * hint, at once), so another account's trivial exec answers quickly during a flood; and the reapers keep a database
 * pool of their own, so their periodic round acts while every connection of the calls' pool is taken.
 */
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { connectClient, startStack, type Stack } from "@bancada/e2e";
import { afterAll, beforeAll, expect, it } from "vitest";
import { boxesTestStack, describeBoxes, type BoxesTestStack } from "./stack.js";
import { allScopes, call, ok, until, type Box } from "./helpers.js";

const accountCalls = 16;

describeBoxes("fair share between accounts", () => {
  let boxes: BoxesTestStack;
  let stack: Stack;
  let a: Client;
  let b: Client;
  let boxA: Box;
  let boxB: Box;

  beforeAll(async () => {
    boxes = boxesTestStack({ accountCalls, reapIntervalMs: 300 });
    stack = await startStack({ services: { boxes: boxes.factory } });
    a = await connectClient(stack.mcpUrl, await stack.createKey({ scopes: allScopes, accountId: "acct-flood" }));
    b = await connectClient(stack.mcpUrl, await stack.createKey({ scopes: allScopes, accountId: "acct-quiet" }));
    boxA = (await ok(a, "create_box", { name: "flood" })).box;
    boxB = (await ok(b, "create_box", { name: "quiet" })).box;
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
    await stack?.stop();
    await boxes?.cleanup();
  });

  it("when account A floods 60 concurrent execs, then the excess answers rate_limited at once with a retry hint and B's trivial exec answers within 2 s", async () => {
    const flood = Array.from({ length: 60 }, () => call(a, "exec", { boxId: boxA.id, cmd: "sleep 4" }, 30_000));
    // Once A holds every place, B's exec runs beside A's sleeps.
    const runtime = boxes.service().runtime;
    const until = Date.now() + 10_000;
    while (runtime.inFlight.exec < accountCalls && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 20));
    const started = Date.now();
    const quiet = await ok<{ stdout: string; exitCode: number }>(b, "exec", { boxId: boxB.id, cmd: "echo quiet" });
    const took = Date.now() - started;
    expect(quiet).toMatchObject({ stdout: "quiet\n", exitCode: 0 });
    expect(took).toBeLessThan(2_000);
    const outcomes = await Promise.all(flood);
    const refused = outcomes.filter((outcome) => outcome.isError);
    expect(outcomes.length - refused.length).toBe(accountCalls);
    for (const outcome of refused) {
      const error = (outcome.data as unknown as { error: { code: string; message: string; details: Record<string, unknown> } }).error;
      expect(error.code).toBe("rate_limited");
      expect(error.details).toEqual({ retryAfterMs: 1_000, limit: "accountCalls", inFlight: accountCalls, max: accountCalls });
      expect(error.message).toMatch(/at most 16 at once.*retry in about 1 s/);
    }
    // The places come back: A may exec again.
    expect((await ok<{ exitCode: number }>(a, "exec", { boxId: boxA.id, cmd: "true" })).exitCode).toBe(0);
  });

  it("when every connection of the calls' pool is held, then the periodic reaper round still puts an idle box to sleep", async () => {
    const service = boxes.service();
    // As many long transactions as the calls' pool has connections (10): it is taken for 4 s.
    const held = Array.from({ length: 10 }, () =>
      service.db.$transaction(async (tx) => tx.$executeRaw`SELECT pg_sleep(4)`, { timeout: 30_000 }),
    );
    await new Promise((resolve) => setTimeout(resolve, 200));
    // The quiet box has been idle for 10 minutes (autoSuspendSeconds 300): due to sleep at the next round (every 300 ms).
    await service.runtime.housekeepingDb.box.update({
      where: { id: boxB.id },
      data: { lastActivityAt: new Date(Date.now() - 10 * 60_000) },
    });
    const slept = await until(
      () => service.runtime.housekeepingDb.box.findUniqueOrThrow({ where: { id: boxB.id } }),
      (box) => box.state === "sleeping",
      2_500,
    );
    expect(slept.state).toBe("sleeping");
    await Promise.all(held);
  });
});
