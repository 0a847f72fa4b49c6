/**
 * Where a new box goes: the one place that decides it. Every node that runs boxes registers what it can hold in
 * `box_nodes` (cores, vCPUs, memory, the disk it can still promise, labels) and heartbeats every second; a node
 * whose last heartbeat is older than `nodeDownAfterMs` is down. `create_box` asks `placeBox` for a node among the
 * nodes of this driver that are up, not drained, carry the labels the box's template needs and have room for it
 * — memory never overcommitted, vCPUs up to their overcommit, the account's share of the node, disk — counting
 * the boxes that hold processes there now (capacity.ts counts the same ones). Policy: `spread` (default) takes the
 * node with the most room left after the box, `pack` the one with the least; nodes within 2 points of the best are
 * tied and one is taken at random, so that concurrent creates do not all land on the same node. A full node is
 * never an error while another fits: only when none can hold the box is the answer `unavailable`, with each node's
 * reason. With one node up, that node answers itself (its admission, capacity.ts, names the exact limit).
 *
 * The choice is made on what the rows say a moment before; the chosen node admits the box in its own transaction
 * under its node lock (capacity.ts), so racing creates never overfill it: one that loses the race for a node's last
 * room answers `unavailable` naming the resource, and its retry is placed on what is left.
 * Forks stay on their source's node. A box made from a snapshot goes where the snapshot is while that node can hold
 * it (`placeNear`), else where placement puts it, which copies the snapshot first (snapshot-copy.ts).
 */
import { DomainError, ErrorCode } from "@bancada/contracts";
import type { BoxNode } from "../db/generated/client.js";
import type { BoxesRuntime } from "./context.js";
import type { HostCapacity } from "./host-settings.js";

/** A node with no heartbeat for this long is down: its boxes answer unavailable and nothing is placed there. */
export const nodeDownAfterMs = 3_000;
/** How often a node heartbeats (and refreshes what it can hold). */
export const heartbeatEveryMs = 1_000;

export interface PlacementDemand {
  vcpus: number;
  memMiB: number;
  dataGiB: number;
  /** The template of the new box: its required labels (BOXES_TEMPLATE_LABELS). */
  template: string;
}

/** What one node holds now, all accounts together and for the caller's account. */
interface NodeUsage {
  node: string;
  vcpus: number;
  memMiB: number;
  accountVcpus: number;
  accountMemMiB: number;
}

/** A node and why it cannot hold the box (null: it can), with how much room it would keep. */
interface Candidate {
  node: string;
  reason: string | null;
  /** The smaller of the memory and vCPU fractions left after the box (0 to 1). */
  roomAfter: number;
}

/**
 * The node the new box goes to, or null when no node is registered up (a machine whose boxes cannot run here:
 * the replica answers itself, as its driver says).
 */
export async function placeBox(rt: BoxesRuntime, accountId: string, demand: PlacementDemand): Promise<string | null> {
  const nodes = await registeredNodes(rt);
  const up = nodes.filter((node) => node.up);
  if (up.length === 0) return null;
  const usage = await usageByNode(rt, accountId);
  const required = rt.placement.templateLabels[demand.template] ?? [];
  const candidates = nodes.map((node) => judge(node, usage.get(node.node), demand, required));
  const fitting = candidates.filter((candidate) => candidate.reason === null);
  if (fitting.length > 0) return choose(fitting, rt.placement.policy);
  // one node up and it cannot hold the box: its own admission names the exact limit (capacity.ts)
  if (up.length === 1 && !up[0]!.draining && required.every((label) => up[0]!.labels.includes(label))) return up[0]!.node;
  const reasons = candidates.map(({ node, reason }) => ({ node, reason: reason! }));
  throw new DomainError(
    ErrorCode.unavailable,
    `No node can hold this box (${demand.vcpus} vCPUs, ${demand.memMiB} MiB, ${demand.dataGiB} GiB): ` +
      `${reasons.map(({ node, reason }) => `${node}: ${reason}`).join("; ")}. Try a smaller box, or again after other boxes stop.`,
    { nodes: reasons, retryable: true },
  );
}

/**
 * `near` (a snapshot's node) when it is up and can hold the box, as placeBox judges; else the node placeBox picks
 * (null: none registered up). A node that is down, or never registered, is `near` still: its own refusal answers.
 */
export async function placeNear(rt: BoxesRuntime, accountId: string, demand: PlacementDemand, near: string): Promise<string | null> {
  const nodes = await registeredNodes(rt);
  const own = nodes.find((node) => node.node === near);
  if (!own?.up) return near;
  const usage = await usageByNode(rt, accountId);
  const required = rt.placement.templateLabels[demand.template] ?? [];
  if (judge(own, usage.get(near), demand, required).reason === null) return near;
  return placeBox(rt, accountId, demand);
}

type NodeState = BoxNode & { up: boolean; silentMs: number | null };

/** The nodes of this driver, each with whether it heartbeat within nodeDownAfterMs (by the database's clock). */
async function registeredNodes(rt: BoxesRuntime): Promise<NodeState[]> {
  const rows = await rt.db.$queryRaw<(BoxNode & { silentMs: number | null })[]>`
    SELECT node, ssh_host AS "sshHost", ssh_port AS "sshPort", updated_at AS "updatedAt", driver, cores, vcpus,
           mem_mib AS "memMiB", share_percent AS "sharePercent", disk_room_gib AS "diskRoomGiB", labels, draining,
           heartbeat_at AS "heartbeatAt",
           (extract(epoch FROM now() - heartbeat_at) * 1000)::float8 AS "silentMs"
      FROM box_nodes
     WHERE driver = ${rt.driver.kind} AND vcpus > 0
     ORDER BY node`;
  return rows.map((row) => ({ ...row, labels: row.labels ?? [], up: row.silentMs !== null && row.silentMs < nodeDownAfterMs }));
}

/** Whether a node is up now (null: it never registered, e.g. its boxes predate node registration). */
export async function nodeIsUp(rt: BoxesRuntime, node: string): Promise<NodeReach | null> {
  const [row] = await rt.db.$queryRaw<Omit<NodeReach, "up">[]>`
    SELECT (extract(epoch FROM now() - heartbeat_at) * 1000)::float8 AS "silentMs", ssh_host AS host, ssh_port AS "sshPort", public_url AS "publicUrl", capacity,
           CASE WHEN port_first IS NULL THEN NULL ELSE json_build_object('first', port_first, 'last', port_last) END AS "portRange"
      FROM box_nodes WHERE node = ${node} AND vcpus > 0`;
  if (!row) return null;
  return { ...row, up: row.silentMs !== null && row.silentMs < nodeDownAfterMs };
}

/** Whether a node is up, and where clients reach it: its public host (ports, SSH) and HTTP (transfer URLs). */
export interface NodeReach {
  up: boolean;
  silentMs: number | null;
  host: string;
  publicUrl: string | null;
  /** What it admits (null: a node that registered before it said so). */
  capacity: HostCapacity | null;
  /** The host ports its published ports take (null: a node that registered before it said so). */
  portRange: { first: number; last: number } | null;
  /** Its SSH endpoint's port (null: SSH is off there). */
  sshPort: number | null;
}

/** The boxes that hold processes (capacity.ts counts the same), per node. */
async function usageByNode(rt: BoxesRuntime, accountId: string): Promise<Map<string, NodeUsage>> {
  const rows = await rt.db.$queryRaw<NodeUsage[]>`
    SELECT node,
           coalesce(sum(vcpus), 0)::int AS vcpus, coalesce(sum(mem_mib), 0)::int AS "memMiB",
           coalesce(sum(vcpus) FILTER (WHERE account_id = ${accountId}), 0)::int AS "accountVcpus",
           coalesce(sum(mem_mib) FILTER (WHERE account_id = ${accountId}), 0)::int AS "accountMemMiB"
      FROM boxes
     WHERE driver = ${rt.driver.kind}
       AND (state IN ('creating', 'running', 'sleeping', 'suspended') OR operation->>'kind' = 'start')
     GROUP BY node`;
  return new Map(rows.map((row) => [row.node, row]));
}

function judge(node: NodeState, used: NodeUsage | undefined, demand: PlacementDemand, required: string[]): Candidate {
  const refuse = (reason: string): Candidate => ({ node: node.node, reason, roomAfter: 0 });
  if (!node.up)
    return refuse(node.silentMs === null ? "down (never heartbeat)" : `down (no heartbeat for ${Math.round(node.silentMs / 1000)} s)`);
  if (node.draining) return refuse("drained (bancada boxes drain): no new boxes");
  const missing = required.filter((label) => !node.labels.includes(label));
  if (missing.length > 0) return refuse(`lacks the label${missing.length > 1 ? "s" : ""} ${missing.join(", ")} the template needs`);
  const mem = used?.memMiB ?? 0;
  const vcpus = used?.vcpus ?? 0;
  if (mem + demand.memMiB > node.memMiB) return refuse(`memory full (${mem} of ${node.memMiB} MiB held)`);
  if (vcpus + demand.vcpus > node.vcpus) return refuse(`vCPUs full (${vcpus} of ${node.vcpus} handed out)`);
  const shareMem = Math.floor((node.memMiB * node.sharePercent) / 100);
  const shareVcpus = Math.floor((node.vcpus * node.sharePercent) / 100);
  if ((used?.accountMemMiB ?? 0) + demand.memMiB > shareMem || (used?.accountVcpus ?? 0) + demand.vcpus > shareVcpus)
    return refuse(`this workspace holds its share of it (${node.sharePercent}%)`);
  if (node.diskRoomGiB !== null && demand.dataGiB > node.diskRoomGiB)
    return refuse(`disk full (${node.diskRoomGiB} GiB can still be promised)`);
  const roomAfter = Math.min((node.memMiB - mem - demand.memMiB) / node.memMiB, (node.vcpus - vcpus - demand.vcpus) / node.vcpus);
  return { node: node.node, reason: null, roomAfter };
}

/**
 * The best node by the policy; nodes within `tieWindow` of the best count as tied and one of them is taken at random,
 * so that creates arriving together (each sees the same rows) spread over near-equal nodes instead of all taking one.
 */
function choose(fitting: Candidate[], policy: "spread" | "pack"): string {
  const scores = fitting.map((candidate) => (policy === "spread" ? candidate.roomAfter : -candidate.roomAfter));
  const best = Math.max(...scores);
  const tied = fitting.filter((_, i) => scores[i]! >= best - tieWindow);
  return tied[Math.floor(Math.random() * tied.length)]!.node;
}

/** Fractions of room this close to the best are a tie (2 points: one 4 GiB box on a 200 GiB node). */
const tieWindow = 0.02;

/** This node's heartbeat: what it can hold now and that it is alive (the database's clock stamps it). */
export async function heartbeat(rt: BoxesRuntime): Promise<void> {
  const { capacity } = rt;
  const diskRoomGiB = await diskRoom(rt);
  const labels = rt.placement.nodeLabels;
  const { range } = rt.portSettings;
  await rt.housekeepingDb.$executeRaw`
    INSERT INTO box_nodes (node, ssh_host, ssh_port, updated_at, driver, cores, vcpus, mem_mib, share_percent, disk_room_gib, labels,
                           public_url, capacity, port_first, port_last, heartbeat_at)
    VALUES (${rt.driver.node}, ${rt.ssh.host}, ${rt.ssh.port}, now(), ${rt.driver.kind}, ${capacity.cores}, ${capacity.vcpus},
            ${capacity.memMiB}, ${capacity.accountSharePercent}, ${diskRoomGiB}, ${labels}, ${rt.transfers.publicUrl},
            ${JSON.stringify(capacity)}::jsonb, ${range.first}, ${range.last}, now())
    ON CONFLICT (node) DO UPDATE SET driver = EXCLUDED.driver, cores = EXCLUDED.cores, vcpus = EXCLUDED.vcpus,
      mem_mib = EXCLUDED.mem_mib, share_percent = EXCLUDED.share_percent, disk_room_gib = EXCLUDED.disk_room_gib,
      labels = EXCLUDED.labels, public_url = EXCLUDED.public_url, capacity = EXCLUDED.capacity,
      port_first = EXCLUDED.port_first, port_last = EXCLUDED.port_last, heartbeat_at = now()`;
}

/**
 * GiB of new disks this node can still promise: the data folder's free space × the disk overcommit, less what its
 * boxes' sparse disks may still grow to (disk-space.ts makes the exact check at admission); null without `diskSpace`.
 */
async function diskRoom(rt: BoxesRuntime): Promise<number | null> {
  if (!rt.driver.diskSpace) return null;
  const boxes = await rt.housekeepingDb.box.findMany({
    where: { driver: rt.driver.kind, node: rt.driver.node, state: { notIn: ["deleting", "deleted"] } },
    select: { id: true, dataGiB: true },
  });
  const space = await rt.driver.diskSpace(boxes.map((box) => box.id));
  const GiB = 1024 ** 3;
  const owed = boxes.reduce((sum, box) => sum + Math.max(0, box.dataGiB * GiB - (space.heldBytes.get(box.id) ?? 0)), 0);
  return Math.max(0, Math.min(2 ** 31 - 1, Math.floor((space.freeBytes * rt.capacity.diskOvercommit - owed) / GiB)));
}
