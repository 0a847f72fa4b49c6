/**
 * Floods of idle connections to the SSH endpoint and to published ports (a probe once held 20,000 and ran the
 * service out of file descriptors): the caps close what is over them at once, an unauthenticated SSH connection
 * and a port connection without a request are dropped at their deadline, and meanwhile create_box, exec and
 * /healthz work and no box changes state. Then the port bridges: they run in the box's cgroups, one per box
 * port however the first connections come, and none (nor their socket folder) outlives its box or a restart.
 * Everything on 127.0.0.1; every connection is closed at the end.
 */
import { readdirSync, readFileSync } from "node:fs";
import { connect, type Socket } from "node:net";
import path from "node:path";
import { randomInt } from "node:crypto";
import { afterAll, beforeAll, expect, it } from "vitest";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { connectClient, startStack, type Stack } from "@bancada/e2e";
import { createLogger } from "@bancada/service-kit";
import { createLocalDriver } from "../src/index.js";
import { boxesTestStack, describeBoxes, type BoxesTestStack } from "./stack.js";
import { allScopes, ok, restClient, run, until, type Box } from "./helpers.js";

/** An http server on 8080 and a tcp echo server on 9000, in the box. */
const servers = String.raw`
require("http").createServer((req, res) => res.end("hello")).listen(8080, "127.0.0.1");
require("net").createServer((socket) => socket.pipe(socket)).listen(9000, "127.0.0.1");
`;

const floodSize = 5_000;
const deadlineMs = 3_000;

/** Opens `count` idle connections (in batches, so the listen queue keeps up) and tracks which the server closed. */
async function flood(port: number, count: number): Promise<{ sockets: Socket[]; open: () => number; close: () => void }> {
  const sockets: Socket[] = [];
  let closed = 0;
  for (let start = 0; start < count; start += 250) {
    const batch = Array.from({ length: Math.min(250, count - start) }, () => {
      const socket = connect(port, "127.0.0.1");
      sockets.push(socket);
      socket.on("error", () => {});
      // read (and drop) what the server sends, an SSH banner: only then does its close reach us
      socket.resume();
      socket.once("close", () => closed++);
      return new Promise<void>((resolve) => {
        socket.once("connect", resolve);
        socket.once("close", resolve);
      });
    });
    await Promise.all(batch);
  }
  return { sockets, open: () => sockets.length - closed, close: () => sockets.forEach((socket) => socket.destroy()) };
}

/** The port bridges of this data folder: socat processes (listeners and their forks), by socket and cgroup. */
function bridges(dataDir: string): { pid: number; socket: string; cgroup: string }[] {
  const marker = `UNIX-LISTEN:${path.join(dataDir, "ports")}/`;
  const found: { pid: number; socket: string; cgroup: string }[] = [];
  for (const name of readdirSync("/proc").filter((entry) => /^\d+$/.test(entry))) {
    try {
      const arg = readFileSync(`/proc/${name}/cmdline`, "utf8")
        .split("\0")
        .find((item) => item.startsWith(marker));
      if (arg) found.push({ pid: Number(name), socket: arg.split(",")[0]!, cgroup: readFileSync(`/proc/${name}/cgroup`, "utf8") });
    } catch {
      // gone meanwhile
    }
  }
  return found;
}

const listed = (dir: string) => {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
};

describeBoxes("connection floods and port bridges", () => {
  let boxes: BoxesTestStack;
  let stack: Stack;
  let client: Client;
  let key: string;
  let box: Box;
  let sshPort: number;

  beforeAll(async () => {
    const first = 20_000 + randomInt(0, 400) * 100;
    boxes = boxesTestStack({
      sshPort: 0,
      sshLimits: { authTimeoutMs: deadlineMs },
      portConnections: { firstRequestMs: deadlineMs },
      portRange: { first, last: first + 99 },
      portsBindHost: "127.0.0.1",
      portsHost: "127.0.0.1",
    });
    stack = await startStack({ services: { boxes: boxes.factory } });
    key = await stack.createKey({ scopes: allScopes });
    client = await connectClient(stack.mcpUrl, key);
    box = (await ok(client, "create_box", { name: "floods" })).box;
    await ok(client, "write_file", { boxId: box.id, path: "servers.js", content: servers });
    await ok(client, "start_job", { boxId: box.id, cmd: "node servers.js" });
    await until(
      () => run(client, box.id, "(exec 3<>/dev/tcp/127.0.0.1/8080 && exec 4<>/dev/tcp/127.0.0.1/9000) 2>/dev/null && echo up"),
      (result) => result.stdout.trim() === "up",
      20_000,
    );
    sshPort = boxes.service().runtime.ssh.port!;
  });
  afterAll(async () => {
    await client?.close();
    await stack?.stop();
    await boxes?.cleanup();
  });

  const states = async () =>
    (await boxes.service().db.box.findMany({ select: { id: true, state: true }, orderBy: { id: "asc" } })).map(
      (row) => `${row.id}:${row.state}`,
    );

  /** While a flood holds what it can: a box is made and deleted, a command runs, health answers, no box changes state. */
  async function serviceStillWorks(before: string[]): Promise<void> {
    expect((await fetch(`${stack.baseUrl}/healthz`)).status).toBe(200);
    expect((await run(client, box.id, "echo alive")).stdout).toBe("alive\n");
    const made = (await ok(client, "create_box", { name: `during-${randomInt(0, 1e6)}` })).box;
    expect(made.state).toBe("running");
    await ok(client, "delete_box", { boxId: made.id, confirm: true });
    expect((await states()).filter((state) => !state.startsWith(`${made.id}:`))).toEqual(before);
  }

  it("when 5,000 idle connections reach the SSH port, then 64 stay at most, the service keeps working, and the deadline drops them", async () => {
    const before = await states();
    const held = await flood(sshPort, floodSize);
    try {
      expect(
        await until(
          async () => held.open(),
          (open) => open <= 64,
          5_000,
        ),
      ).toBeLessThanOrEqual(64);
      await serviceStillWorks(before);
      // nothing authenticated: the ones let in are dropped at the authentication deadline
      expect(
        await until(
          async () => held.open(),
          (open) => open === 0,
          deadlineMs + 5_000,
        ),
      ).toBe(0);
    } finally {
      held.close();
    }
  });

  it("when 5,000 idle connections reach a published tcp port, then 64 stay at most, their bridges count in the box, and the service keeps working", async () => {
    const published = await ok<{ port: { hostPort: number } }>(client, "publish_port", {
      boxId: box.id,
      port: 9000,
      protocol: "tcp",
      visibility: "public",
    });
    const before = await states();
    const held = await flood(published.port.hostPort, floodSize);
    try {
      expect(
        await until(
          async () => held.open(),
          (open) => open <= 64,
          5_000,
        ),
      ).toBeLessThanOrEqual(64);
      await serviceStillWorks(before);
      // one listener and a fork per connection let in, every one of them in the box's own groups
      const running = await until(
        async () => bridges(boxes.dataDir),
        (found) => found.length >= held.open(),
        5_000,
      );
      expect(running.length).toBeLessThanOrEqual(65);
      // the box's groups are named by its id, or by the warm pool's entry the box was made from
      const runtime = (await boxes.service().db.box.findUniqueOrThrow({ where: { id: box.id } })).runtime as {
        groups: { tree: { path: string } | null; limits: { path: string }[] };
      };
      const group = path.basename(runtime.groups.tree?.path ?? runtime.groups.limits[0]!.path);
      for (const bridge of running) expect(bridge.cgroup).toContain(`/${group}/port-9000`);
    } finally {
      held.close();
    }
    // the bridge's forks end with their connections; its listener stays for the next one
    expect(
      await until(
        async () => bridges(boxes.dataDir).length,
        (count) => count <= 1,
        10_000,
      ),
    ).toBeLessThanOrEqual(1);
  });

  it("when 5,000 idle connections reach a published http port, then 64 stay at most and those without a request are dropped at the deadline", async () => {
    const published = await ok<{ port: { hostPort: number; url: string } }>(client, "publish_port", {
      boxId: box.id,
      port: 8080,
      visibility: "public",
    });
    const before = await states();
    const held = await flood(published.port.hostPort, floodSize);
    try {
      expect(
        await until(
          async () => held.open(),
          (open) => open <= 64,
          5_000,
        ),
      ).toBeLessThanOrEqual(64);
      await serviceStillWorks(before);
      expect(
        await until(
          async () => held.open(),
          (open) => open === 0,
          deadlineMs + 5_000,
        ),
      ).toBe(0);
    } finally {
      held.close();
    }
    expect(await (await fetch(published.port.url)).text()).toBe("hello");
  });

  it("when the first connections to a port come together, then one bridge serves them all", async () => {
    await boxes.service().runtime.driver.closePorts({ id: box.id, runtime: null }, 9000);
    const published = await ok<{ port: { hostPort: number } }>(client, "publish_port", {
      boxId: box.id,
      port: 9000,
      protocol: "tcp",
      visibility: "public",
    });
    const echoes = await Promise.all(
      Array.from(
        { length: 16 },
        (_, at) =>
          new Promise<string>((resolve) => {
            const socket = connect(published.port.hostPort, "127.0.0.1", () => socket.write(`ping-${at}`));
            let got = "";
            socket.on("data", (chunk: Buffer) => {
              got += chunk.toString();
              if (got === `ping-${at}`) socket.end();
            });
            socket.on("error", () => resolve("error"));
            socket.on("close", () => resolve(got));
          }),
      ),
    );
    expect(echoes).toEqual(Array.from({ length: 16 }, (_, at) => `ping-${at}`));
    const sockets = new Set(bridges(boxes.dataDir).map((bridge) => bridge.socket));
    expect([...sockets].filter((socket) => socket.includes(`/${box.id}/9000-`))).toHaveLength(1);
  });

  it("when a service is killed with -9, then the next one ends the bridges it left and their folders, and ports work again", async () => {
    const published = await ok<{ port: { url: string } }>(client, "publish_port", { boxId: box.id, port: 8080, visibility: "public" });
    expect(await (await fetch(published.port.url)).text()).toBe("hello");
    expect(bridges(boxes.dataDir).length).toBeGreaterThan(0);
    // what a restarted service does first, while the bridges of the one before still run
    const next = await createLocalDriver({ dataDir: boxes.dataDir, log: createLogger("next", "silent"), probeUid: 100_000 });
    await next.close();
    expect(
      await until(
        async () => bridges(boxes.dataDir).length,
        (count) => count === 0,
        5_000,
      ),
    ).toBe(0);
    expect(listed(path.join(boxes.dataDir, "ports"))).toEqual([]);
    expect(await (await fetch(published.port.url)).text()).toBe("hello");
  });

  it("when a tcp port with open connections is unpublished, then the call returns at once and its connections are closed", async () => {
    const published = await ok<{ port: { hostPort: number } }>(client, "publish_port", {
      boxId: box.id,
      port: 9000,
      protocol: "tcp",
      visibility: "public",
    });
    const held = await flood(published.port.hostPort, 3);
    try {
      await until(
        async () => bridges(boxes.dataDir).filter((bridge) => bridge.socket.includes(`/${box.id}/9000-`)).length,
        (count) => count >= 4,
        5_000,
      );
      const rest = restClient(stack.baseUrl, key);
      const started = Date.now();
      expect((await rest("DELETE", `/v1/boxes/${box.id}/ports/9000`)).status).toBe(200);
      expect(Date.now() - started).toBeLessThan(5_000);
      expect(
        await until(
          async () => held.open(),
          (open) => open === 0,
          5_000,
        ),
      ).toBe(0);
    } finally {
      held.close();
    }
  });

  it("when a box is deleted, then none of its bridges and no socket folder is left", async () => {
    const other = (await ok(client, "create_box", { name: "bridged" })).box;
    await ok(client, "write_file", { boxId: other.id, path: "servers.js", content: servers });
    await ok(client, "start_job", { boxId: other.id, cmd: "node servers.js" });
    await until(
      () => run(client, other.id, "(exec 3<>/dev/tcp/127.0.0.1/8080) 2>/dev/null && echo up"),
      (result) => result.stdout.trim() === "up",
      20_000,
    );
    const published = await ok<{ port: { url: string } }>(client, "publish_port", { boxId: other.id, port: 8080, visibility: "public" });
    await Promise.all(Array.from({ length: 8 }, () => fetch(published.port.url).then((answer) => answer.text())));
    expect(bridges(boxes.dataDir).some((bridge) => bridge.socket.includes(other.id))).toBe(true);
    expect(listed(path.join(boxes.dataDir, "ports"))).toContain(other.id);
    await ok(client, "delete_box", { boxId: other.id, confirm: true });
    expect(bridges(boxes.dataDir).filter((bridge) => bridge.socket.includes(other.id))).toEqual([]);
    expect(listed(path.join(boxes.dataDir, "ports"))).not.toContain(other.id);
  });
});
