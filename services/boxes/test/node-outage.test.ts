/**
 * Nodes come and go (src/domain/placement.ts, box-node.ts): node A runs in a process of its own (so that it can
 * be frozen and killed), node B in this process; both share the database and NATS. A node that stops heartbeating
 * is down within 3 s — its boxes answer `unavailable` naming it, even while its bus subscription lingers — the
 * other node's boxes keep working, nothing new is placed on it, and once it is back its boxes are served again
 * with their files.
 */
import type { ChildProcess } from "node:child_process";
import { Router } from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { CallReply, Principal } from "@bancada/contracts";
import { connectClient, natsUrl, startStack, type Stack } from "@bancada/e2e";
import { createLogger } from "@bancada/service-kit";
import { runBoxesCommand } from "../src/index.js";
import { boxesTestStack, describeBoxes, type BoxesTestStack } from "./stack.js";
import { allScopes, ok, type Box } from "./helpers.js";
import { startReplicaProcess } from "./fixtures/start-replica.js";

const principal: Principal = {
  keyId: "key-acct-a",
  accountId: "acct-a",
  personId: "person-a",
  agentId: "test-agent",
  scopes: allScopes,
  allowWrites: true,
  allowedBoardIds: null,
  profile: "full",
};

/** Node A runs in another process: it needs a real NATS both processes reach. */
const describeOutage =
  natsUrl && process.env.BANCADA_TEST_BUS !== "memory"
    ? describeBoxes
    : (name: string) => describe(name, () => it.skip("is not tested: node A runs in another process and needs NATS (NATS_URL)", () => {}));

// node A as a whole replica (BOXES_ROLE=all: it also serves tool calls), and as a node agent alone (node B's process
// is then the control plane that reaches it)
for (const roleOfA of ["all", "node"] as const)
  describeOutage(`a node that goes away and comes back (node A: BOXES_ROLE=${roleOfA})`, () => {
    let a: BoxesTestStack;
    let b: BoxesTestStack;
    let child: ChildProcess | undefined;
    let stack: Stack;
    let client: Client;
    let startA: () => Promise<void>;
    const boxes: Box[] = [];
    const onNode = (node: string) => boxes.find((box) => box.node === node)!;

    beforeAll(async () => {
      a = boxesTestStack();
      const uidBase = 500_000 + Math.floor(Math.random() * 100) * 1_000;
      stack = await startStack({
        services: {
          boxes: async (deps) => {
            startA = async () => {
              ({ child } = await startReplicaProcess(deps, {
                dataDir: a.dataDir,
                node: "node-a",
                uidBase,
                publicUrl: "http://node-a.test:8787",
                role: roleOfA,
              }));
            };
            await startA();
            return { name: "boxes", routes: Router(), stop: async () => void child?.kill("SIGKILL") };
          },
        },
      });
      const log = createLogger("outage-test", "silent");
      b = boxesTestStack({ node: "node-b", uidBase, reapIntervalMs: 3_600_000, log });
      await b.factory({ databaseUrl: stack.database.url, bus: stack.bus, subjects: stack.subjects, log });
      client = await connectClient(stack.mcpUrl, await stack.createKey({ scopes: allScopes }));
      // one box on each node: the first goes where placement puts it, the second beside it is kept off by a drain
      boxes.push((await ok(client, "create_box", { name: "outage-0" }, 120_000)).box);
      const drain = (...args: string[]) => runBoxesCommand(args, { databaseUrl: stack.database.url, print: () => {} });
      expect(await drain("drain", boxes[0]!.node as string)).toBe(0);
      boxes.push((await ok(client, "create_box", { name: "outage-1" }, 120_000)).box);
      expect(await drain("undrain", boxes[0]!.node as string)).toBe(0);
      expect(boxes.map((box) => box.node).sort()).toEqual(["node-a", "node-b"]);
      for (const box of boxes) await viaB("write_file", { boxId: box.id, path: "/data/home/kept.txt", content: `on ${box.node}\n` });
    }, 240_000);
    afterAll(async () => {
      child?.kill("SIGCONT");
      await client?.close();
      await b?.service().stop();
      await stack?.stop();
      child?.kill("SIGKILL");
      await b?.cleanup();
      await a?.cleanup();
    });

    const viaB = async (tool: string, args: Record<string, unknown>) => {
      const reply = (await b.service().host.call(tool, args, principal)) as CallReply & { result?: Record<string, unknown> };
      if (!reply.ok) throw Object.assign(new Error(`${tool}: ${reply.error.code} ${reply.error.message}`), { body: reply.error });
      return reply.result!;
    };
    const readVia = (box: Box) => viaB("read_file", { boxId: box.id, path: "kept.txt" }).then((result) => result.content);
    const refusal = async (box: Box) => {
      try {
        await readVia(box);
        return null;
      } catch (error) {
        const body = (error as { body?: { code: string; message: string; details: Record<string, unknown> } }).body;
        if (!body) throw error;
        return body;
      }
    };

    it("when node A hangs (its process frozen), then within 3 s its box answers unavailable naming node A; B's box works; nothing new is placed on A; thawed, A serves again", async () => {
      child!.kill("SIGSTOP");
      const frozenAt = Date.now();
      // until the heartbeat's silence says "down", a call waits on the frozen process's subscription and is given up
      // within 2 s (the bus's acknowledgement), also unavailable naming node A
      let refused = await refusal(onNode("node-a"));
      while (refused?.details.reason !== "node_down" && Date.now() - frozenAt < 10_000) {
        expect(refused).toMatchObject({ code: "unavailable", details: { node: "node-a" } });
        refused = await refusal(onNode("node-a"));
      }
      expect(refused).toMatchObject({ code: "unavailable", details: { node: "node-a", reason: "node_down" } });
      expect(refused!.message).toMatch(/lives on node node-a, which is down \(no heartbeat for \d+ s\)/);
      const downAfter = Date.now() - frozenAt;
      expect(downAfter).toBeLessThan(5_000);
      expect(await readVia(onNode("node-b"))).toBe("on node-b\n");
      // placement passes over the silent node
      const placed = (await viaB("create_box", { name: "while-a-is-down", wait: false })).box as Box;
      expect(placed.node).toBe("node-b");
      child!.kill("SIGCONT");
      let back: unknown = null;
      const thawedAt = Date.now();
      while (back === null && Date.now() - thawedAt < 10_000) back = await readVia(onNode("node-a")).catch(() => null);
      expect(back).toBe("on node-a\n");
    }, 60_000);

    it("when node A is killed (kill -9), then its box answers unavailable naming it at once, B's box works; restarted on its data folder, it serves its box with its files", async () => {
      child!.kill("SIGKILL");
      await new Promise((resolve) => child!.once("exit", resolve));
      const killedAt = Date.now();
      const refused = await refusal(onNode("node-a"));
      expect(Date.now() - killedAt).toBeLessThan(3_000);
      expect(refused).toMatchObject({ code: "unavailable", details: { node: "node-a" } });
      expect(refused!.message).toMatch(/node node-a/);
      expect(await readVia(onNode("node-b"))).toBe("on node-b\n");
      await startA();
      expect(await readVia(onNode("node-a"))).toBe("on node-a\n");
      const exec = await viaB("exec", { boxId: onNode("node-a").id, cmd: "cat /data/home/kept.txt" });
      expect(exec).toMatchObject({ exitCode: 0, stdout: "on node-a\n" });
    }, 120_000);
  });
