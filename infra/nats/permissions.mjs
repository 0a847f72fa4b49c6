/**
 * The one source of the NATS users and their permissions: every component (the gateway and each service of
 * @bancada/service-registry) connects as its own user, allowed exactly the subjects its code publishes and
 * subscribes to (packages/contracts/src/subjects.ts names them). Everything not listed is refused.
 *
 * - Only the gateway publishes calls and cancellations (`<root>.<service>.call|cancel`) and asks for catalogs.
 * - A service subscribes to its own call and catalog subjects in its queue group (`<root>.<service>`), hears
 *   its own cancellations, announces its catalog (`<root>.catalog.changed`), publishes the progress of its own
 *   calls only (`<root>.progress.<service>.<callId>`), and answers through the reply subject it was given
 *   (`allow_responses`). What it answers is tagged with its bus key besides (docs/gateway.md "Trust"): a user that
 *   hears a message meant for another service still cannot answer it in that service's name.
 * - `<root>.auth.resolve`: services publish it (their REST routes resolve API keys through the gateway); only
 *   the gateway subscribes to it, in its queue group.
 * - A node-routed service (boxes): its control plane asks each node's agent for the node's work on
 *   `<root>.<service>.node.<node>.agent` (cancelled on `….agent-cancel`), and its replicas tell each other on
 *   `<root>.<service>.replicas.>`; it still never publishes to any service's shared call subject.
 * - Inboxes: replies arrive on inboxes (with the acknowledgement and heartbeats of a long request before its
 *   answer, packages/service-kit/src/bus/nats-requests.ts: several messages, more than `allow_responses` lets
 *   through), and a body larger than the server's max_payload crosses in parts
 *   (packages/service-kit/src/bus/nats-parts.ts): the sender subscribes to a fresh inbox offering them, the
 *   receiver requests each part on that inbox. Each component's inboxes are its own, `_INBOX.<component>.…` (the
 *   bus takes its NATS user as inbox prefix): it subscribes there only — never to another component's replies —
 *   and publishes to any inbox (answers, heartbeats, part requests).
 *
 * `node infra/nats/render.mjs` writes infra/k8s/base/nats/auth.conf from this file; infra/local renders the
 * same users with generated passwords for the rehearsal.
 */
import { registeredServices } from "@bancada/service-registry";

/** The services the CLI runs, in the registry's order (@bancada/service-registry: each service's package.json). */
export function serviceNames() {
  return registeredServices().map((service) => service.name);
}

export const defaultRoot = "bancada";

/**
 * A service as the permissions need it: its name and what its package.json's `bus` block adds (a name alone, as
 * tests give, adds nothing). `publishes`: subjects under `<root>.<service>.` beyond every service's (the drafts
 * submission pipeline's event relay, `events.>`). `nodeRouted`: what it acts on lives on one node (a box), whose
 * agent serves `<root>.<service>.node.<node>.agent` to any replica of the control plane (services/boxes/src/node).
 * A user is per service, not per node: every node's subject.
 */
function busOf(service) {
  if (typeof service !== "string") return service;
  const registered = registeredServices().find((entry) => entry.name === service);
  return registered ?? { name: service, bus: { publishes: [], nodeRouted: false } };
}

/** Every component and its permissions: `[{ component, publish, subscribe, allowResponses }]`. */
export function permissionTable({ root = defaultRoot, services = registeredServices() } = {}) {
  if (!/^[A-Za-z0-9_-]+$/.test(root)) throw new Error(`bad subject root ${root}`);
  const declared = services.map(busOf);
  const gateway = {
    component: "gateway",
    publish: [
      ...declared.flatMap(({ name: service }) => [`${root}.${service}.call`, `${root}.${service}.cancel`, `${root}.${service}.catalog`]),
      `${root}.gateway.cancel`,
      `${root}.gateway.answer`,
      "_INBOX.>",
    ],
    subscribe: [
      `${root}.auth.resolve ${root}.gateway`,
      `${root}.catalog.changed`,
      `${root}.gateway.cancel`,
      `${root}.gateway.answer`,
      `${root}.progress.*.*`,
      `${root}.resources.changed.*`,
      "_INBOX.gateway.>",
    ],
    allowResponses: true,
  };
  const perService = declared.map(({ name: service, bus }) => ({
    component: service,
    publish: [
      `${root}.auth.resolve`,
      `${root}.catalog.changed`,
      `${root}.progress.${service}.*`,
      `${root}.resources.changed.${service}`,
      ...bus.publishes.map((subject) => `${root}.${service}.${subject}`),
      ...(bus.nodeRouted ? nodeAgentSubjects(root, service) : []),
      "_INBOX.>",
    ],
    subscribe: [
      `${root}.${service}.call ${root}.${service}`,
      `${root}.${service}.catalog ${root}.${service}`,
      `${root}.${service}.cancel`,
      ...(bus.nodeRouted ? nodeAgentSubjects(root, service) : []),
      `_INBOX.${service}.>`,
    ],
    allowResponses: true,
  }));
  return [gateway, ...perService];
}

/**
 * A node-routed service's control plane and node agents (boxes): the agents' operations and their cancellations
 * (`node.<node>.agent`, `node.<node>.agent-cancel`), and what its replicas tell each other (`replicas.>`: a box
 * frozen, work to stop). The agents serve in a queue group per node.
 */
function nodeAgentSubjects(root, service) {
  return [`${root}.${service}.node.*.agent`, `${root}.${service}.node.*.agent-cancel`, `${root}.${service}.replicas.>`];
}

/** The environment variable holding a component's password in the deployment (`BANCADA_NATS_GATEWAY_PASSWORD`). */
export function passwordVariable(component) {
  return `BANCADA_NATS_${component.toUpperCase().replaceAll("-", "_")}_PASSWORD`;
}

/**
 * The `authorization { users = [ … ] }` block of a nats-server configuration. `password(component)` gives a
 * literal password; without it each password is the nats-server environment reference `$BANCADA_NATS_<C>_PASSWORD`.
 */
export function renderAuthorization({ root = defaultRoot, services = registeredServices(), password } = {}) {
  const quote = (value) => JSON.stringify(value);
  const list = (values) => `[${values.map(quote).join(", ")}]`;
  const users = permissionTable({ root, services }).map((entry) => {
    const secret = password ? quote(password(entry.component)) : `$${passwordVariable(entry.component)}`;
    return [
      "    {",
      `      user: ${quote(entry.component)}`,
      `      password: ${secret}`,
      "      permissions: {",
      `        publish: { allow: ${list(entry.publish)} }`,
      `        subscribe: { allow: ${list(entry.subscribe)} }`,
      ...(entry.allowResponses ? ["        allow_responses: true"] : []),
      "      }",
      "    }",
    ].join("\n");
  });
  return `authorization {\n  users = [\n${users.join("\n")}\n  ]\n}\n`;
}

export const header = (root) =>
  [
    `# NATS users and permissions of Bancada (subject root \`${root}\`): one user per component.`,
    "# Rendered by `node infra/nats/render.mjs` from infra/nats/permissions.mjs: edit that file, not this one.",
    "# Each password is read from the nats-server's environment (BANCADA_NATS_<COMPONENT>_PASSWORD).",
    "",
  ].join("\n");

/** The committed infra/k8s/base/nats/auth.conf. */
export function renderK8sAuth({ root = defaultRoot } = {}) {
  return `${header(root)}${renderAuthorization({ root })}`;
}
