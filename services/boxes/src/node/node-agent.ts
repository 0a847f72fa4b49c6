/**
 * A node agent: serves its driver's operations (node-operations.ts) to the control plane over the bus. Only messages
 * tagged with this node's key (node-key.ts) run, each once, within its deadline; answers are tagged with the same key
 * for the request they answer, so the control plane takes nothing from a process without it. A cancel (the caller's
 * signal) or the deadline aborts the operation's signal where it takes one (exec, copyDisk, jobChanged).
 */
import { DomainError, ErrorCode, Header, type Subjects } from "@bancada/contracts";
import {
  ReplayGuard,
  checkBusAnnouncement,
  checkBusSignature,
  decodeJson,
  encodeJson,
  refusedCall,
  signReply,
  type Bus,
  type BusKey,
  type BusMessage,
  type BusSubscription,
  type Logger,
} from "@bancada/service-kit";
import type { BoxDriver } from "../driver/box-driver.js";
import type { BoxPortRow, PortListeners } from "../domain/ports/port-listeners.js";
import {
  enforcementShape,
  isNodeOperation,
  withSignal,
  type NodeDescription,
  type NodeOperation,
  type NodeReply,
  type NodeRequest,
} from "./node-operations.js";
import { errorToWire, fromWire, toWire } from "./wire.js";

export interface NodeAgentOptions {
  bus: Bus;
  subjects: Subjects;
  driver: BoxDriver;
  key: BusKey;
  log: Logger;
  /** This node's published-ports proxy (the port operations); absent: it serves none. */
  ports?: PortListeners | undefined;
}

export interface NodeAgent {
  readonly node: string;
  /** Stops taking operations; those running finish (the bus waits for them at close). */
  stop(): void;
}

export function serveNodeAgent({ bus, subjects, driver, key, log, ports }: NodeAgentOptions): NodeAgent {
  const subject = subjects.nodeAgent("boxes", driver.node);
  const cancelSubject = subjects.nodeAgentCancel("boxes", driver.node);
  const replays = new ReplayGuard();
  const running = new Map<string, AbortController>();

  const refused = (problem: ReturnType<typeof checkBusSignature>, message: BusMessage): BusMessage | null => {
    const callId = message.headers[Header.callId] ?? "";
    if (!problem && !replays.firstSighting(callId, Number(message.headers[Header.expires]))) problem = "replayed";
    if (!problem) return null;
    log.warn({ subject, reason: problem, callId }, "refused a node operation not signed with this node's key");
    // untagged: the control plane takes no answer this node did not tag, and this one says why it was refused
    const reply: NodeReply = { ok: false, error: errorToWire(refusedCall(problem)) };
    return { data: encodeJson(reply), headers: {} };
  };

  async function answer(message: BusMessage): Promise<BusMessage> {
    const refusal = refused(checkBusSignature(key, subject, message), message);
    if (refusal) return refusal;
    const callId = message.headers[Header.callId] ?? "";
    const reply = await run(callId, message);
    const data = encodeJson(reply);
    return { data, headers: signReply(key, subject, message, data) };
  }

  async function run(callId: string, message: BusMessage): Promise<NodeReply> {
    const request = decodeJson(message.data) as Partial<NodeRequest>;
    if (!isNodeOperation(request.op) || !Array.isArray(request.args))
      return {
        ok: false,
        error: errorToWire(new DomainError(ErrorCode.invalidArgument, `Unknown node operation '${String(request.op)}'.`)),
      };
    const op = request.op;
    if (op === "describe") return { ok: true, value: toWire(describe(driver)) };
    const controller = new AbortController();
    const deadline = Number(message.headers[Header.deadline] ?? 0);
    const timer = deadline > 0 ? setTimeout(() => controller.abort(), Math.max(0, deadline - Date.now())) : undefined;
    running.set(callId, controller);
    const started = performance.now();
    try {
      const args = withSignal(op, fromWire(request.args) as unknown[], controller.signal);
      const value = await perform(op, args);
      return { ok: true, value: toWire(value) };
    } catch (error) {
      return { ok: false, error: errorToWire(error) };
    } finally {
      clearTimeout(timer);
      running.delete(callId);
      log.debug({ op, callId, ms: Math.round(performance.now() - started) }, "ran a node operation");
    }
  }

  /** The driver's operation, or one of the port listeners' (served by this node's proxy). */
  async function perform(op: Exclude<NodeOperation, "describe">, args: unknown[]): Promise<unknown> {
    if (op === "listenPort" || op === "closePortListener") {
      if (!ports) throw new DomainError(ErrorCode.failedPrecondition, `Node ${driver.node} serves no published ports.`);
      return op === "listenPort" ? ports.listen(args[0] as BoxPortRow) : ports.close(args[0] as string);
    }
    const method = driver[op] as ((...given: unknown[]) => Promise<unknown>) | undefined;
    // a node without a warm pool has no box started ahead: the create makes its own
    if (!method && (op === "reserveWarmBox" || op === "releaseWarmBox")) return null;
    if (!method) throw new DomainError(ErrorCode.failedPrecondition, `Node ${driver.node}'s driver has no operation '${op}'.`);
    return method.apply(driver, args);
  }

  const cancel = (message: BusMessage) => {
    const callId = message.headers[Header.callId] ?? "";
    if (checkBusSignature(key, cancelSubject, message)) return;
    running.get(callId)?.abort();
  };

  const served: BusSubscription[] = [
    // a queue group: two agents started for one node (a restart overlapping the old one) take each operation once
    bus.serve(subject, answer, {
      queue: subjects.queue(`boxes.node.${driver.node}`),
      // a large body (a file written) comes in parts: pulled only when its announcement carries this node's tag
      admit: (headers, bytes) => checkBusAnnouncement(key, subject, headers, bytes) === undefined,
    }),
    bus.subscribe(cancelSubject, cancel),
  ];
  return {
    node: driver.node,
    stop() {
      for (const subscription of served) subscription.unsubscribe();
    },
  };
}

function describe(driver: BoxDriver): NodeDescription {
  return {
    kind: driver.kind,
    node: driver.node,
    available: driver.available,
    template: driver.template,
    enforcement: driver.available ? enforcementShape(driver) : unknownEnforcement,
  };
}

/** A node whose driver could not start enforces nothing (its calls answer unavailable). */
const unknownEnforcement = { cpu: null, memory: null, disk: null, processes: null, freeze: "none", network: "none", user: "none" };
