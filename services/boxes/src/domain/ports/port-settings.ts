/** Where published ports are served (config.ts): the host ports the service may listen on, the address and the name in URLs. */
export interface PortSettings {
  /** Host ports handed to published ports, first to last (inclusive). */
  range: { first: number; last: number };
  /** The address the port listeners bind (default: the service's HOST). */
  bindHost: string;
  /** The host name in port URLs (default: the public URL's). */
  publicHost: string;
}
