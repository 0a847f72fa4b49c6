/**
 * Boxes on more than one node: two replicas with their own data folders and node names share one database and
 * NATS. Replica A runs in a process of its own (so that it can be killed); replica B runs in this process, where
 * its tool host can be called directly: a call for A's box entering B is served by B, which drives the box through
 * A's node agent (the one path: domain/box-node.ts). The gateway's calls enter either replica (one queue group).
 * Nothing is forwarded between replicas any more: a replica asks the box's node's agent for the node's work.
 */
import type { ChildProcess } from "node:child_process";
import { existsSync, readdirSync } from "node:fs";
import path from "node:path";
import type { AddressInfo } from "node:net";
import type { Server } from "node:http";
import { randomUUID } from "node:crypto";
import { Router } from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { Header, type CallReply, type Principal } from "@bancada/contracts";
import { busKeyResolver, createServiceApp, encodeJson, signBusMessage } from "@bancada/service-kit";
import { captureLogs, connectClient, natsUrl, startStack, type Stack } from "@bancada/e2e";
import { boxesTestStack, describeBoxes, type BoxesTestStack } from "./stack.js";
import { startReplicaProcess } from "./fixtures/start-replica.js";
import { allScopes, fails, ok, restClient, run, until, type Box, type ExecResult, type Job } from "./helpers.js";

const nodeA = "node-a";
const nodeB = "node-b";
const publicUrlA = "http://node-a.boxes.test:8787";
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
  /** What replica A wrote to stderr (its warnings), shown when an assertion about node A fails. */
  let saidByA: string[] = [];
  let b: BoxesTestStack;
  const logsB = captureLogs("debug");
  let stack: Stack;
  let client: Client;
  let box: Box;
  let doomed: Box;
  // REST: replica A's own API, and replica B's (served here), with a key of each account
  let portA = 0;
  let serverB: Server;
  let restA: ReturnType<typeof restClient>;
  let restB: ReturnType<typeof restClient>;
  let otherB: ReturnType<typeof restClient>;
  let restKey = "";
  /** A snapshot kept on node A when its process is killed. */
  let outageSnapshot = "";

  beforeAll(async () => {
    a = boxesTestStack();
    const replicaA = async (deps: { databaseUrl: string; bus: Stack["bus"]; subjects: Stack["subjects"] }) => {
      const replica = await startReplicaProcess(deps, {
        dataDir: a.dataDir,
        node: nodeA,
        uidBase: 300_000,
        publicUrl: publicUrlA,
        // no BOXES_SIGNING_KEY: each node's transfer key derives from its node key, which replica B derives too
        env: { BOXES_SIGNING_KEY: "" },
      });
      ({ child, port: portA, said: saidByA } = replica);
      return { name: "boxes", routes: Router(), stop: async () => void child?.kill("SIGKILL") };
    };
    stack = await startStack({ services: { boxes: replicaA } });
    client = await connectClient(stack.mcpUrl, await stack.createKey({ scopes: allScopes }));
    // Made while A is the only replica: they live on node A.
    box = (await ok(client, "create_box", { name: "on-a" }, 120_000)).box;
    doomed = (await ok(client, "create_box", { name: "on-a-doomed" }, 120_000)).box;
    // Replica B, in this process: same database, bus and subject root; another node and data folder.
    b = boxesTestStack({ node: nodeB, uidBase: 300_000, log: logsB.log, reapIntervalMs: 3_600_000 });
    await b.factory({ databaseUrl: stack.database.url, bus: stack.bus, subjects: stack.subjects, log: logsB.log });
    serverB = serviceApp().listen(0, "127.0.0.1");
    await new Promise((resolve) => serverB.once("listening", resolve));
    restKey = await stack.createKey({ scopes: [...allScopes, "images:read", "images:write"] });
    const otherKey = await stack.createKey({ scopes: [...allScopes, "images:read", "images:write"], accountId: "acct-b" });
    restA = restClient(`http://127.0.0.1:${portA}`, restKey);
    restB = restClient(`http://127.0.0.1:${(serverB.address() as AddressInfo).port}`, restKey);
    otherB = restClient(`http://127.0.0.1:${(serverB.address() as AddressInfo).port}`, otherKey);
  }, 240_000);
  afterAll(async () => {
    await new Promise((resolve) => (serverB ? serverB.close(resolve) : resolve(undefined)));
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
  /** The node agent operations replica B asked (node-client.ts), other than describing the node. */
  const agentCalls = () => logsB.lines().filter((line) => line.msg === "asked a node's agent" && line.op !== "describe");
  /** Where node A keeps a snapshot's files (`<dataDir>/snapshots/<account>/<id>`), or null once they are gone. */
  const snapshotFolder = (id: string): string | null => {
    const root = path.join(a.dataDir, "snapshots");
    for (const account of existsSync(root) ? readdirSync(root) : [])
      if (existsSync(path.join(root, account, id))) return path.join(root, account, id);
    return null;
  };
  /** Replica B's REST API as a service process serves it. */
  const serviceApp = () =>
    createServiceApp({
      routes: [b.service().routes],
      resolver: busKeyResolver(stack.bus, stack.subjects, "boxes", 500, logsB.log),
      log: logsB.log,
      guards: { bindHost: "127.0.0.1", allowedHosts: [], allowedOrigins: [] },
    });

  it("when a box lives on node A, then its calls entering replica B are served by B through A's node agent", async () => {
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
    // the transfer URL is minted by B with node A's public URL (box_nodes) and key: it enters node A
    const upload = await okViaB<{ url: string }>("get_upload_url", { boxId: box.id, path: "/data/home/up.bin" });
    expect(upload.url.startsWith(`${publicUrlA}/`)).toBe(true);
    // and node A takes it: the bytes go to A's own HTTP (here its port on this machine), never over the bus
    const onA = new URL(upload.url);
    const put = await fetch(`http://127.0.0.1:${portA}${onA.pathname}${onA.search}`, { method: "PUT", body: "uploaded through A\n" });
    expect(put.status).toBe(200);
    expect((await okViaB<ExecResult>("exec", { boxId: box.id, cmd: "cat /data/home/up.bin" })).stdout).toBe("uploaded through A\n");

    // get_box reads Postgres where it enters; its sshCommand names node A's own SSH endpoint (box_nodes)
    const { box: shown } = await okViaB<{ box: Box }>("get_box", { boxId: box.id });
    const nodeRow = await b.service().db.boxNode.findUnique({ where: { node: nodeA } });
    expect(shown.sshCommand, `node A's row: ${JSON.stringify(nodeRow)}; replica A said:\n${saidByA.join("\n")}`).toMatch(
      new RegExp(`^ssh -p \\d+ ${box.id}@node-a\\.boxes\\.test$`),
    );

    // write, read, exec, start, wait and logs: each asked A's agent for this box
    const asked = agentCalls();
    expect(asked.length).toBeGreaterThanOrEqual(6);
    expect(asked.every((line) => line.node === nodeA && line.box === box.id)).toBe(true);
    for (const op of ["writeFile", "readFile", "exec", "startJob", "readJobLog"]) expect(asked.map((line) => line.op)).toContain(op);
    // the job ran on A: its row says so, and A's driver recorded it
    expect((await b.service().db.job.findUniqueOrThrow({ where: { id: job.id } })).boxId).toBe(box.id);
  });

  it("when calls enter through the gateway, then each one answers whichever replica takes it", async () => {
    const before = agentCalls().length;
    for (let i = 0; i < 20; i++) expect((await run(client, box.id, `echo ${i}`)).stdout).toBe(`${i}\n`);
    // both replicas take calls from the queue group: some of these entered B, which ran them through A's agent
    expect(agentCalls().length).toBeGreaterThan(before);
  });

  it("when another account names A's box through B, then it is not found and nothing is forwarded", async () => {
    const asked = agentCalls().length;
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
    // node A's agent is asked nothing for it
    expect(agentCalls().length).toBe(asked);
  });

  it("when a transfer URL minted by node A enters replica B, then B answers unavailable naming node A and writes nothing", async () => {
    const { url } = await okViaB<{ url: string }>("get_upload_url", { boxId: box.id, path: "/data/home/misrouted.txt" });
    const server = serviceApp().listen(0, "127.0.0.1");
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

  it("when REST requests for a box on node A enter replica B, then B serves each through A's agent and answers as A's own API does", async () => {
    const askedBefore = agentCalls().length;
    const path1 = `/v1/boxes/${box.id}`;
    expect(await restB("PUT", `${path1}/files`, { path: "rest.txt", content: "through B's REST\n" })).toMatchObject({
      status: 200,
      body: { path: "/data/home/rest.txt", size: 17 },
    });
    const readB = await restB("GET", `${path1}/files?path=rest.txt`);
    expect(readB).toEqual(await restA("GET", `${path1}/files?path=rest.txt`));
    expect(readB.body).toMatchObject({ content: "through B's REST\n" });
    // an error is the owner's, status and body alike
    const missingB = await restB("GET", `/v1/boxes/on-a/files?path=nothing-here`);
    expect(missingB.status).toBe(404);
    expect(missingB).toEqual(await restA("GET", `/v1/boxes/on-a/files?path=nothing-here`));

    const exec = await restB<ExecResult>("POST", `${path1}/exec`, { cmd: "cat rest.txt; exit 3" });
    expect(exec).toMatchObject({ status: 200, body: { stdout: "through B's REST\n", exitCode: 3 } });
    const started = await restB<{ job: Job }>(
      "POST",
      `${path1}/jobs`,
      { cmd: "sleep 1; echo rest-job" },
      { "Idempotency-Key": "rest-job-1" },
    );
    expect(started.status).toBe(201);
    const again = await restB<{ job: Job }>(
      "POST",
      `${path1}/jobs`,
      { cmd: "sleep 1; echo rest-job" },
      { "Idempotency-Key": "rest-job-1" },
    );
    expect(again.body.job.id).toBe(started.body.job.id);
    const waited = await restB<{ job: Job }>("POST", `${path1}/jobs/${started.body.job.id}/wait`, { timeoutSeconds: 60 });
    expect(waited).toMatchObject({ status: 200, body: { job: { status: "succeeded", exitCode: 0 } } });
    const logs = await restB<{ data: string }>("GET", `${path1}/jobs/${started.body.job.id}/logs?tail=5`);
    expect(logs.body.data).toContain("rest-job");

    // transfer URLs are minted with node A's public URL
    const upload = await restB<{ url: string }>("POST", `${path1}/upload-url`, { path: "/data/home/up.bin" });
    const download = await restB<{ url: string }>("POST", `${path1}/download-url`, { path: "/data/home/rest.txt" });
    for (const minted of [upload, download]) expect(minted.body.url.startsWith(`${publicUrlA}/`)).toBe(true);

    // a published port listens on A's host and its URL names A's host
    const published = await restB<{ port: { url: string; port: number } }>("POST", `${path1}/ports`, { port: 8080, visibility: "public" });
    expect(published.status).toBe(201);
    expect(published.body.port.url).toContain("node-a.boxes.test");
    const listed = await restB<{ ports: { url: string }[] }>("GET", `${path1}/ports`);
    expect(listed).toEqual(await restA("GET", `${path1}/ports`));
    expect(listed.body.ports.map((port) => port.url)).toEqual([published.body.port.url]);
    expect(await restB("DELETE", `${path1}/ports/8080`)).toMatchObject({ status: 200, body: { unpublished: { port: 8080 } } });
    expect((await restA<{ ports: unknown[] }>("GET", `${path1}/ports`)).body.ports).toEqual([]);

    expect(await restB("POST", `${path1}/suspend`, {})).toMatchObject({ status: 200, body: { box: { state: "suspended" } } });
    expect(await restB("POST", `${path1}/exec`, { cmd: "true" })).toMatchObject({
      status: 409,
      body: { error: { code: "failed_precondition" } },
    });
    expect(await restB("POST", `${path1}/resume`, {})).toMatchObject({ status: 200, body: { box: { state: "running" } } });

    const forked = await restB<{ boxes: Box[] }>("POST", `${path1}/fork`, { names: ["rest-fork"] });
    expect(forked.status).toBe(201);
    const [copy] = forked.body.boxes;
    expect((await b.service().db.box.findUniqueOrThrow({ where: { id: copy!.id } })).node).toBe(nodeA);
    expect(existsSync(path.join(a.dataDir, "state", copy!.id))).toBe(true);
    expect(await restB("DELETE", `/v1/boxes/${copy!.id}?confirm=true`)).toMatchObject({ status: 200, body: { box: { state: "deleted" } } });
    expect(existsSync(path.join(a.dataDir, "state", copy!.id))).toBe(false);

    // each asked A's agent; the published port was opened and closed by A's proxy, through A's agent
    const asked = agentCalls().slice(askedBefore);
    expect(asked.every((line) => line.node === nodeA)).toBe(true);
    for (const op of [
      "writeFile",
      "readFile",
      "exec",
      "startJob",
      "suspend",
      "resume",
      "copyDisk",
      "destroy",
      "listenPort",
      "closePortListener",
    ])
      expect(asked.map((line) => line.op)).toContain(op);
    // bad input is answered where it entered: nothing crosses
    const askedCount = agentCalls().length;
    expect(await restB("POST", `${path1}/exec`, {})).toMatchObject({ status: 400, body: { error: { code: "invalid_argument" } } });
    expect(await restB("GET", `${path1}/jobs/${started.body.job.id}/logs?tail=0`)).toMatchObject({ status: 400 });
    expect(agentCalls().length).toBe(askedCount);

    // the byte limits hold across the hop: 1 MiB crosses both ways (in parts, over NATS's max_payload); one byte more is 413
    const mib = Buffer.alloc(1024 * 1024, 0xff); // not UTF-8: read back as base64
    const written = await restB("PUT", `${path1}/files`, { path: "big.bin", content: mib.toString("base64"), encoding: "base64" });
    expect(written).toMatchObject({ status: 200, body: { size: 1024 * 1024 } });
    const big = await restB<{ content: string; encoding: string }>("GET", `${path1}/files?path=big.bin`);
    expect(big).toMatchObject({ status: 200, body: { encoding: "base64", size: 1024 * 1024 } });
    expect(Buffer.from(big.body.content, "base64").equals(mib)).toBe(true);
    const over = Buffer.alloc(1024 * 1024 + 1, 7).toString("base64");
    expect(await restB("PUT", `${path1}/files`, { path: "big.bin", content: over, encoding: "base64" })).toMatchObject({
      status: 413,
      body: { error: { code: "payload_too_large" } },
    });
  }, 240_000);

  it("when a snapshot of a box on node A is saved, used and deleted through B's REST, then A keeps, copies and removes it", async () => {
    await restB("PUT", `/v1/boxes/${box.id}/files`, { path: "kept.txt", content: "in the snapshot\n" });
    const saved = await restB<{ snapshot: { id: string; state: string } }>("POST", `/v1/boxes/${box.id}/snapshots`, { name: "rest-snap" });
    expect(saved).toMatchObject({ status: 201, body: { snapshot: { state: "ready" } } });
    const snapshotId = saved.body.snapshot.id;
    expect((await b.service().db.snapshot.findUniqueOrThrow({ where: { id: snapshotId } })).node).toBe(nodeA);
    expect(snapshotFolder(snapshotId)).not.toBeNull();
    // create_box from a snapshot kept on A: the box is made on A
    const created = await restB<{ box: Box }>(
      "POST",
      "/v1/boxes",
      { name: "from-rest-snap", snapshotId },
      { "Idempotency-Key": "from-snap-1" },
    );
    expect(created).toMatchObject({ status: 201, body: { box: { state: "running" } } });
    expect((await b.service().db.box.findUniqueOrThrow({ where: { id: created.body.box.id } })).node).toBe(nodeA);
    expect((await restB<ExecResult>("POST", `/v1/boxes/from-rest-snap/exec`, { cmd: "cat kept.txt" })).body.stdout).toBe(
      "in the snapshot\n",
    );
    expect(await restB("DELETE", "/v1/boxes/from-rest-snap", { confirm: true })).toMatchObject({
      status: 200,
      body: { box: { state: "deleted" } },
    });

    // another account: not found wherever it names it, and nothing crosses
    const asked = agentCalls().length;
    expect(await otherB("DELETE", `/v1/snapshots/${snapshotId}`)).toMatchObject({ status: 404, body: { error: { code: "not_found" } } });
    expect(await otherB("POST", "/v1/boxes", { snapshotId })).toMatchObject({ status: 404, body: { error: { code: "not_found" } } });
    expect(agentCalls().length).toBe(asked);

    const deleted = await restB<{ snapshot: { state: string } }>("DELETE", `/v1/snapshots/${snapshotId}`);
    expect(deleted).toMatchObject({ status: 200, body: { snapshot: { state: "deleted" } } });
    expect(snapshotFolder(snapshotId)).toBeNull();
    // a deleted snapshot is a row: answered where it enters, as it is, without asking its node
    const after = agentCalls().length;
    expect((await restB("DELETE", `/v1/snapshots/${snapshotId}`)).status).toBe(200);
    expect(agentCalls().length).toBe(after);
    const kept = await restB<{ snapshot: { id: string } }>("POST", `/v1/boxes/${doomed.id}/snapshots`, { name: "kept-for-outage" });
    expect(kept.status).toBe(201);
    outageSnapshot = kept.body.snapshot.id;
  }, 240_000);

  it("when another account names A's box through B's REST, then it is not found and nothing is forwarded", async () => {
    const asked = agentCalls().length;
    const refusals = [
      await otherB("POST", `/v1/boxes/${box.id}/exec`, { cmd: "true" }),
      await otherB("GET", "/v1/boxes/on-a/files?path=/etc/hostname"),
      await otherB("PUT", `/v1/boxes/${box.id}/files`, { path: "x", content: "x" }),
      await otherB("POST", `/v1/boxes/${box.id}/jobs`, { cmd: "true" }),
      await otherB("GET", `/v1/boxes/${box.id}/ports`),
      await otherB("DELETE", `/v1/boxes/${box.id}/ports/8080`),
      await otherB("POST", `/v1/boxes/${box.id}/upload-url`, { path: "/data/home/x" }),
      await otherB("POST", `/v1/boxes/${box.id}/suspend`, {}),
      await otherB("POST", `/v1/boxes/${box.id}/fork`, {}),
      await otherB("POST", `/v1/boxes/${box.id}/snapshots`, {}),
      await otherB("GET", `/v1/boxes/${box.id}/jobs/job_none/logs`),
      await otherB("POST", `/v1/boxes/${box.id}/jobs/job_none/wait`, {}),
      await otherB("POST", `/v1/boxes/${box.id}/download-url`, { path: "/data/home/x" }),
      await otherB("POST", `/v1/boxes/${box.id}/ports`, { port: 8080 }),
      await otherB("POST", `/v1/boxes/${box.id}/resume`, {}),
      await otherB("DELETE", `/v1/boxes/${box.id}?confirm=true`),
    ];
    for (const refusal of refusals) expect(refusal).toMatchObject({ status: 404, body: { error: { code: "not_found" } } });
    expect(agentCalls().length).toBe(asked);
  });

  it("when a REST client goes away while its command runs on node A, then A kills the command", async () => {
    const controller = new AbortController();
    const { port } = serverB.address() as AddressInfo;
    const request = fetch(`http://127.0.0.1:${port}/v1/boxes/${box.id}/exec`, {
      method: "POST",
      headers: { Authorization: `Bearer ${restKey}`, "Content-Type": "application/json" },
      body: JSON.stringify({ cmd: "sleep 77", timeoutSeconds: 120 }),
      signal: controller.signal,
    }).catch(() => null);
    // [s]leep: the pattern does not match the command line of the pgrep call itself
    const probe = () =>
      restA<ExecResult>("POST", `/v1/boxes/${box.id}/exec`, { cmd: "pgrep -f '[s]leep 77' >/dev/null && echo yes || echo no" });
    expect((await until(probe, (reply) => reply.body.stdout === "yes\n", 20_000)).body.stdout).toBe("yes\n");
    controller.abort();
    await request;
    expect((await until(probe, (reply) => reply.body.stdout === "no\n", 20_000)).body.stdout).toBe("no\n");
  }, 60_000);

  it("when replica A suspends a box while replica B runs a command in it, then B's exec answers at once; an unsigned freeze is ignored", async () => {
    const events = stack.subjects.replicaEvents("boxes");
    const freeze = (reason: string) => encodeJson({ from: "someone", boxId: box.id, freeze: { state: "suspended", reason } });
    const running = viaB<ExecResult>("exec", { boxId: box.id, cmd: "sleep 100", timeoutSeconds: 120 });
    const probe = () =>
      restA<ExecResult>("POST", `/v1/boxes/${box.id}/exec`, { cmd: "pgrep -f '[s]leep 100' >/dev/null && echo yes || echo no" });
    expect((await until(probe, (reply) => reply.body.stdout === "yes\n", 20_000)).body.stdout).toBe("yes\n");
    // not tagged with the boxes key (or tagged with another service's): no replica acts on it
    stack.bus.publish(events, freeze("forged"), { [Header.callId]: randomUUID() });
    const other = freeze("forged with the scripts key");
    stack.bus.publish(events, other, signBusMessage(stack.bus.keys.for("scripts"), events, { [Header.callId]: randomUUID() }, other));
    const early = await Promise.race([running, new Promise((resolve) => setTimeout(() => resolve("still running"), 1_500))]);
    expect(early).toBe("still running");
    // the genuine freeze, made by node A's own replica: B's exec hears it over the bus and answers at once
    const started = performance.now();
    expect(await restA("POST", `/v1/boxes/${box.id}/suspend`, {})).toMatchObject({ status: 200, body: { box: { state: "suspended" } } });
    const reply = await running;
    expect(performance.now() - started).toBeLessThan(10_000);
    expect(reply).toMatchObject({ ok: false, error: { code: "failed_precondition", details: { state: "suspended" } } });
    expect(reply.ok === false && reply.error.message).toContain("resume_box");
    expect(await restB("POST", `/v1/boxes/${box.id}/resume`, {})).toMatchObject({ status: 200, body: { box: { state: "running" } } });
    expect((await until(probe, (answer) => answer.body.stdout === "no\n", 20_000)).body.stdout).toBe("no\n");
  }, 90_000);

  it("when a box on node A is deleted through B, then A deletes it", async () => {
    const deleted = await okViaB<{ box: Box }>("delete_box", { boxId: box.id, confirm: true });
    expect(deleted.box.state).toBe("deleted");
    expect(existsSync(path.join(a.dataDir, "state", box.id))).toBe(false);
    // a deleted box is rows only: B answers for it without asking node A
    const before = agentCalls().length;
    expect((await okViaB<{ box: Box }>("get_box", { boxId: box.id })).box.state).toBe("deleted");
    expect(agentCalls().length).toBe(before);
  });

  it("when a box being created by replica A (its setup running) is deleted through B, then A's create stops and the box is deleted, nothing left", async () => {
    const made = await restA<{ box: Box }>("POST", "/v1/boxes", { name: "creating-on-a", setup: { cmd: "sleep 60" }, wait: false });
    expect(made.status).toBe(201);
    const id = made.body.box.id;
    await until(
      () => okViaB<{ box: Box }>("get_box", { boxId: id }),
      (answer) => answer.box.stateReason === "running setup",
      30_000,
    );
    // the create runs in A's process: B's delete asks A (replicas.<instance>.stop-work) to cancel it and waits for it
    const started = Date.now();
    expect((await okViaB<{ box: Box }>("delete_box", { boxId: id, confirm: true })).box).toMatchObject({
      state: "deleted",
      operation: null,
    });
    expect(Date.now() - started).toBeLessThan(20_000);
    const stopped = logsB.lines().filter((line) => line.msg === "asked another replica to stop its work" && line.boxId === id);
    expect(stopped).toMatchObject([{ answered: true }]);
    expect(existsSync(path.join(a.dataDir, "state", id))).toBe(false);
    // the create's own last step never overwrote the deletion
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect((await okViaB<{ box: Box }>("get_box", { boxId: id })).box.state).toBe("deleted");
  }, 90_000);

  it("when replica B drives a box of node A through A's node agent (another process), then A's driver answers; B's own node is its own driver", async () => {
    const nodes = b.service().runtime.nodes;
    expect(await nodes.driverFor(nodeB)).toBe(b.service().runtime.driver);
    const driverA = await nodes.driverFor(nodeA);
    expect(driverA.node).toBe(nodeA);
    const row = await b.service().runtime.db.box.findUniqueOrThrow({ where: { id: doomed.id } });
    const handle = { id: doomed.id, runtime: row.runtime };
    expect(await driverA.inspect(handle)).toBe("running");
    const outcome = await driverA.exec(handle, {
      command: { argv: ["hostname"] },
      cwd: "/data/home",
      env: {},
      timeoutMs: 30_000,
      maxOutputBytes: 1024,
    });
    expect(outcome.stdout.toString().trim()).toBe("on-a-doomed");
    expect(await nodes.driverFor(nodeA)).toBe(driverA);
  }, 60_000);

  it("when node A's process is killed, then a call for its box answers unavailable naming node A at once", async () => {
    // what PostgreSQL alone answers, B answers without asking node A: a job or a port the box never had, the box's
    // published ports, and transfer URLs (signed with node A's key and URL: they work once A is back)
    const asked = agentCalls().length;
    for (const answer of [
      await restB("GET", `/v1/boxes/${doomed.id}/jobs/job_none/logs`),
      await restB("POST", `/v1/boxes/${doomed.id}/jobs/job_none/wait`, {}),
      await restB("DELETE", `/v1/boxes/${doomed.id}/ports/8080`),
    ])
      expect(answer).toMatchObject({ status: 404, body: { error: { code: "not_found" } } });
    expect(await restB("GET", `/v1/boxes/${doomed.id}/ports`)).toMatchObject({ status: 200, body: { ports: [] } });
    const minted = await restB<{ url: string }>("POST", `/v1/boxes/${doomed.id}/upload-url`, { path: "/data/home/x" });
    expect(minted.body.url.startsWith(`${publicUrlA}/`)).toBe(true);
    expect(agentCalls().length).toBe(asked);
    child!.kill("SIGKILL");
    await new Promise((resolve) => child!.once("exit", resolve));
    // NATS drops A's subscriptions when it reads the closed connection, which on a loaded machine can come a moment
    // after the exit; a call in that moment reaches the dead subscription and answers responder_lost after 2 s
    await until(
      () => viaB("exec", { boxId: doomed.id, cmd: "true" }),
      (reply) => !reply.ok && (reply.error.details as { reason?: string } | undefined)?.reason === "no_responders",
    );
    const started = performance.now();
    const reply = await viaB("exec", { boxId: doomed.id, cmd: "true" });
    const ms = performance.now() - started;
    // node A's agent went with it: its driver operations answer unavailable naming node A too
    const agentA = await b.service().runtime.nodes.driverFor(nodeA);
    await expect(agentA.inspect({ id: doomed.id, runtime: null })).rejects.toMatchObject({ code: "unavailable", details: { node: nodeA } });
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

    // REST entering B answers as the tools do: 503 naming the node, at once; reads of Postgres still answer
    const restStarted = performance.now();
    const down = [
      await restB("POST", `/v1/boxes/${doomed.id}/exec`, { cmd: "true" }),
      await restB("GET", `/v1/boxes/${doomed.id}/files?path=x`),
      await restB("POST", `/v1/boxes/${doomed.id}/jobs`, { cmd: "true" }),
      await restB("POST", `/v1/boxes/${doomed.id}/resume`, {}),
      await restB("POST", `/v1/boxes/${doomed.id}/snapshots`, {}),
      await restB("PUT", `/v1/boxes/${doomed.id}/files`, { path: "x", content: "x" }),
      await restB("POST", `/v1/boxes/${doomed.id}/ports`, { port: 8080 }),
      await restB("POST", `/v1/boxes/${doomed.id}/suspend`, {}),
      await restB("POST", `/v1/boxes/${doomed.id}/fork`, {}),
      await restB("DELETE", `/v1/boxes/${doomed.id}?confirm=true`),
    ];
    const fromSnapshot = [
      await restB("POST", "/v1/boxes", { snapshotId: outageSnapshot }),
      await restB("DELETE", `/v1/snapshots/${outageSnapshot}`),
    ];
    expect(performance.now() - restStarted).toBeLessThan(5_000);
    const unavailable = { status: 503, body: { error: { code: "unavailable", details: { node: nodeA, reason: "no_responders" } } } };
    for (const answer of down) {
      expect(answer).toMatchObject(unavailable);
      expect(JSON.stringify(answer.body)).toContain(`box ${doomed.id} lives on node ${nodeA}`);
    }
    for (const answer of fromSnapshot) {
      expect(answer).toMatchObject(unavailable);
      expect(JSON.stringify(answer.body)).toContain(`snapshot ${outageSnapshot} lives on node ${nodeA}`);
    }
    expect(await restB("GET", `/v1/boxes/${doomed.id}`)).toMatchObject({ status: 200, body: { box: { id: doomed.id } } });
  });
});
