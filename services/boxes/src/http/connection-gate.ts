/**
 * Caps on the raw connections the service takes from the network (the SSH endpoint, published ports). Each one
 * holds a file descriptor of the service (and, for a port, a bridge process in the box), so a client that never
 * authenticates must not be able to hold many: a flood of idle connections once ran the service out of
 * descriptors. A connection counts against its address (an IPv6 address by its /64, what one client usually
 * holds) and against the whole gate until it closes; one still pending (not authenticated, no request yet) also
 * counts against the pending cap and is dropped at the pending deadline. Over a cap the socket is destroyed at
 * once: the cheapest answer, and a flood's own connections are the ones refused.
 */
import { isIPv6, type Socket } from "node:net";

export interface GateLimits {
  /** Open connections from one address (IPv6: one /64). */
  perAddress: number;
  /** Open connections in all. */
  total: number;
  /** Connections not settled yet, in all (default: total). */
  pending?: number;
  /** A connection not settled within this many ms is dropped (default: never). */
  pendingMs?: number;
}

/** Marks an admitted connection settled (authenticated, or its first request came): no longer pending. */
export type Settle = () => void;

export class ConnectionGate {
  readonly #limits: GateLimits;
  readonly #byAddress = new Map<string, number>();
  #open = 0;
  #pending = 0;
  #refused = 0;

  constructor(limits: GateLimits) {
    this.#limits = limits;
  }

  /** Counts the socket in, or destroys it when a cap is reached (null). */
  admit(socket: Socket): Settle | null {
    const address = addressKey(socket.remoteAddress);
    const fromAddress = this.#byAddress.get(address) ?? 0;
    const { perAddress, total, pending = total, pendingMs } = this.#limits;
    if (socket.destroyed || fromAddress >= perAddress || this.#open >= total || this.#pending >= pending) {
      this.#refused++;
      socket.destroy();
      return null;
    }
    this.#byAddress.set(address, fromAddress + 1);
    this.#open++;
    this.#pending++;
    let waiting = true;
    const timer = pendingMs === undefined ? undefined : setTimeout(() => socket.destroy(), pendingMs);
    timer?.unref();
    const settle = () => {
      if (!waiting) return;
      waiting = false;
      this.#pending--;
      clearTimeout(timer);
    };
    socket.once("close", () => {
      settle();
      this.#open--;
      const left = (this.#byAddress.get(address) ?? 1) - 1;
      if (left > 0) this.#byAddress.set(address, left);
      else this.#byAddress.delete(address);
    });
    return settle;
  }

  /** What the gate holds now, and how many connections it refused so far. */
  counts(): { open: number; pending: number; refused: number } {
    return { open: this.#open, pending: this.#pending, refused: this.#refused };
  }
}

/** The address a cap counts by: IPv4 as is (a v4-mapped v6 address as its v4), IPv6 by its first 64 bits. */
function addressKey(address: string | undefined): string {
  if (!address) return "";
  if (address.startsWith("::ffff:") && address.includes(".")) return address.slice("::ffff:".length);
  if (!isIPv6(address)) return address;
  const [head = "", tail = ""] = address.split("%")[0]!.split("::");
  const front = head ? head.split(":") : [];
  const back = address.includes("::") ? (tail ? tail.split(":") : []) : [];
  const groups = [...front, ...Array<string>(8 - front.length - back.length).fill("0"), ...back];
  return `${groups
    .slice(0, 4)
    .map((group) => Number.parseInt(group, 16).toString(16))
    .join(":")}::/64`;
}
