/**
 * Placement (src/domain/placement.ts): three nodes in this process — separate data folders and node names, one
 * database and bus — register what they hold and heartbeat; create_box spreads boxes over them, a small node that
 * fills is passed over while another fits, forks stay on their source's node, and when no node can hold a box the
 * answer is `unavailable` naming each node's reason. Another account's boxes are never placed beside its view.
 */
import { existsSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { connectClient, startStack, type Stack } from "@bancada/e2e";
import { createLogger } from "@bancada/service-kit";
import { runBoxesCommand } from "../src/index.js";
import { placeBox } from "../src/domain/placement.js";
import { boxesTestStack, describeBoxes, type BoxesTestStack } from "./stack.js";
import { allScopes, fails, ok, restClient, run, until, type Box, type ExecResult } from "./helpers.js";

describeBoxes("placement over several nodes", () => {
  let a: BoxesTestStack;
  let b: BoxesTestStack;
  let small: BoxesTestStack;
  let stack: Stack;
  let client: Client;
  const log = createLogger("placement-test", "silent");
  const uidBase = 400_000 + Math.floor(Math.random() * 100) * 1_000;

  beforeAll(async () => {
    // nodes a and b hold fourteen 4 GiB boxes each, node "small" two: thirty in all (one account may take a whole node)
    const sized = (node: string, boxes: number) =>
      boxesTestStack({ node, uidBase, hostMemoryMiB: boxes * 4096, memoryReserveMiB: 0, accountSharePercent: 100 });
    a = sized("node-a", 14);
    b = sized("node-b", 14);
    small = sized("node-small", 2);
    stack = await startStack({ services: { boxes: a.factory } });
    for (const node of [b, small]) await node.factory({ databaseUrl: stack.database.url, bus: stack.bus, subjects: stack.subjects, log });
    client = await connectClient(stack.mcpUrl, await stack.createKey({ scopes: allScopes }));
    await a.service().db.accountPlan.create({ data: { accountId: "acct-a", plan: "scale" } });
  }, 120_000);
  afterAll(async () => {
    await client?.close();
    for (const node of [b, small]) await node?.service().stop();
    await stack?.stop();
    for (const node of [a, b, small]) await node?.cleanup();
  });

  const boxes: Box[] = [];

  it("when 30 boxes are created, then they spread over the three nodes; the small node fills and the rest go elsewhere, none refused", async () => {
    for (let i = 0; i < 30; i++) boxes.push((await ok(client, "create_box", { name: `spread-${i}`, wait: false }, 120_000)).box);
    const byNode = new Map<string, number>();
    for (const box of boxes) byNode.set(box.node as string, (byNode.get(box.node as string) ?? 0) + 1);
    expect(Object.fromEntries(byNode)).toEqual({ "node-a": 14, "node-b": 14, "node-small": 2 });
    // spread: the roomy nodes took turns from the start (the small one's first box came once they were half full)
    const firstTen = boxes.slice(0, 10).map((box) => box.node);
    expect(firstTen.filter((node) => node === "node-a").length).toBe(5);
    const running = await until(
      async () => (await ok<{ boxes: Box[] }>(client, "list_boxes", { limit: 50 })).boxes.filter((box) => box.state === "running").length,
      (count) => count === 30,
      240_000,
    );
    expect(running).toBe(30);
    const folders = { "node-a": a, "node-b": b, "node-small": small } as Record<string, BoxesTestStack>;
    for (const node of Object.keys(folders)) {
      const box = boxes.find((entry) => entry.node === node)!;
      expect((await ok(client, "get_box", { boxId: box.id })).box.node).toBe(node);
      expect((await run(client, box.id, "echo here")).stdout).toBe("here\n");
      // its disk and processes are that node's: its state folder is in that node's data folder only
      for (const [other, folder] of Object.entries(folders))
        expect(existsSync(path.join(folder.dataDir, "state", box.id)), `${box.id} in ${other}'s folder`).toBe(other === node);
    }
  }, 360_000);

  it("when no node can hold a box, then create_box answers unavailable naming each node's reason", async () => {
    const full = await fails(client, "create_box", { name: "nowhere" }, "unavailable");
    const reasons = (full.details as { nodes: { node: string; reason: string }[] }).nodes;
    expect(reasons).toEqual([
      { node: "node-a", reason: "memory full (57344 of 57344 MiB held)" },
      { node: "node-b", reason: "memory full (57344 of 57344 MiB held)" },
      { node: "node-small", reason: "memory full (8192 of 8192 MiB held)" },
    ]);
    expect(full.message).toMatch(/^No node can hold this box \(2 vCPUs, 4096 MiB, \d+ GiB\): node-a: memory full/);
    // bancada boxes drain: placement passes over node-a and says why; undrain places there again
    const printed: string[] = [];
    const command = (...args: string[]) => runBoxesCommand(args, { databaseUrl: stack.database.url, print: (line) => printed.push(line) });
    expect(await command("drain", "node-a")).toBe(0);
    expect(printed[0]).toMatch(/^Node node-a is drained: no new box is placed there .* 14 boxes live there:$/);
    expect(printed.filter((line) => /^ {2}bx_\w+ {2}(creating|running) /.test(line))).toHaveLength(14);
    printed.length = 0;
    expect(await command("nodes")).toBe(0);
    expect(printed).toEqual([
      expect.stringMatching(/^node-a {2}up, drained {2}\d+ vCPUs, 57344 MiB {2}14 boxes$/),
      expect.stringMatching(/^node-b {2}up {2}\d+ vCPUs, 57344 MiB {2}14 boxes$/),
      expect.stringMatching(/^node-small {2}up {2}\d+ vCPUs, 8192 MiB {2}2 boxes$/),
    ]);
    try {
      const drained = await fails(client, "create_box", { name: "nowhere" }, "unavailable");
      expect((drained.details as { nodes: { reason: string }[] }).nodes[0]!.reason).toMatch(/^drained/);
    } finally {
      expect(await command("undrain", "node-a")).toBe(0);
    }
    expect(await command("drain", "node-z")).toBe(1);
    expect(printed.at(-1)).toMatch(/^No node named 'node-z' runs boxes; known nodes: node-a, node-b, node-small/);
    expect(await command("drain")).toBe(2);
    expect((await a.service().db.boxNode.findUniqueOrThrow({ where: { node: "node-a" } })).draining).toBe(false);
  });

  it("when a box is forked, then the copies stay on the source's node", async () => {
    const onB = boxes.filter((box) => box.node === "node-b");
    for (const box of onB.slice(0, 2)) await ok(client, "delete_box", { boxId: box.id, confirm: true }, 120_000);
    const forked = await ok<{ boxes: Box[] }>(client, "fork_box", { boxId: onB[2]!.id, count: 2 }, 120_000);
    expect(forked.boxes.map((box) => box.node)).toEqual(["node-b", "node-b"]);
  }, 180_000);

  it("when another account creates a box, then it goes where there is room; it can neither see, fork nor copy the first account's boxes", async () => {
    const onA = boxes.find((box) => box.node === "node-a")!;
    await ok(client, "delete_box", { boxId: onA.id, confirm: true }, 120_000);
    const other = await connectClient(stack.mcpUrl, await stack.createKey({ scopes: allScopes, accountId: "acct-other" }));
    try {
      const box = (await ok(other, "create_box", { name: "other-1" }, 120_000)).box;
      expect(box.node).toBe("node-a");
      const { boxes: seen } = await ok<{ boxes: Box[] }>(other, "list_boxes", {});
      expect(seen.map((entry) => entry.id)).toEqual([box.id]);
      await fails(other, "get_box", { boxId: boxes[1]!.id }, "not_found");
      await fails(other, "fork_box", { boxId: boxes[1]!.id }, "not_found");
    } finally {
      await other.close();
    }
  }, 180_000);
  it("when boxes are created and used over REST, then placement decides the same way and each runs on its node", async () => {
    // one place each left on node-b and node-small; the REST API enters node-a's replica and relays there
    for (const node of ["node-b", "node-small"]) {
      const { boxes: listed } = await ok<{ boxes: Box[] }>(client, "list_boxes", { limit: 50 });
      await ok(
        client,
        "delete_box",
        { boxId: listed.find((box) => box.node === node && box.state === "running")!.id, confirm: true },
        120_000,
      );
    }
    const rest = restClient(stack.baseUrl, await stack.createKey({ scopes: allScopes }));
    const made: Box[] = [];
    for (const name of ["rest-1", "rest-2"]) {
      const created = await rest<{ box: Box }>("POST", "/v1/boxes", { name });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      made.push(created.body.box);
    }
    expect(made.map((box) => box.node).sort()).toEqual(["node-b", "node-small"]);
    const full = await rest<{ error: { code: string; details: { nodes: unknown[] } } }>("POST", "/v1/boxes", { name: "rest-3" });
    expect(full.status).toBe(503);
    expect(full.body.error.details.nodes).toHaveLength(3);
    for (const box of made) {
      const exec = await rest<ExecResult>("POST", `/v1/boxes/${box.id}/exec`, { cmd: "echo $((6 * 7))" });
      expect(exec.body).toMatchObject({ exitCode: 0, stdout: "42\n" });
    }
  }, 240_000);
  it("when the policy is pack, then the fullest node that fits is chosen; with spread the roomiest", async () => {
    // free two places on node-a and one on node-small: after the box node-a keeps 1 of 14 free, node-small none
    const { boxes: listed } = await ok<{ boxes: Box[] }>(client, "list_boxes", { limit: 50 });
    const running = (node: string) => listed.filter((box) => box.node === node && box.state === "running");
    for (const box of [...running("node-a").slice(0, 2), running("node-small")[0]!])
      await ok(client, "delete_box", { boxId: box.id, confirm: true }, 120_000);
    const rt = a.service().runtime;
    const demand = { vcpus: 2, memMiB: 4096, dataGiB: 10, template: rt.driver.template.name };
    const placed = (policy: "spread" | "pack") => placeBox({ ...rt, placement: { ...rt.placement, policy } }, "acct-a", demand);
    expect(await placed("pack")).toBe("node-small");
    expect(await placed("spread")).toBe("node-a");
    // a label the template needs and no node carries: nowhere, and each node says so
    const labelled = { ...rt, placement: { ...rt.placement, templateLabels: { [demand.template]: ["gpu"] } } };
    await expect(placeBox(labelled, "acct-a", demand)).rejects.toMatchObject({
      code: "unavailable",
      details: { nodes: [{ node: "node-a", reason: expect.stringMatching(/lacks the label gpu/) }, expect.anything(), expect.anything()] },
    });
  }, 180_000);
});
