/**
 * The drivers of the nodes a boxes replica reaches: its own node's driver, served to the other replicas by a node
 * agent (node-agent.ts), and a NodeClient for each other node, connected on first use and kept. `driverFor(node)` is
 * what a use case acting on a box of another node calls through: the same BoxDriver interface, over the bus.
 */
import type { Subjects } from "@bancada/contracts";
import type { Bus, BusKey, Logger } from "@bancada/service-kit";
import type { BoxDriver } from "../driver/box-driver.js";
import { serveNodeAgent, type NodeAgent } from "./node-agent.js";
import { NodeClient, connectNode } from "./node-client.js";
import { deriveNodeKey } from "./node-key.js";
import { linkReplicas } from "./replica-link.js";
import type { RunningOperations } from "../domain/running-operations.js";
import type { BoxSuspensions } from "../domain/suspensions.js";
import type { PortListeners } from "../domain/ports/port-listeners.js";

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
  #unlink: (() => void) | null = null;

  constructor(options: NodeDriversOptions) {
    this.#options = options;
  }

  /** Serves this node's driver and published-ports proxy to the control plane (only where it runs here). */
  serveLocal(ports?: PortListeners): void {
    const { bus, subjects, local, agentKey, log } = this.#options;
    if (!local.available || this.#agent) return;
    this.#agent = serveNodeAgent({ bus, subjects, driver: local, key: agentKey, log, ports });
  }

  /** The port listeners of `node`, over its agent (null: this replica's own node, whose proxy the runtime holds). */
  portsOf(node: string, driver: BoxDriver): PortListeners | null {
    return driver instanceof NodeClient && driver.node === node ? driver.ports : null;
  }

  /** Links this control-plane replica to the others: freezes and cancellations reach every replica (replica-link.ts). */
  linkReplicas(own: { instance: string; suspensions: BoxSuspensions; operations: RunningOperations }): void {
    const { bus, subjects, boxesKey, log } = this.#options;
    this.#unlink ??= linkReplicas({ bus, subjects, key: boxesKey, log, ...own });
  }

  /**
   * The driver that acts on `node`'s boxes: this replica's own, or the client of that node's agent. `what`: the
   * thing the call acts on, named when the node cannot be reached ("box bx_…").
   */
  async driverFor(node: string, what?: string): Promise<BoxDriver> {
    const { local, bus, subjects, boxesKey, log } = this.#options;
    if (node === local.node) return local;
    if (!boxesKey) throw new Error(`this process holds no boxes key: it cannot reach node ${node}`);
    let client = this.#clients.get(node);
    if (!client) {
      client = connectNode({ bus, subjects, node, key: deriveNodeKey(boxesKey, node), log }, what);
      this.#clients.set(node, client);
      // a node that did not answer is asked again next time (it may be starting)
      client.catch(() => this.#clients.delete(node));
    }
    return client;
  }

  /**
   * `driverFor`, having first made sure the node answers now (one round trip to a remote agent): for work that
   * records something before it asks the node (create_box), so that a node gone is refused before, not after.
   */
  async answeringDriverFor(node: string, what?: string): Promise<BoxDriver> {
    const driver = await this.driverFor(node, what);
    if (driver instanceof NodeClient) await driver.describe(what);
    return driver;
  }

  stop(): void {
    this.#unlink?.();
    this.#unlink = null;
    this.#agent?.stop();
    this.#agent = null;
  }
}
