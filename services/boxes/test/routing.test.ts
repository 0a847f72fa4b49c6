/**
 * Boxes on more than one node: two replicas with their own data folders and node names share one database and
 * NATS. Replica A runs in a process of its own (so that it can be killed); replica B runs in this process, where
 * its tool host can be called directly: a call for A's box entering B is forwarded to A's node subject. The
 * gateway's calls enter either replica (one queue group).
 */
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";
import type { AddressInfo } from "node:net";
import { createInterface } from "node:readline";
import { Router } from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { CallReply, Principal } from "@bancada/contracts";
import { busKeyResolver, createServiceApp } from "@bancada/service-kit";
import { captureLogs, connectClient, natsUrl, startStack, type Stack } from "@bancada/e2e";
import { boxesTestStack, describeBoxes, type BoxesTestStack } from "./stack.js";
import { allScopes, fails, ok, run, type Box, type ExecResult, type Job } from "./helpers.js";

const fixture = path.join(import.meta.dirname, "fixtures/replica-process.ts");
const nodeA = "node-a";
const nodeB = "node-b";
const publicUrlA = "http://node-a.boxes.test:8787";
/** Transfer URLs are signed with one key for every replica (BOXES_SIGNING_KEY). */
const signingKey = "routing-test-transfer-signing-key-0123456789";
const principal = (accountId: string): Principal => ({
  keyId: `key-${accountId}`,
  accountId,
  personId: "person-a",
  agentId: "test-agent",
  scopes: allScopes,
  allowWrites: true,
  allowedBoardIds: null,
  profile: "full",
});

/** Replica A runs in another process: it needs a real NATS both processes reach. */
const describeRouting =
  natsUrl && process.env.BANCADA_TEST_BUS !== "memory"
    ? describeBoxes
    : (name: string) =>
        describe(name, () => it.skip("is not tested: replica A runs in another process and needs NATS (NATS_URL)", () => {}));

describeRouting("boxes on more than one node", () => {
  // replica A's data folder and cleanup; its service runs in the child process
  let a: BoxesTestStack;
  let child: ChildProcess | undefined;
  let b: BoxesTestStack;
  const logsB = captureLogs("debug");
  let stack: Stack;
  let client: Client;
  let box: Box;
  let doomed: Box;

  beforeAll(async () => {
    a = boxesTestStack();
    const replicaA = async (deps: { databaseUrl: string; bus: Stack["bus"]; subjects: Stack["subjects"] }) => {
      const root = deps.subjects.queue("boxes").replace(/\.boxes$/, "");
      const args = [deps.databaseUrl, natsUrl!, root, deps.bus.keys.export().verifyKey, a.dataDir, nodeA, "300000", publicUrlA];
      child = spawn(process.execPath, ["--import", "tsx", fixture, ...args], {
        stdio: ["ignore", "pipe", "inherit"],
        env: { ...process.env, BOXES_SIGNING_KEY: signingKey },
      });
      await new Promise<void>((resolve, reject) => {
        child!.once("exit", (code) => reject(new Error(`replica A exited (${code}) before serving`)));
        createInterface({ input: child!.stdout! }).once("line", () => resolve());
      });
      return { name: "boxes", routes: Router(), stop: async () => void child?.kill("SIGKILL") };
    };
    stack = await startStack({ services: { boxes: replicaA } });
    client = await connectClient(stack.mcpUrl, await stack.createKey({ scopes: allScopes }));
    // Made while A is the only replica: they live on node A.
    box = (await ok(client, "create_box", { name: "on-a" }, 120_000)).box;
    doomed = (await ok(client, "create_box", { name: "on-a-doomed" }, 120_000)).box;
    // Replica B, in this process: same database, bus and subject root; another node and data folder.
    b = boxesTestStack({ node: nodeB, uidBase: 300_000, signingKey, log: logsB.log, reapIntervalMs: 3_600_000 });
    await b.factory({ databaseUrl: stack.database.url, bus: stack.bus, subjects: stack.subjects, log: logsB.log });
  }, 240_000);
  afterAll(async () => {
    await client?.close();
    await b?.service().stop();
    await stack?.stop();
    child?.kill("SIGKILL");
    await b?.cleanup();
    await a?.cleanup();
  });

  const viaB = async <T>(tool: string, args: Record<string, unknown>, accountId = "acct-a"): Promise<CallReply & { result?: T }> =>
    (await b.service().host.call(tool, args, principal(accountId))) as CallReply & { result?: T };
  const okViaB = async <T>(tool: string, args: Record<string, unknown>): Promise<T> => {
    const reply = await viaB<T>(tool, args);
    if (!reply.ok) throw new Error(`${tool} via B: ${reply.error.code} ${reply.error.message}`);
    return reply.result as T;
  };
  const forwards = () => logsB.lines().filter((line) => line.msg === "forwarded a call to its owner's node");

  it("when a box lives on node A, then its calls entering replica B are forwarded to A and answered as there", async () => {
    const row = await b.service().db.box.findUniqueOrThrow({ where: { id: box.id } });
    expect(row.node).toBe(nodeA);
    // A holds the box's state; B never had it
    expect(existsSync(path.join(a.dataDir, "state", box.id))).toBe(true);
    expect(existsSync(path.join(b.dataDir, "state", box.id))).toBe(false);

    await okViaB("write_file", { boxId: box.id, path: "/data/home/via-b.txt", content: "written through B\n" });
    expect(await okViaB<{ content: string }>("read_file", { boxId: "on-a", path: "via-b.txt" })).toMatchObject({
      content: "written through B\n",
    });
    const exec = await okViaB<ExecResult>("exec", { boxId: box.id, cmd: "cat /data/home/via-b.txt; hostname" });
    expect(exec).toMatchObject({ exitCode: 0 });
    expect(exec.stdout).toContain("written through B");
    const { job } = await okViaB<{ job: Job }>("start_job", { boxId: box.id, cmd: "sleep 1; echo job-done" });
    expect((await okViaB<{ job: Job }>("job_wait", { boxId: box.id, jobId: job.id, timeoutSeconds: 60 })).job).toMatchObject({
      status: "succeeded",
      exitCode: 0,
    });
    expect(JSON.stringify(await okViaB("job_logs", { boxId: box.id, jobId: job.id }))).toContain("job-done");
    // the transfer URL is minted by the owner, with its own public URL: it enters node A
    const upload = await okViaB<{ url: string }>("get_upload_url", { boxId: box.id, path: "/data/home/up.bin" });
    expect(upload.url.startsWith(`${publicUrlA}/`)).toBe(true);

    // get_box reads Postgres where it enters; its sshCommand names node A's own SSH endpoint (box_nodes)
    const { box: shown } = await okViaB<{ box: Box }>("get_box", { boxId: box.id });
    expect(shown.sshCommand).toMatch(new RegExp(`^ssh -p \\d+ ${box.id}@node-a\\.boxes\\.test$`));

    const seen = forwards();
    expect(seen.length).toBeGreaterThanOrEqual(7);
    expect(seen.every((line) => line.node === nodeA && line.owned === `box ${box.id}`)).toBe(true);
    // the job ran on A: its row says so, and A's driver recorded it
    expect((await b.service().db.job.findUniqueOrThrow({ where: { id: job.id } })).boxId).toBe(box.id);
  });

  it("when calls enter through the gateway, then each one answers whichever replica takes it", async () => {
    const before = forwards().length;
    for (let i = 0; i < 20; i++) expect((await run(client, box.id, `echo ${i}`)).stdout).toBe(`${i}\n`);
    // both replicas take calls from the queue group: some of these entered B and were forwarded
    expect(forwards().length).toBeGreaterThan(before);
  });

  it("when another account names A's box through B, then it is not found and nothing is forwarded", async () => {
    const before = forwards().length;
    const refusals = [
      await viaB("exec", { boxId: box.id, cmd: "true" }, "acct-b"),
      await viaB("read_file", { boxId: "on-a", path: "/etc/hostname" }, "acct-b"),
      await viaB("write_file", { boxId: box.id, path: "/data/home/x", content: "x" }, "acct-b"),
      await viaB("delete_box", { boxId: box.id, confirm: true }, "acct-b"),
    ];
    for (const reply of refusals) expect(reply).toMatchObject({ ok: false, error: { code: "not_found" } });
    const otherKey = await stack.createKey({ scopes: allScopes, accountId: "acct-b" });
    const other = await connectClient(stack.mcpUrl, otherKey);
    try {
      for (let i = 0; i < 4; i++) await fails(other, "exec", { boxId: box.id, cmd: "true" }, "not_found");
    } finally {
      await other.close();
    }
    expect(forwards().length).toBe(before);
  });

  it("when a transfer URL minted by node A enters replica B, then B answers unavailable naming node A and writes nothing", async () => {
    const { url } = await okViaB<{ url: string }>("get_upload_url", { boxId: box.id, path: "/data/home/misrouted.txt" });
    const app = createServiceApp({
      routes: [b.service().routes],
      resolver: busKeyResolver(stack.bus, stack.subjects, 500, logsB.log),
      log: logsB.log,
      guards: { bindHost: "127.0.0.1", allowedHosts: [], allowedOrigins: [] },
    });
    const server = app.listen(0, "127.0.0.1");
    await new Promise((resolve) => server.once("listening", resolve));
    try {
      const entered = new URL(url);
      const { port } = server.address() as AddressInfo;
      const response = await fetch(`http://127.0.0.1:${port}${entered.pathname}${entered.search}`, { method: "PUT", body: "lost" });
      expect(response.status).toBe(503);
      const { error } = (await response.json()) as { error: { code: string; message: string; details: Record<string, unknown> } };
      expect(error).toMatchObject({ code: "unavailable", details: { node: nodeA, reachedNode: nodeB } });
      expect(error.message).toContain(`lives on node ${nodeA}`);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
    expect((await okViaB<ExecResult>("exec", { boxId: box.id, cmd: "test -e /data/home/misrouted.txt; echo $?" })).stdout).toBe("1\n");
  });

  it("when a box on node A is deleted through B, then A deletes it", async () => {
    const deleted = await okViaB<{ box: Box }>("delete_box", { boxId: box.id, confirm: true });
    expect(deleted.box.state).toBe("deleted");
    expect(existsSync(path.join(a.dataDir, "state", box.id))).toBe(false);
    // a deleted box is rows only: B answers for it itself
    const before = forwards().length;
    expect((await okViaB<{ box: Box }>("get_box", { boxId: box.id })).box.state).toBe("deleted");
    expect(forwards().length).toBe(before);
  });

  it("when node A's process is killed, then a call for its box answers unavailable naming node A at once", async () => {
    child!.kill("SIGKILL");
    await new Promise((resolve) => child!.once("exit", resolve));
    const started = performance.now();
    const reply = await viaB("exec", { boxId: doomed.id, cmd: "true" });
    const ms = performance.now() - started;
    expect(reply).toMatchObject({ ok: false, error: { code: "unavailable", details: { node: nodeA, reason: "no_responders" } } });
    expect(reply.ok === false && reply.error.message).toContain(`box ${doomed.id} lives on node ${nodeA}`);
    expect(reply.ok === false && reply.error.message).toContain("its host is down");
    expect(ms).toBeLessThan(2_000);
    // through the gateway only B is left in the queue group: the same answer, as fast
    const viaGateway = performance.now();
    const error = await fails(client, "exec", { boxId: doomed.id, cmd: "true" }, "unavailable");
    expect(performance.now() - viaGateway).toBeLessThan(3_000);
    expect(error.message).toContain(nodeA);
    expect(error.details).toMatchObject({ node: nodeA, retryable: true });
    // what lives only in Postgres still answers
    expect((await ok(client, "get_box", { boxId: doomed.id })).box.id).toBe(doomed.id);
  });
});
