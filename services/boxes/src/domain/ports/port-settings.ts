/** Where published ports are served (config.ts): the host ports the service may listen on, the address and the name in URLs. */
export interface PortSettings {
  /** Host ports handed to published ports, first to last (inclusive). */
  range: { first: number; last: number };
  /** The address the port listeners bind (default: the service's HOST). */
  bindHost: string;
  /** The host name in port URLs (default: the public URL's). */
  publicHost: string;
  connections: PortConnectionLimits;
}

/**
 * Caps on connections to published ports (each holds a descriptor of the service and a bridge process in the box):
 * over one, a new connection is closed at once (src/http/connection-gate.ts).
 */
export interface PortConnectionLimits {
  /** Open connections to one published port. */
  perPort: number;
  /** Open connections to one published port from one address. */
  perAddress: number;
  /** Open connections to all published ports of this node. */
  total: number;
  /** An http port's connection that sends no request within this is dropped (and a tcp port's without its token line). */
  firstRequestMs: number;
}
