/**
 * NATS subjects. The root (default `bancada`) is configurable so that several deployments, or
 * several test runs, can share one NATS server without hearing each other.
 */
export function subjects(root: string) {
  return {
    call: (service: string) => `${root}.${service}.call`,
    catalog: (service: string) => `${root}.${service}.catalog`,
    cancel: (service: string) => `${root}.${service}.cancel`,
    /** One node's agent of a service (boxes): the driver's operations, asked by the control plane (services/boxes/src/node). */
    nodeAgent: (service: string, node: string) => `${root}.${service}.node.${node}.agent`,
    /** Cancellations of one node agent's operations (heard by the agent running them). */
    nodeAgentCancel: (service: string, node: string) => `${root}.${service}.node.${node}.agent-cancel`,
    /** What every control-plane replica of a service hears (boxes: a box frozen under the calls another replica runs in it). */
    replicaEvents: (service: string) => `${root}.${service}.replicas.events`,
    /** One replica process (by its instance id): asked to cancel work it runs (boxes: a delete taking over a create). */
    replicaStopWork: (service: string, instance: string) => `${root}.${service}.replicas.${instance}.stop-work`,
    catalogChanged: `${root}.catalog.changed`,
    authResolve: `${root}.auth.resolve`,
    /**
     * Progress of one call, published by the service running it (tagged with its key) while the gateway relays it to
     * the client; the service's name in the subject lets NATS permit each service its own progress only.
     */
    progress: (service: string, callId: string) => `${root}.progress.${service}.${callId}`,
    /** A service's MCP resource changed (tagged with its key): gateways notify the subscribed clients of its account. */
    resourceChanged: (service: string) => `${root}.resources.changed.${service}`,
    /** A client's `notifications/cancelled`, heard by every gateway replica (the call may run on another). */
    clientCancel: `${root}.gateway.cancel`,
    /** A 2025-era client's answers to a server-to-client request, heard by every gateway replica (the one that asked takes them). */
    clientAnswer: `${root}.gateway.answer`,
    queue: (service: string) => `${root}.${service}`,
  };
}
export type Subjects = ReturnType<typeof subjects>;

/** Header names carried on every call. */
export const Header = {
  principal: "bancada-principal",
  callId: "bancada-call-id",
  deadline: "bancada-deadline",
  transport: "bancada-transport",
  /** Present when the client asked for progress notifications. */
  progress: "bancada-progress",
  traceparent: "traceparent",
  /** The HMAC tag, with the key of the service a message is for, of what the gateway put on the bus (service-kit bus/bus-signature.ts). */
  signature: "bancada-signature",
  /** Until when (epoch ms) the signature is accepted: a captured message cannot be replayed later. */
  expires: "bancada-expires",
  /** The size and SHA-256 of a tagged message's body, covered by its tag: checked before a body in parts is pulled. */
  body: "bancada-body",
} as const;
