/**
 * The control plane and the node agents apart (BOXES_ROLE): two control-plane replicas that run no box and need no
 * privilege, and three node agents that take no tool call from the bus — separate data folders and node names, one
 * database and bus. The control plane places every box on an agent's node; the box's commands and files work
 * through the gateway (either replica) and through the second replica's own REST API, and OpenSSH enters it at its
 * node's SSH endpoint. Before any agent is up,
 * create_box answers unavailable saying what to start, and writes nothing.
 */
import { execFile, execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { promisify } from "node:util";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { busKeyResolver, createServiceApp, createLogger } from "@bancada/service-kit";
import { captureLogs, connectClient, startStack, type Stack } from "@bancada/e2e";
import { runBoxesCommand, type LocalDriver } from "../src/index.js";
import { nodeTransferUrl } from "../src/domain/transfers/node-transfer.js";
import { boxesTestStack, describeBoxes } from "./stack.js";
import { allScopes, fails, hasSsh, ok, restClient, run, sshOptions, until, type Box, type ExecResult } from "./helpers.js";

const execFileAsync = promisify(execFile);

describeBoxes("a control plane and node agents apart", () => {
  const log = createLogger("control-plane-test", "silent");
  const uidBase = 600_000 + Math.floor(Math.random() * 100) * 1_000;
  const control = ["cp-1", "cp-2"].map((node) => boxesTestStack({ role: "control", node }));
  const agentNodes = ["agent-1", "agent-2", "agent-3"];
  const portBase = 21_000 + Math.floor(Math.random() * 300) * 100;
  // each node holds six 4 GiB boxes, so that spreading them is measured in room, not lost in rounding
  // agent-1 keeps one box started ahead (its warm pool), which a create placed there takes over the agent RPC
  const agents = agentNodes.map((node, i) =>
    boxesTestStack({
      role: "node",
      node,
      uidBase,
      hostMemoryMiB: 6 * 4096,
      memoryReserveMiB: 0,
      accountSharePercent: 100,
      // each node's published ports in a range of its own, on this machine's loopback
      portRange: { first: portBase + i * 100, last: portBase + i * 100 + 99 },
      portsBindHost: "127.0.0.1",
      portsHost: "127.0.0.1",
      sshPort: 0,
      warmPool: i === 0 ? [{ dataGiB: 20, count: 1 }] : [],
    }),
  );
  const agentLogs = captureLogs("info");
  let stack: Stack;
  let client: Client;
  let server: Server;
  let rest: ReturnType<typeof restClient>;
  let restUrl = "";
  const agentServers: Server[] = [];

  beforeAll(async () => {
    stack = await startStack({ services: { boxes: control[0]!.factory } });
    await control[1]!.factory({ databaseUrl: stack.database.url, bus: stack.bus, subjects: stack.subjects, log });
    client = await connectClient(stack.mcpUrl, await stack.createKey({ scopes: [...allScopes, "images:read", "images:write"] }));
    await control[0]!.service().db.accountPlan.create({ data: { accountId: "acct-a", plan: "scale" } });
    // the second control-plane replica's own REST API, as its process serves it
    server = createServiceApp({
      routes: [control[1]!.service().routes],
      resolver: busKeyResolver(stack.bus, stack.subjects, "boxes", 500, log),
      log,
      guards: { bindHost: "127.0.0.1", allowedHosts: [], allowedOrigins: [] },
    }).listen(0, "127.0.0.1");
    await new Promise((resolve) => server.once("listening", resolve));
    restUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    rest = restClient(restUrl, await stack.createKey({ scopes: allScopes }));
  }, 120_000);
  afterAll(async () => {
    await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
    for (const listening of agentServers) listening.close();
    await client?.close();
    for (const agent of agents)
      await agent
        .service()
        .stop()
        .catch(() => {});
    await control[1]?.service().stop();
    await stack?.stop();
    for (const part of [...agents, ...control]) await part.cleanup();
  });

  it("when no node agent is up, then create_box answers unavailable saying to start one, and writes nothing", async () => {
    const error = await fails(client, "create_box", { name: "too-early" }, "unavailable");
    expect(error.message).toContain("BOXES_ROLE=node");
    const rows = await control[0]!.service().db.box.count();
    expect(rows).toBe(0);
    // a control-plane replica runs no box: it never registers as a node
    expect(await control[0]!.service().db.boxNode.count({ where: { vcpus: { gt: 0 } } })).toBe(0);
  });

  describe("with three node agents", () => {
    const boxes: Box[] = [];

    beforeAll(async () => {
      for (const agent of agents) {
        await agent.factory({ databaseUrl: stack.database.url, bus: stack.bus, subjects: stack.subjects, log: agentLogs.log });
        // each agent's own HTTP (its transfer routes), at the public URL it registers with: a drain reads disks there
        const listening = createServiceApp({
          routes: [agent.service().routes],
          resolver: busKeyResolver(stack.bus, stack.subjects, "boxes", 500, log),
          log,
          guards: { bindHost: "127.0.0.1", allowedHosts: [], allowedOrigins: [] },
        }).listen(0, "127.0.0.1");
        await new Promise((resolve) => listening.once("listening", resolve));
        agentServers.push(listening);
        agent.service().runtime.transfers.publicUrl = `http://127.0.0.1:${(listening.address() as AddressInfo).port}`;
      }
    }, 120_000);

    it("when the agents start, then they take no tool call from the bus, and only they register as nodes", async () => {
      const lines = agentLogs.lines().map((line) => line.msg);
      expect(lines.filter((msg) => msg === "tools taken in-process only: another process serves them on the bus")).toHaveLength(3);
      expect(lines).not.toContain("tools served on the bus");
      const nodes = await control[0]!.service().db.boxNode.findMany({ where: { vcpus: { gt: 0 } }, select: { node: true } });
      expect(nodes.map((row) => row.node).sort()).toEqual(agentNodes);
    });

    it("when six boxes are created through the gateway, then the control plane spreads them two to each agent's node, and each runs commands and keeps files there", async () => {
      for (let i = 0; i < 6; i++) boxes.push((await ok(client, "create_box", { name: `placed-${i}`, wait: false }, 120_000)).box);

      const byNode: Record<string, number> = {};
      for (const box of boxes) byNode[box.node as string] = (byNode[box.node as string] ?? 0) + 1;
      expect(byNode).toEqual({ "agent-1": 2, "agent-2": 2, "agent-3": 2 });
      await until(
        async () => (await ok<{ boxes: Box[] }>(client, "list_boxes", { limit: 50 })).boxes.filter((box) => box.state === "running").length,
        (count) => count === 6,
        120_000,
      );
      for (const box of boxes) {
        expect((await run(client, box.id, "echo here")).stdout).toBe("here\n");
        await ok(client, "write_file", { boxId: box.id, path: "note.txt", content: `on ${box.node}` });
        expect(await ok(client, "read_file", { boxId: box.id, path: "note.txt" })).toMatchObject({ content: `on ${box.node}` });
        // its disk is its node's: the box's state folder is in that agent's data folder only, never a control plane's
        for (const [i, agent] of agents.entries())
          expect(existsSync(path.join(agent.dataDir, "state", box.id)), `${box.id} on ${agentNodes[i]}`).toBe(agentNodes[i] === box.node);
        for (const replica of control) expect(existsSync(path.join(replica.dataDir, "state", box.id))).toBe(false);
      }
      // each answer names its own node's SSH endpoint (the control plane has none); an agent whose endpoint could not
      // listen (its log says why) records none, and its boxes then have no command
      for (const box of boxes) {
        const { port } = agents[agentNodes.indexOf(box.node as string)]!.service().runtime.ssh;
        expect(box.sshCommand).toBe(port === null ? null : `ssh -p ${port} ${box.id}@127.0.0.1`);
      }
    }, 240_000);

    it("when the second control-plane replica's REST API is used, then it creates on an agent's node and reaches every box there", async () => {
      const created = await rest<{ box: Box }>("POST", "/v1/boxes", { name: "over-rest" });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      expect(agentNodes).toContain(created.body.box.node);
      for (const box of [...boxes, created.body.box]) {
        const exec = await rest<ExecResult>("POST", `/v1/boxes/${box.id}/exec`, { cmd: "echo $((6 * 7))" });
        expect(exec.body).toMatchObject({ exitCode: 0, stdout: "42\n" });
      }
      const read = await rest("GET", `/v1/boxes/${boxes[0]!.id}/files?path=note.txt`);
      expect(read.body).toMatchObject({ content: `on ${boxes[0]!.node}` });
    }, 120_000);

    it("when the control plane places a box on a node whose agent keeps a warm pool, then the box takes the pooled disk", async () => {
      const pool = (agents[0]!.service().driver as LocalDriver).pool;
      if (!existsSync("/dev/loop-control") || !pool) return void expect(pool).toBeNull();
      await pool.filled();
      const state = path.join(agents[0]!.dataDir, "state");
      const inode = (folder: string) => statSync(path.join(state, folder, "disk.img")).ino;
      const pooled = new Set(
        readdirSync(state)
          .filter((name) => name.startsWith("pool-"))
          .map(inode),
      );
      expect(pooled.size).toBe(1);
      // the other nodes drained: placement has agent-1 only
      const db = control[0]!.service().db;
      await db.boxNode.updateMany({ where: { node: { in: ["agent-2", "agent-3"] } }, data: { draining: true } });
      try {
        const { box } = await ok(client, "create_box", { name: "from-the-pool", dataGiB: 20 }, 120_000);
        expect(box.node).toBe("agent-1");
        expect(pooled.has(inode(box.id))).toBe(true);
        expect((await run(client, box.id, "hostname")).stdout).toBe("from-the-pool\n");
      } finally {
        await db.boxNode.updateMany({ where: { node: { in: ["agent-2", "agent-3"] } }, data: { draining: false } });
      }
    }, 120_000);

    it("when a box on each node publishes a port and takes a file through a transfer URL, then each is served by its own node, through either replica", async () => {
      const server = "require('http').createServer((q, r) => r.end('served by ' + require('os').hostname())).listen(8080)";
      for (const node of agentNodes) {
        const box = boxes.find((one) => one.node === node)!;
        await ok(client, "write_file", { boxId: box.id, path: "server.js", content: server });
        await ok(client, "start_job", { boxId: box.id, cmd: "node server.js" });
        await until(
          () => run(client, box.id, "(exec 3<>/dev/tcp/127.0.0.1/8080) 2>/dev/null && echo up"),
          (result) => result.stdout.trim() === "up",
          20_000,
        );
        // published through the gateway (either control-plane replica), served by the node's own proxy
        const published = await ok<{ port: { url: string; hostPort: number } }>(client, "publish_port", {
          boxId: box.id,
          port: 8080,
          visibility: "public",
        });
        const range = portBase + agentNodes.indexOf(node) * 100;
        expect(published.port.hostPort).toBeGreaterThanOrEqual(range);
        expect(published.port.hostPort).toBeLessThan(range + 100);
        expect(await (await fetch(published.port.url)).text()).toBe(`served by ${box.name}`);
        // a transfer URL minted by the second replica's REST API enters the box's node
        const minted = await rest<{ url: string }>("POST", `/v1/boxes/${box.id}/upload-url`, { path: "/data/home/up.txt" });
        expect(minted.status, JSON.stringify(minted.body)).toBe(200);
        const agentUrl = agents[agentNodes.indexOf(node)]!.service().runtime.transfers.publicUrl;
        expect(minted.body.url.startsWith(`${agentUrl}/`)).toBe(true);
        expect((await fetch(minted.body.url, { method: "PUT", body: `uploaded to ${node}` })).status).toBe(200);
        expect(await ok(client, "read_file", { boxId: box.id, path: "up.txt" })).toMatchObject({ content: `uploaded to ${node}` });
        // unpublished through the second replica: the node's listener closes (and a drain may move the box again)
        expect((await rest("DELETE", `/v1/boxes/${box.id}/ports/8080`)).status).toBe(200);
        await expect(fetch(published.port.url)).rejects.toThrow();
      }
    }, 180_000);

    it.skipIf(!hasSsh)(
      "when a key is registered through the second replica, then OpenSSH enters a box on every node at that node's endpoint, named by its sshCommand",
      async () => {
        const dir = mkdtempSync(path.join(tmpdir(), "bancada-cp-ssh-"));
        try {
          const identity = path.join(dir, "id");
          execFileSync("ssh-keygen", ["-q", "-t", "ed25519", "-N", "", "-C", "cp@test", "-f", identity]);
          const added = await rest("POST", "/v1/ssh-keys", { publicKey: readFileSync(`${identity}.pub`, "utf8") });
          expect(added.status, JSON.stringify(added.body)).toBe(201);
          for (const node of agentNodes) {
            const { ssh } = agents[agentNodes.indexOf(node)]!.service().runtime;
            expect(ssh.port, `${node}'s SSH endpoint: ${ssh.failure ?? "no failure recorded"}`).not.toBeNull();
            const box = boxes.find((one) => one.node === node)!;
            const { sshCommand } = (await ok(client, "get_box", { boxId: box.id })).box;
            expect(sshCommand).toBe(`ssh -p ${ssh.port} ${box.id}@127.0.0.1`);
            const [, portFlag, port, target] = (sshCommand as string).split(" ");
            // not execFileSync: the agents' SSH endpoints are served by this process's event loop
            const { stdout } = await execFileAsync(
              "ssh",
              [...sshOptions(identity, path.join(dir, "known_hosts")), portFlag!, port!, target!, "cat note.txt; echo; hostname"],
              { timeout: 30_000 },
            );
            expect(stdout).toBe(`on ${node}\n${box.name}\n`);
          }
        } finally {
          rmSync(dir, { recursive: true, force: true });
        }
      },
      120_000,
    );

    it("when a node is drained, then its stopped box moves with its files and job logs to another node and runs there, and its running box stays", async () => {
      const [stopping, staying] = boxes.filter((box) => box.node === "agent-3");
      const db = control[0]!.service().db;
      const job = (await ok<{ job: { id: string } }>(client, "start_job", { boxId: stopping!.id, cmd: "echo logged-before-the-move" })).job;
      await ok(client, "job_wait", { boxId: stopping!.id, jobId: job.id, timeoutSeconds: 30 });
      // its processes gone: the agent's watcher marks it stopped
      const runtime = (await db.box.findUniqueOrThrow({ where: { id: stopping!.id } })).runtime as { init: { pid: number } };
      process.kill(runtime.init.pid, "SIGKILL");
      await until(
        () => ok(client, "get_box", { boxId: stopping!.id }),
        (answer) => answer.box.state === "stopped",
        20_000,
      );
      const printed: string[] = [];
      const command = (...args: string[]) =>
        runBoxesCommand(args, { databaseUrl: stack.database.url, print: (line) => printed.push(line), moveWaitMs: 60_000 });
      try {
        expect(await command("drain", "agent-3")).toBe(0);
        expect(printed).toContainEqual(expect.stringMatching(new RegExp(`^ {2}${stopping!.id} {2}stopped .* moves to another node$`)));
        expect(printed).toContainEqual(
          expect.stringMatching(new RegExp(`^ {2}${staying!.id} {2}running .* stays \\(its processes run here\\)$`)),
        );
        expect(printed).toContainEqual(expect.stringMatching(new RegExp(`^ {2}${stopping!.id} {2}moved to agent-[12]$`)));
        expect(printed.at(-1)).toBe("Every stopped box left node agent-3.");
      } finally {
        await command("undrain", "agent-3");
      }
      const moved = (await ok(client, "get_box", { boxId: stopping!.id })).box;
      expect(moved).toMatchObject({ state: "stopped", operation: null });
      expect(["agent-1", "agent-2"]).toContain(moved.node);
      // the disk left agent-3 whole: nothing of it stays there, and the new node holds it
      expect(existsSync(path.join(agents[2]!.dataDir, "state", stopping!.id))).toBe(false);
      expect(existsSync(path.join(agents[agentNodes.indexOf(moved.node as string)]!.dataDir, "state", stopping!.id))).toBe(true);
      expect((await ok(client, "resume_box", { boxId: stopping!.id }, 120_000)).box).toMatchObject({ state: "running", node: moved.node });
      expect(await ok(client, "read_file", { boxId: stopping!.id, path: "note.txt" })).toMatchObject({ content: "on agent-3" });
      expect((await ok<{ data: string }>(client, "job_logs", { boxId: stopping!.id, jobId: job.id })).data).toBe(
        "logged-before-the-move\n",
      );
      expect((await run(client, stopping!.id, "hostname")).stdout).toBe(`${stopping!.name}\n`);
      // the running box stayed where it was, and answers there
      expect((await ok(client, "get_box", { boxId: staying!.id })).box).toMatchObject({ state: "running", node: "agent-3" });
      expect((await run(client, staying!.id, "cat note.txt")).stdout).toBe("on agent-3");
    }, 180_000);

    it("when a node's disk route is asked with a forged URL, or with a signed one for a box no move claimed, then it refuses and sends nothing", async () => {
      const box = boxes.find((one) => one.node === "agent-2")!;
      const { accountId } = await control[0]!.service().db.box.findUniqueOrThrow({ where: { id: box.id } });
      const publicUrl = agents[1]!.service().runtime.transfers.publicUrl;
      const expires = Math.floor(Date.now() / 1000) + 600;
      const forged = await fetch(`${publicUrl}/boxes/transfers/disk/${box.id}?to=agent-1&expires=${expires}&signature=${"A".repeat(43)}`);
      expect(forged.status).toBe(403);
      const signed = nodeTransferUrl(
        control[0]!.service().runtime,
        { op: "move", accountId, id: box.id, to: "agent-1" },
        { node: "agent-2", publicUrl },
      );
      const unclaimed = await fetch(signed);
      expect(unclaimed.status).toBe(409);
      expect(await unclaimed.text()).toContain("is not being moved to node agent-1");
      // the same signature for another destination, or as a snapshot's, opens nothing
      expect((await fetch(signed.replace("to=agent-1", "to=agent-3"))).status).toBe(403);
      expect((await fetch(signed.replace("/transfers/disk/", "/transfers/snapshot/"))).status).toBe(403);
    });

    it("when a box is made from a snapshot whose node takes no new box, then it goes to another node with the snapshot's files, and the snapshot stays", async () => {
      const source = boxes.find((box) => box.node === "agent-1")!;
      const db = control[0]!.service().db;
      const { snapshot } = await ok<{ snapshot: { id: string; state: string } }>(
        client,
        "save_snapshot",
        { boxId: source.id, name: "to-copy", wait: true },
        120_000,
      );
      expect(snapshot.state).toBe("ready");
      await db.boxNode.updateMany({ where: { node: "agent-1" }, data: { draining: true } });
      let made: Box;
      try {
        made = (await ok(client, "create_box", { name: "from-a-copy", snapshotId: snapshot.id }, 120_000)).box;
      } finally {
        await db.boxNode.updateMany({ where: { node: "agent-1" }, data: { draining: false } });
      }
      expect(["agent-2", "agent-3"]).toContain(made.node);
      expect(made.state).toBe("running");
      expect(await ok(client, "read_file", { boxId: made.id, path: "note.txt" })).toMatchObject({ content: "on agent-1" });
      expect((await run(client, made.id, "hostname")).stdout).toBe("from-a-copy\n");
      // the copy the new node read is gone once the box is made; the snapshot's files stay on agent-1 only
      const target = agents[agentNodes.indexOf(made.node as string)]!;
      const copies = readdirSync(path.join(target.dataDir, "snapshots"), { recursive: true }).filter((name) =>
        String(name).includes(snapshot.id),
      );
      expect(copies).toEqual([]);
      expect((await db.snapshot.findUniqueOrThrow({ where: { id: snapshot.id } })).node).toBe("agent-1");
    }, 180_000);

    it("when another account lists and names the first account's boxes through either replica, then it sees none of them", async () => {
      const other = await connectClient(stack.mcpUrl, await stack.createKey({ scopes: allScopes, accountId: "acct-other" }));
      try {
        expect((await ok<{ boxes: Box[] }>(other, "list_boxes", { limit: 50 })).boxes).toEqual([]);
        await fails(other, "exec", { boxId: boxes[0]!.id, cmd: "true" }, "not_found");
      } finally {
        await other.close();
      }
      const otherRest = restClient(restUrl, await stack.createKey({ scopes: allScopes, accountId: "acct-other" }));
      expect((await otherRest("POST", `/v1/boxes/${boxes[1]!.id}/exec`, { cmd: "true" })).status).toBe(404);
    });
  });
});
