/**
 * Stands in for a driver that could not start (e.g. bubblewrap missing on this machine): the service
 * still serves list_boxes and get_box from Postgres, and every call that needs a box answers
 * `unavailable` with the reason, instead of the whole process failing to start.
 */
import { DomainError, ErrorCode } from "@bancada/contracts";
import type { BoxDriver } from "./box-driver.js";

export function unavailableDriver(kind: string, node: string, reason: string): BoxDriver {
  const refuse = (): never => {
    throw new DomainError(ErrorCode.unavailable, `Boxes cannot run on this machine: ${reason}`, { driver: kind });
  };
  const refuseAsync = async (): Promise<never> => refuse();
  return {
    kind,
    node,
    available: false,
    template: { name: "host", version: "unavailable" },
    enforcement: refuse,
    create: refuseAsync,
    start: refuseAsync,
    copyDisk: refuseAsync,
    createFromCopy: refuseAsync,
    exportDisk: refuseAsync,
    importDisk: refuseAsync,
    exportSnapshot: refuseAsync,
    importSnapshot: refuseAsync,
    deleteSnapshot: refuseAsync,
    releaseDisk: async () => {},
    inspect: refuseAsync,
    suspend: refuseAsync,
    resume: refuseAsync,
    stop: refuseAsync,
    destroy: refuseAsync,
    exec: refuseAsync,
    startJob: refuseAsync,
    probeJob: refuseAsync,
    killJob: refuseAsync,
    readJobLog: refuseAsync,
    jobChanged: refuseAsync,
    readFile: refuseAsync,
    writeFile: refuseAsync,
    inspectPath: refuseAsync,
    listFolder: refuseAsync,
    upload: refuseAsync,
    download: refuseAsync,
    connectPort: refuseAsync,
    openShell: refuseAsync,
    closePorts: async () => {},
    sweep: async () => {},
    close: async () => {},
  };
}
