/**
 * get_box's and list_boxes' `sshCommand`. A box is reached over SSH on its own node (the session runs there), so
 * the command names that node's endpoint: this replica's own settings for its node's boxes, and for another
 * node's the host and port its replicas recorded in `box_nodes` at start (docs/boxes.md, "More than one node").
 */
import type { BoxRow } from "../../db/client.js";
import type { BoxesRuntime } from "../context.js";
import type { SshSettings } from "./ssh-settings.js";

/** The SSH endpoint of each node of these boxes (a node that never recorded one has none). */
export async function sshEndpoints(rt: BoxesRuntime, rows: Pick<BoxRow, "node">[]): Promise<Map<string, SshSettings>> {
  const endpoints = new Map<string, SshSettings>([[rt.driver.node, rt.ssh]]);
  const others = [...new Set(rows.map((row) => row.node))].filter((node) => !endpoints.has(node));
  if (others.length === 0) return endpoints;
  for (const row of await rt.db.boxNode.findMany({ where: { node: { in: others } } }))
    endpoints.set(row.node, { host: row.sshHost, port: row.sshPort });
  return endpoints;
}

/** The command that opens a shell in the box, with a key registered at /v1/ssh-keys; null without an endpoint. */
export function sshCommandOf(endpoints: Map<string, SshSettings>, row: Pick<BoxRow, "id" | "state" | "node">): string | null {
  const endpoint = endpoints.get(row.node);
  if (!endpoint || endpoint.port === null || row.state === "deleted" || row.state === "deleting") return null;
  return `ssh -p ${endpoint.port} ${row.id}@${endpoint.host}`;
}

/** Records where this node's SSH endpoint is (port null: SSH is off), for the replicas of other nodes. */
export async function recordSshEndpoint(rt: BoxesRuntime): Promise<void> {
  const values = { sshHost: rt.ssh.host, sshPort: rt.ssh.port, updatedAt: new Date() };
  await rt.db.boxNode.upsert({ where: { node: rt.driver.node }, create: { node: rt.driver.node, ...values }, update: values });
}
