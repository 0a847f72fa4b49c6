/**
 * The node agent's RPC: the driver's operations that answer once (everything but the byte streams of uploads,
 * downloads, shells and port connections, which the agent serves on its own HTTP and SSH listeners). One subject per
 * node (`<root>.boxes.node.<node>.agent`), the operation in the body: `{ op, args }`, the driver method's arguments
 * in order (wire.ts); the answer is `{ ok: true, value }` or `{ ok: false, error }`.
 */
import type { BoxDriver, BoxResources, Enforcement } from "../driver/box-driver.js";
import type { WireError } from "./wire.js";

const nodeOperations = [
  "create",
  "createFromCopy",
  "copyDisk",
  "importDisk",
  "importSnapshot",
  "releaseDisk",
  "deleteSnapshot",
  "start",
  "diskSpace",
  "inspect",
  "suspend",
  "resume",
  "stop",
  "destroy",
  "exec",
  "startJob",
  "probeJob",
  "killJob",
  "readJobLog",
  "jobChanged",
  "readFile",
  "writeFile",
  "inspectPath",
  "listFolder",
  "closePorts",
  "sweep",
  // the node's warm pool: a create the control plane places here takes a box its agent started ahead
  "reserveWarmBox",
  "releaseWarmBox",
] as const satisfies readonly (keyof BoxDriver)[];

/**
 * Beyond the driver: the node's published-ports listeners (domain/ports/port-listeners.ts), opened and closed by the
 * control plane that publishes a port of one of its boxes, served by its own proxy.
 */
const portOperations = ["listenPort", "closePortListener"] as const;

export type NodeOperation = (typeof nodeOperations)[number] | (typeof portOperations)[number] | "describe";

export const isNodeOperation = (op: unknown): op is NodeOperation =>
  op === "describe" || (nodeOperations as readonly unknown[]).includes(op) || (portOperations as readonly unknown[]).includes(op);

export interface NodeRequest {
  op: NodeOperation;
  args: unknown[];
}

export type NodeReply = { ok: true; value: unknown } | { ok: false; error: WireError };

/**
 * What a node says of itself (the `describe` operation): the driver's fixed properties, and its enforcement
 * with the resources left as placeholders (`enforcementShape`), which the client fills for each box without asking.
 */
export interface NodeDescription {
  kind: string;
  node: string;
  available: boolean;
  template: { name: string; version: string };
  enforcement: Enforcement;
}

/**
 * Numbers no box asks for, put where a box's resources go: the agent asks its driver's enforcement of them, the
 * client puts each box's own numbers back in their place (enforcement texts only quote the resources).
 */
const placeholders: BoxResources = { vcpus: 7_919_001, memMiB: 7_919_002, dataGiB: 7_919_003 };

export function enforcementShape(driver: BoxDriver): Enforcement {
  return driver.enforcement(placeholders);
}

export function fillEnforcement(shape: Enforcement, resources: BoxResources): Enforcement {
  const fill = (text: string | null): string | null =>
    text === null
      ? null
      : text
          .replaceAll(String(placeholders.vcpus), String(resources.vcpus))
          .replaceAll(String(placeholders.memMiB), String(resources.memMiB))
          .replaceAll(String(placeholders.dataGiB), String(resources.dataGiB));
  return {
    ...shape,
    cpu: fill(shape.cpu),
    memory: fill(shape.memory),
    disk: fill(shape.disk),
    freeze: fill(shape.freeze)!,
    network: fill(shape.network)!,
    user: fill(shape.user)!,
  };
}

/**
 * The arguments as the driver takes them, with the agent's own abort signal where the operation takes one: it is
 * aborted when the caller cancels or its deadline passes.
 */
export function withSignal(op: NodeOperation, args: unknown[], signal: AbortSignal): unknown[] {
  const given = [...args];
  if (op === "exec") given[1] = { ...(given[1] as object), signal };
  if (op === "copyDisk" || op === "importDisk" || op === "importSnapshot") given[2] = signal;
  if (op === "jobChanged") given[3] = signal;
  return given;
}

/** The box an operation acts on, for the errors that name it (null: a snapshot or the node itself). */
export function boxOf(op: NodeOperation, args: unknown[]): string | null {
  if (op === "describe" || op === "deleteSnapshot" || op === "importSnapshot" || op === "diskSpace" || op === "closePortListener")
    return null;
  if (op === "reserveWarmBox" || op === "releaseWarmBox") return null;
  const first = args[0] as { id?: unknown; boxId?: unknown } | undefined;
  if (op === "listenPort") return typeof first?.boxId === "string" ? first.boxId : null;
  return typeof first?.id === "string" ? first.id : null;
}
