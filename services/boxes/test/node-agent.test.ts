/**
 * The node agent's RPC over real NATS: a local driver served by an agent in one bus connection, the control plane's
 * NodeClient in another. The client runs the driver's operations as the driver would in-process (outputs, files,
 * jobs, errors of the driver's own kinds), an abort reaches the agent, only the node's own key is obeyed, and an
 * agent that is gone is `unavailable` naming its node at once.
 */
import { randomInt, randomUUID } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DomainError, subjects as subjectsOf } from "@bancada/contracts";
import { BusKeys, connectNatsBus, createLogger, type Bus } from "@bancada/service-kit";
import { natsUrl } from "@bancada/e2e";
import { createLocalDriver, type LocalDriver } from "../src/index.js";
import { DriverError } from "../src/driver/driver-error.js";
import { serveNodeAgent, type NodeAgent } from "../src/node/node-agent.js";
import { connectNode, type NodeClient } from "../src/node/node-client.js";
import { agentNodeKey, deriveNodeKey } from "../src/node/node-key.js";
import { printNodeKey } from "../src/index.js";
import { closeBoxFixture, describeBoxes, openBoxFixture, type BoxFixture } from "./stack.js";
import { ok, until } from "./helpers.js";

const node = `agent-${randomInt(0, 1_000_000)}`;
const subjects = subjectsOf(`test${randomUUID().replaceAll("-", "").slice(0, 12)}`);
const log = createLogger("node-agent-test", "silent");

describe("node keys", () => {
  it("when `bancada boxes node-key` prints a node's key, then an agent given it as BOXES_NODE_KEY holds the key the control plane derives", () => {
    const keys = BusKeys.generate();
    const lines: string[] = [];
    expect(
      printNodeKey(
        ["node-key", "n1"],
        () => keys,
        (line) => lines.push(line),
      ),
    ).toBe(0);
    expect(lines[0]).toBe("BOXES_NODE=n1");
    const given = lines[1]!.replace("BOXES_NODE_KEY=", "");
    const agentKeys = BusKeys.generate(); // a machine with no boxes key of this deployment
    expect(agentNodeKey(agentKeys, "n1", given).export()).toBe(deriveNodeKey(keys.for("boxes"), "n1").export());
    // derived from the service's key alone: a boxes process without the master derives the same
    expect(deriveNodeKey(keys.only(["boxes"]).for("boxes"), "n1").export()).toBe(given);
    expect(deriveNodeKey(keys.for("boxes"), "n2").export()).not.toBe(given);
    expect(() => agentNodeKey(agentKeys, "n1", "c2hvcnQ=")).toThrow(/BOXES_NODE_KEY: must be 32 bytes as base64/);
    expect(
      printNodeKey(
        ["node-key"],
        () => keys,
        () => {},
      ),
    ).toBe(2);
  });
});

/** The agent and the control plane's client talk over a real NATS: without NATS_URL the file says it is skipped. */
const describeOverNats = natsUrl
  ? describeBoxes
  : (name: string) => describe(name, () => it.skip("is not tested: the agent and its client talk over a real NATS (NATS_URL)", () => {}));

describeOverNats("a node agent and the control plane's client of it", () => {
  const keys = BusKeys.generate();
  const nodeKey = deriveNodeKey(keys.for("boxes"), node);
  let agentBus: Bus;
  let planeBus: Bus;
  let driver: LocalDriver;
  let agent: NodeAgent;
  let client: NodeClient;
  let dataDir: string;
  const hostUid = 300_000 + randomInt(0, 100_000) * 100;
  const box = { id: `bx_agent${randomInt(0, 1_000_000)}`, runtime: null as unknown };
  const spec = () => ({ ...box, name: "agent-box", vcpus: 1, memMiB: 512, dataGiB: 1, hostUid });

  beforeAll(async () => {
    dataDir = mkdtempSync(path.join(tmpdir(), "bancada-node-agent-"));
    driver = await createLocalDriver({ dataDir, log, disks: "directory", probeUid: hostUid, node });
    // the agent's connection holds no boxes key at all: only its node key, as on a machine of its own
    agentBus = await connectNatsBus({ url: natsUrl!, name: `agent-${node}`, keys: BusKeys.generate(), log });
    planeBus = await connectNatsBus({ url: natsUrl!, name: "control-plane", keys: keys.only(["boxes"]), log });
    agent = serveNodeAgent({ bus: agentBus, subjects, driver, key: nodeKey, log });
    // the agent's subscription travels on its own connection: until the server has it, the node has "no responders"
    const connect = () => connectNode({ bus: planeBus, subjects, node, key: deriveNodeKey(keys.for("boxes"), node) });
    client =
      (await until(
        () => connect().catch(() => null),
        (connected) => connected !== null,
      )) ?? (await connect());
    box.runtime = await client.create(spec());
  }, 120_000);

  afterAll(async () => {
    await driver?.destroy(box).catch(() => {});
    agent?.stop();
    await driver?.close();
    await agentBus?.close();
    await planeBus?.close();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it("when the client describes the node, then it has the driver's kind, template and enforcement with each box's numbers", () => {
    expect(client.kind).toBe(driver.kind);
    expect(client.node).toBe(node);
    expect(client.available).toBe(true);
    expect(client.template).toEqual(driver.template);
    const resources = { vcpus: 3, memMiB: 1536, dataGiB: 7 };
    expect(client.enforcement(resources)).toEqual(driver.enforcement(resources));
  });

  it("when a command, files and a job go through the client, then each answers as the driver does in-process (bytes intact)", async () => {
    const stdin = Buffer.from([0, 1, 2, 250, 255]);
    const outcome = await client.exec(box, {
      command: { cmd: "cat; echo err >&2; exit 3" },
      cwd: "/data/home",
      env: {},
      timeoutMs: 30_000,
      maxOutputBytes: 65_536,
      stdin,
    });
    expect(Buffer.isBuffer(outcome.stdout)).toBe(true);
    expect(outcome.stdout.equals(stdin)).toBe(true);
    expect(outcome.stderr.toString()).toBe("err\n");
    expect(outcome.exitCode).toBe(3);

    const data = Buffer.alloc(3 * 1024 * 1024, 7);
    expect(await client.writeFile(box, { path: "/data/home/big.bin", data, mode: 0o644, parents: false })).toEqual({ kind: "written" });
    const read = await client.readFile(box, "/data/home/big.bin", 4 * 1024 * 1024);
    expect(read.kind).toBe("file");
    expect(read.kind === "file" && read.data.equals(data)).toBe(true);
    expect(await client.inspectPath(box, "/data/home/big.bin", { folderBytes: false })).toEqual({ kind: "file", size: data.length });
    const listed = await client.listFolder(box, "/data/home", 10);
    expect(listed.kind === "folder" && listed.entries.map((entry) => entry.name)).toContain("big.bin");

    const job = await client.startJob(box, { jobId: "j1", command: { cmd: "echo from-the-job" }, cwd: "/data/home", env: {} });
    let probe = await client.probeJob(box, "j1", job);
    for (let i = 0; probe.state === "running" && i < 100; i++) {
      await client.jobChanged(box, "j1", 200);
      probe = await client.probeJob(box, "j1", job);
    }
    expect(probe).toMatchObject({ state: "exited", exitCode: 0 });
    const chunk = await client.readJobLog(box, "j1", { offset: 0, maxBytes: 1024 });
    expect(chunk.data.toString()).toBe("from-the-job\n");

    const space = await client.diskSpace([box.id]);
    expect(space.heldBytes).toBeInstanceOf(Map);
    expect(space.heldBytes).toEqual((await driver.diskSpace([box.id])).heldBytes);
    expect(space.freeBytes).toBeGreaterThan(0);
  }, 120_000);

  it("when the driver reports one of its own conditions, then the client throws the same kind (the domain maps it as before)", async () => {
    const error = await client
      .exec(box, { command: { cmd: "true" }, cwd: "/data/nowhere", env: {}, timeoutMs: 10_000, maxOutputBytes: 1024 })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(DriverError);
    expect((error as DriverError).kind).toBe("cwd_missing");
  });

  it("when the caller aborts an exec, then the agent ends it and answers it cancelled, long before its timeout", async () => {
    const abort = new AbortController();
    setTimeout(() => abort.abort(), 500);
    const started = Date.now();
    const outcome = await client.exec(box, {
      command: { cmd: "sleep 60" },
      cwd: "/data/home",
      env: {},
      timeoutMs: 60_000,
      maxOutputBytes: 1024,
      signal: abort.signal,
    });
    expect(outcome.cancelled).toBe(true);
    expect(Date.now() - started).toBeLessThan(15_000);
  }, 30_000);

  it("when the box is stopped and started through the client, then its files are there", async () => {
    await client.stop(box);
    expect(await client.inspect(box)).toBe("gone");
    box.runtime = await client.start(spec());
    expect(await client.inspect(box)).toBe("running");
    const read = await client.readFile(box, "/data/home/big.bin", 4 * 1024 * 1024);
    expect(read.kind === "file" && read.data.length).toBe(3 * 1024 * 1024);
  }, 120_000);

  it("when a message is tagged with another node's key or another deployment's boxes key, then the agent runs nothing", async () => {
    const otherNode = await connectNodeOrError(deriveNodeKey(keys.for("boxes"), "some-other-node"));
    expect(otherNode).toBeInstanceOf(DomainError);
    expect(otherNode).toMatchObject({ code: "unavailable", details: { node, reason: "bad_signature" } });
    const otherDeployment = await connectNodeOrError(deriveNodeKey(BusKeys.generate().for("boxes"), node));
    expect(otherDeployment).toMatchObject({ code: "unavailable", details: { node, reason: "bad_signature" } });
    // the box still runs: nothing was done to it
    expect(await client.inspect(box)).toBe("running");
  });

  it("when a node has no agent, then its calls answer unavailable naming the node, at once", async () => {
    const missing = `nobody-${randomInt(0, 1_000_000)}`;
    const ghost = await connectNodeOrError(deriveNodeKey(keys.for("boxes"), missing), missing);
    expect(ghost).toBeInstanceOf(DomainError);
    expect(ghost).toMatchObject({ code: "unavailable", details: { node: missing, reason: "no_responders" } });
    expect((ghost as DomainError).message).toContain(`node ${missing}`);

    // the agent stops: the box on it answers unavailable, naming the box and its node, within 3 s
    agent.stop();
    const started = Date.now();
    const error = await client.inspect(box).catch((caught: unknown) => caught);
    expect(Date.now() - started).toBeLessThan(3_000);
    expect(error).toMatchObject({ code: "unavailable", details: { node } });
    expect((error as DomainError).message).toContain(`box ${box.id} lives on node ${node}`);
    // and a new agent serves it again, box and files as they were
    agent = serveNodeAgent({ bus: agentBus, subjects, driver, key: nodeKey, log });
    expect(
      await until(
        () => client.inspect(box).catch(() => "not yet"),
        (liveness) => liveness === "running",
      ),
    ).toBe("running");
  });

  async function connectNodeOrError(key: ReturnType<typeof deriveNodeKey>, name = node): Promise<unknown> {
    return connectNode({ bus: planeBus, subjects, node: name, key }).catch((caught: unknown) => caught);
  }
});

describeBoxes("the node agent every boxes replica serves", () => {
  let fixture: BoxFixture;

  beforeAll(async () => {
    fixture = await openBoxFixture("served-by-its-agent");
  }, 120_000);
  afterAll(() => closeBoxFixture(fixture ?? {}));

  it("when another process asks the replica's node for a box made over MCP, then its agent answers with the box's files; once the replica stops, unavailable naming the node", async () => {
    const { stack, client: mcp, box } = fixture;
    await ok(mcp, "write_file", { boxId: box.id, path: "/data/home/note.txt", content: "written over MCP" });
    const { runtime } = fixture.boxes.service();
    const node = runtime.driver.node;
    const row = await runtime.db.box.findUniqueOrThrow({ where: { id: box.id } });
    const handle = { id: box.id, runtime: row.runtime };
    const client = await connectNode({
      bus: stack.bus,
      subjects: stack.subjects,
      node,
      key: deriveNodeKey(stack.bus.keys.for("boxes"), node),
    });
    expect(client.template).toEqual(runtime.driver.template);
    const read = await client.readFile(handle, "/data/home/note.txt", 1024);
    expect(read.kind === "file" && read.data.toString()).toBe("written over MCP");
    const outcome = await client.exec(handle, {
      command: { argv: ["hostname"] },
      cwd: "/data/home",
      env: {},
      timeoutMs: 10_000,
      maxOutputBytes: 1024,
    });
    expect(outcome.stdout.toString().trim()).toBe("served-by-its-agent");

    await stack.stopService("boxes");
    const error = await client.inspect(handle).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code: "unavailable", details: { node } });
  }, 120_000);
});
