/**
 * What a tool's owner lookup found travels to the handler of the same call (`ctx.owner`), when the call runs on
 * the node it was looked up for, and never across a forward: the owner's node looks nothing up and gets nothing.
 */
import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { Header, subjects as makeSubjects, type CallReply } from "@bancada/contracts";
import { MemoryBus, createLogger, decodeJson, defineTool, encodeJson, hostTools, signBusMessage } from "../src/index.js";
import { docsReader } from "./principal.js";

const principal = docsReader;

/** `where` names the node that owns the thing; the lookup "reads" a row of the caller's account. */
const probe = defineTool({
  name: "probe",
  description: "Says what its owner lookup handed it.",
  input: z.strictObject({ where: z.enum(["node-1", "node-2", "anywhere"]) }),
  output: z.object({ ranOn: z.string(), found: z.unknown() }),
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  scope: "docs:read",
  owner: async (caller, input) =>
    input.where === "anywhere" ? null : { node: input.where, what: "thing t1", found: { row: "t1", accountId: caller.accountId } },
  handler: async () => ({ ranOn: "", found: null }),
});

function hostOn(bus: MemoryBus, root: ReturnType<typeof makeSubjects>, node: string) {
  return hostTools({
    bus,
    subjects: root,
    service: "probe",
    version: "1",
    instructions: "",
    node,
    log: createLogger("t", "silent"),
    tools: [{ ...probe, handler: async (ctx) => ({ ranOn: node, found: ctx.owner?.found ?? null }) }],
  });
}

describe("the owner lookup's find, handed to the call", () => {
  it("when a call runs on the node its lookup named, then the handler gets what the lookup read; forwarded or ownerless, nothing", async () => {
    const bus = new MemoryBus();
    const root = makeSubjects(`own${randomUUID().slice(0, 8)}`);
    const one = hostOn(bus, root, "node-1");
    const two = hostOn(bus, root, "node-2");
    const viaBus = async (where: string, subject = root.call("probe")) => {
      const data = encodeJson({ kind: "tool", tool: "probe", args: { where } });
      const plain = { [Header.principal]: JSON.stringify(principal), [Header.callId]: randomUUID(), [Header.transport]: "http" };
      const headers = signBusMessage(bus.keys.for("probe"), root.call("probe"), plain, data);
      return decodeJson((await bus.request(subject, data, { timeoutMs: 5_000, headers })).data) as CallReply;
    };

    // in-process calls on node-1: its own thing comes with the row; node-2's is forwarded and runs there without one
    expect(await one.call("probe", { where: "node-1" }, principal)).toEqual({
      ok: true,
      result: { ranOn: "node-1", found: { row: "t1", accountId: "a" } },
    });
    expect(await one.call("probe", { where: "node-2" }, principal)).toEqual({ ok: true, result: { ranOn: "node-2", found: null } });
    expect(await one.call("probe", { where: "anywhere" }, principal)).toEqual({ ok: true, result: { ranOn: "node-1", found: null } });

    // over the bus, whichever replica takes the shared subject: the owner's node runs it, with the row only if it looked it up
    for (let i = 0; i < 6; i++) {
      const reply = await viaBus("node-2");
      expect(reply).toMatchObject({ ok: true, result: { ranOn: "node-2" } });
      const { found } = (reply as { result: { found: unknown } }).result;
      // taken by node-2 itself: found there; taken by node-1 and forwarded: node-2 looked nothing up
      expect([null, { row: "t1", accountId: "a" }]).toContainEqual(found);
    }
    // straight on node-2's own subject (as a forward arrives): no lookup, nothing handed over
    expect(await viaBus("node-2", root.nodeCall("probe", "node-2"))).toEqual({ ok: true, result: { ranOn: "node-2", found: null } });

    one.stop();
    two.stop();
    await bus.close();
  });
});
