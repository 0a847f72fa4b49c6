/**
 * The drivers of the nodes a boxes replica reaches: its own node's driver, served to the other replicas by a node
 * agent (node-agent.ts), and a NodeClient for each other node, connected on first use and kept. `driverFor(node)` is
 * what a use case acting on a box of another node calls through: the same BoxDriver interface, over the bus.
 */
import type { Subjects } from "@bancada/contracts";
import type { Bus, BusKey, Logger } from "@bancada/service-kit";
import type { BoxDriver } from "../driver/box-driver.js";
import { serveNodeAgent, type NodeAgent } from "./node-agent.js";
import { connectNode, type NodeClient } from "./node-client.js";
import { deriveNodeKey } from "./node-key.js";

export interface NodeDriversOptions {
  bus: Bus;
  subjects: Subjects;
  /** This replica's own node. */
  local: BoxDriver;
  /** The key this replica's agent answers with (node-key.ts `agentNodeKey`). */
  agentKey: BusKey;
  /** The boxes service's key, from which every node's key derives; absent on a machine that runs an agent alone. */
  boxesKey: BusKey | null;
  log: Logger;
}

export class NodeDrivers {
  readonly #options: NodeDriversOptions;
  readonly #clients = new Map<string, Promise<NodeClient>>();
  #agent: NodeAgent | null = null;

  constructor(options: NodeDriversOptions) {
    this.#options = options;
  }

  /** Serves this node's driver to the control plane (only where it runs here). */
  serveLocal(): void {
    const { bus, subjects, local, agentKey, log } = this.#options;
    if (!local.available || this.#agent) return;
    this.#agent = serveNodeAgent({ bus, subjects, driver: local, key: agentKey, log });
  }

  /** The driver that acts on `node`'s boxes: this replica's own, or the client of that node's agent. */
  async driverFor(node: string): Promise<BoxDriver> {
    const { local, bus, subjects, boxesKey } = this.#options;
    if (node === local.node) return local;
    if (!boxesKey) throw new Error(`this process holds no boxes key: it cannot reach node ${node}`);
    let client = this.#clients.get(node);
    if (!client) {
      client = connectNode({ bus, subjects, node, key: deriveNodeKey(boxesKey, node) });
      this.#clients.set(node, client);
      // a node that did not answer is asked again next time (it may be starting)
      client.catch(() => this.#clients.delete(node));
    }
    return client;
  }

  stop(): void {
    this.#agent?.stop();
    this.#agent = null;
  }
}
