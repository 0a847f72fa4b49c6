import type { BoxPort } from "../../db/generated/client.js";

export type BoxPortRow = BoxPort;

/**
 * Where published ports are served (the proxy in src/http/port-proxy.ts): one listener per published port on its
 * host port. The domain opens and closes them; the proxy reads the port's row again for every connection.
 */
export interface PortListeners {
  /** false: the host port is taken by something else on this machine (another is tried). */
  listen(row: BoxPortRow): Promise<boolean>;
  close(portId: string): Promise<void>;
  closeAll(): Promise<void>;
}
