/**
 * The connection caps of the SSH endpoint and the published ports (src/http/connection-gate.ts) at their edges, on
 * real sockets on 127.0.0.1: the pending cap (unauthenticated connections from everyone), a settled connection
 * making room, the per-address and total caps, and the pending deadline.
 */
import { createServer, connect, type Server, type Socket } from "node:net";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { ConnectionGate, type GateLimits, type Settle } from "../src/http/connection-gate.js";
import { until } from "./helpers.js";

interface Served {
  gate: ConnectionGate;
  settles: Settle[];
  /** Opens one client connection; `open()` tells whether the server still holds it. */
  dial(): Promise<{ open: () => boolean; socket: Socket }>;
}

const servers: Server[] = [];
const clients: Socket[] = [];
afterEach(async () => {
  for (const socket of clients.splice(0)) socket.destroy();
  await Promise.all(servers.splice(0).map((server) => new Promise((resolve) => server.close(resolve))));
});

async function serve(limits: GateLimits): Promise<Served> {
  const gate = new ConnectionGate(limits);
  const settles: Settle[] = [];
  const server = createServer((socket) => {
    const settle = gate.admit(socket);
    if (settle) settles.push(settle);
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  const dial = async () => {
    const socket = connect(port, "127.0.0.1");
    clients.push(socket);
    let closed = false;
    socket.on("error", () => {});
    socket.resume();
    socket.once("close", () => (closed = true));
    await new Promise((resolve) => socket.once("connect", resolve));
    // the server's verdict comes with its accept
    await new Promise((resolve) => setTimeout(resolve, 50));
    return { socket, open: () => !closed };
  };
  return { gate, settles, dial };
}

describe("connection gate", () => {
  it("when the pending cap is reached, then the next connection is closed; a settled one makes room", async () => {
    const served = await serve({ perAddress: 100, total: 100, pending: 3 });
    const first = await Promise.all([served.dial(), served.dial(), served.dial()]);
    expect(first.map((client) => client.open())).toEqual([true, true, true]);
    const over = await served.dial();
    expect(
      await until(
        async () => over.open(),
        (open) => !open,
        2_000,
      ),
    ).toBe(false);
    served.settles[0]!();
    const next = await served.dial();
    expect(next.open()).toBe(true);
    expect(served.gate.counts()).toMatchObject({ open: 4, pending: 3, refused: 1 });
  });

  it("when one address reaches its cap, or everyone the total, then the next is closed; a closed one frees its place", async () => {
    const perAddress = await serve({ perAddress: 2, total: 100 });
    const [a, b] = [await perAddress.dial(), await perAddress.dial()];
    const over = await perAddress.dial();
    expect(
      await until(
        async () => over.open(),
        (open) => !open,
        2_000,
      ),
    ).toBe(false);
    a.socket.destroy();
    await until(
      async () => perAddress.gate.counts().open,
      (open) => open === 1,
      2_000,
    );
    expect((await perAddress.dial()).open()).toBe(true);
    expect(b.open()).toBe(true);

    const total = await serve({ perAddress: 100, total: 1 });
    expect((await total.dial()).open()).toBe(true);
    const overTotal = await total.dial();
    expect(
      await until(
        async () => overTotal.open(),
        (open) => !open,
        2_000,
      ),
    ).toBe(false);
  });

  it("when a connection is not settled by the deadline, then it is closed; a settled one stays", async () => {
    const served = await serve({ perAddress: 10, total: 10, pendingMs: 300 });
    const idle = await served.dial();
    const settled = await served.dial();
    served.settles[1]!();
    expect(
      await until(
        async () => idle.open(),
        (open) => !open,
        2_000,
      ),
    ).toBe(false);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(settled.open()).toBe(true);
    expect(served.gate.counts()).toMatchObject({ open: 1, pending: 0 });
  });
});
