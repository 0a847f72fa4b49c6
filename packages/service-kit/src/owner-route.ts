/**
 * Calls that must run on one node. Every replica of a service answers `<root>.<svc>.call` as one queue group,
 * but some tools act on something that lives on one machine — a box, on the node that holds its disk and its
 * processes. Such a tool declares `owner` (define-tool.ts). A host that knows its node also serves
 * `<root>.<svc>.node.<node>.call`, in a queue group per node (two replicas on one node share its boxes); a
 * call that reaches a replica of another node is forwarded there as the gateway signed it — the same headers,
 * body and deadline — and the owner's answer is relayed back unchanged.
 *
 * Trust: the forwarded message keeps the gateway's signature, which was made for `<root>.<svc>.call`; the
 * owner checks it against that subject and its own replay guard, so the node subject takes nothing the call
 * subject would refuse, and a call arriving there runs where it is: it is never forwarded twice. The caller's
 * principal crosses untouched inside the signed headers, and the owner authorizes it again.
 * Progress and cancellation need nothing more: the owner publishes progress on the call's own subject and,
 * like every replica, hears cancellations (fan-out). The forwarded request is acknowledged and beaten by the
 * owner's bus like any other (bus/nats-requests.ts), so an owner that dies mid-call is noticed within seconds.
 * A node nobody serves answers at once (NATS "no responders"): `unavailable`, naming the node.
 */
import { DomainError, ErrorCode, Header, authorize, callRequest, principalSchema, type CallReply } from "@bancada/contracts";
import { BusFailure, BusRequestError, decodeJson, type AdmitBody, type Bus, type BusMessage } from "./bus/bus.js";
import type { ResourceDefinition } from "./define-resource.js";
import type { Tool, ToolOwner } from "./define-tool.js";

/**
 * The owner of a call whose tool declares one. Null for every other call, and for one its checks will refuse
 * anyway (bad arguments, a scope missing): the replica that received it answers that itself.
 */
export async function ownerOfCall(
  tools: ReadonlyMap<string, Tool>,
  message: BusMessage,
  resources: ReadonlyMap<string, ResourceDefinition> = new Map(),
): Promise<ToolOwner | null> {
  const request = callRequest.safeParse(safeJson(message.data));
  const principal = principalSchema.safeParse(safeJson(message.headers[Header.principal]));
  if (!request.success || !principal.success) return null;
  const transport = message.headers[Header.transport] === "stdio" ? "stdio" : "http";
  // a resource read names its thing by URI (a box file): the family's owner lookup reads the template's variables
  if (request.data.kind === "read") {
    const resource = resources.get(request.data.resource);
    if (!resource?.owner || !authorize({ scope: resource.scope, writes: false }, principal.data, transport).allowed) return null;
    return resource.owner(principal.data, request.data.variables);
  }
  if (request.data.kind !== "tool") return null;
  const tool = tools.get(request.data.tool);
  if (!tool?.owner) return null;
  if (!authorize(tool, principal.data, transport).allowed) return null;
  const input = tool.input.safeParse(request.data.args ?? {});
  return input.success ? tool.owner(principal.data, input.data) : null;
}

/**
 * Sends the call, as it came, to the owner's node subject and gives back its answer (for the forwarding replica to
 * check: the owner tags it with the service's key); a failure to reach the owner becomes the call's own error
 * answer, `failure`, which the forwarding replica tags. Waits until the call's deadline (`fallbackMs` without one).
 */
export async function forwardCall(
  bus: Bus,
  subject: string,
  message: BusMessage,
  owner: ToolOwner & { service: string },
  fallbackMs: number,
  options: { admitReply?: AdmitBody } = {},
): Promise<{ reply?: BusMessage; failure?: CallReply }> {
  const deadline = Number(message.headers[Header.deadline] ?? 0);
  const timeoutMs = Math.max(1, deadline > 0 ? deadline - Date.now() : fallbackMs);
  try {
    return { reply: await bus.request(subject, message.data, { timeoutMs, headers: { ...message.headers }, ...options }) };
  } catch (error) {
    return { failure: { ok: false, error: ownerUnreachable(error, owner).toBody() } };
  }
}

/**
 * What a failure to reach the owner answers, naming its node: `deadline_exceeded` when it did not answer in time,
 * else `unavailable` (no replica of the node, one that died mid-call, the bus cut). Also for a service's own
 * relays to its owner's node (the boxes REST routes).
 */
export function ownerUnreachable(error: unknown, owner: ToolOwner & { service: string }): DomainError {
  const reason = error instanceof BusRequestError ? error.reason : BusFailure.lost;
  const details = { node: owner.node, reason };
  if (reason === BusFailure.timeout)
    return new DomainError(
      ErrorCode.deadlineExceeded,
      `The ${owner.what} on node ${owner.node} did not answer before the call's deadline.`,
      details,
    );
  const why =
    reason === BusFailure.noResponders
      ? `its host is down: no ${owner.service} replica of node ${owner.node} is running`
      : reason === BusFailure.responderLost
        ? `its host stopped answering while it ran the call (its replica died or was cut off; the call may have run)`
        : `node ${owner.node} could not be reached (${reason})`;
  return new DomainError(
    ErrorCode.unavailable,
    `The ${owner.what} lives on node ${owner.node} and ${why}. Retry later (with the same idempotency key): it answers again once its node is back.`,
    { ...details, retryable: true },
  );
}

function safeJson(text: Uint8Array | string | undefined): unknown {
  if (text === undefined) return null;
  try {
    return typeof text === "string" ? JSON.parse(text) : decodeJson(text);
  } catch {
    return null;
  }
}
