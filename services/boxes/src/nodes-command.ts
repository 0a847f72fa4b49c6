/**
 * `bancada boxes …`: the nodes that run boxes, for an operator (called by the cli package).
 *   boxes nodes            each node: up or down, drained or not, what it holds and how many boxes live there
 *   boxes drain <node>     no new box is placed there (placement.ts); its stopped boxes move to other nodes
 *                          (domain/move-box.ts: the control plane moves them, this waits and reports); lists the rest
 *   boxes undrain <node>   boxes are placed there again
 *   boxes node-key <node>  the key of that node's agent (BOXES_NODE_KEY), derived from the boxes service's bus key
 * Forks of a drained node's boxes still go beside their source; boxes made from its snapshots go to other nodes (the
 * snapshot's files copied there: domain/snapshot-copy.ts). Boxes with processes (running, sleeping, suspended) stay.
 */
import { applyMigrations, type BusKeys } from "@bancada/service-kit";
import { createBoxesDb, postgresSchema, type BoxesDb } from "./db/client.js";
import { nodeDownAfterMs } from "./domain/placement.js";
import { migrationsDir } from "./service.js";
import { deriveNodeKey } from "./node/node-key.js";

export const boxesUsage = `Usage:
  bancada boxes nodes            list the nodes that run boxes: up or down, drained, capacity and boxes
  bancada boxes drain <node>     stop placing new boxes on <node> and move its stopped boxes to other nodes
  bancada boxes undrain <node>   place new boxes on <node> again
  bancada boxes node-key <node>  print BOXES_NODE_KEY for <node>'s agent (needs the bus keys of the gateway or of boxes)`;

export interface BoxesCommandDeps {
  databaseUrl: string;
  print: (line: string) => void;
  /** drain: how long to wait with no box moved before it stops waiting (default 60 s). */
  moveWaitMs?: number;
}

/**
 * `boxes node-key <node>`: the line to set on a machine that runs `<node>`'s agent alone (node/node-key.ts), from
 * the bus keys of this environment (the master, or the boxes service's key). Returns the exit code.
 */
export function printNodeKey(argv: string[], keys: () => BusKeys, print: (line: string) => void): number {
  const [, node, ...extra] = argv;
  if (!node || extra.length > 0) {
    print(boxesUsage);
    return 2;
  }
  print(`BOXES_NODE=${node}`);
  print(`BOXES_NODE_KEY=${deriveNodeKey(keys().for("boxes"), node).export()}`);
  return 0;
}

/** Returns the process exit code: 0 done, 1 failed (no such node), 2 wrong usage. */
export async function runBoxesCommand(argv: string[], deps: BoxesCommandDeps): Promise<number> {
  const [command, node, ...extra] = argv;
  const wantsNode = command === "drain" || command === "undrain";
  if ((command !== "nodes" && !wantsNode) || (wantsNode && !node) || extra.length > 0 || (command === "nodes" && node)) {
    deps.print(boxesUsage);
    return command === undefined || command === "help" || command === "--help" ? 0 : 2;
  }
  await applyMigrations({ connectionString: deps.databaseUrl, schema: postgresSchema, migrationsDir });
  const db = createBoxesDb(deps.databaseUrl, 2);
  try {
    if (command === "nodes") return await listNodes(db, deps.print);
    return await setDraining(db, node!, command === "drain", deps.print, deps.moveWaitMs ?? 60_000);
  } finally {
    await db.$disconnect();
  }
}

async function setDraining(db: BoxesDb, node: string, draining: boolean, print: (line: string) => void, waitMs: number): Promise<number> {
  const { count } = await db.boxNode.updateMany({ where: { node, vcpus: { gt: 0 } }, data: { draining } });
  if (count === 0) {
    const known = (await db.boxNode.findMany({ where: { vcpus: { gt: 0 } }, select: { node: true }, orderBy: { node: "asc" } })).map(
      (row) => row.node,
    );
    print(`No node named '${node}' runs boxes; known nodes: ${known.join(", ") || "none"} (bancada boxes nodes lists them).`);
    return 1;
  }
  if (!draining) {
    print(`Node ${node}: new boxes are placed there again.`);
    return 0;
  }
  const boxes = await boxesOn(db, node);
  print(`Node ${node} is drained: no new box is placed there (forks of its boxes still are). ${boxes.length} boxes live there:`);
  for (const box of boxes) print(`  ${box.id}  ${box.state.padEnd(9)}  account ${box.accountId}  ${fateOf(box)}`);
  const moving = boxes.filter((box) => box.state === "stopped" && box.ports === 0).map((box) => box.id);
  if (boxes.length > moving.length)
    print("Boxes with processes keep running and are served as before: stop or delete them to empty the node.");
  if (moving.length > 0) await waitForMoves(db, node, moving, print, waitMs);
  return 0;
}

interface BoxOnNode {
  id: string;
  accountId: string;
  state: string;
  ports: number;
}

const boxesOn = (db: BoxesDb, node: string) =>
  db.$queryRaw<BoxOnNode[]>`
    SELECT b.id, b.account_id AS "accountId", b.state::text AS state,
           (SELECT count(*)::int FROM box_ports p WHERE p.box_id = b.id) AS ports
      FROM boxes b WHERE b.node = ${node} AND b.state NOT IN ('deleting', 'deleted') ORDER BY b.created_at, b.id`;

/** What drain does with a box (domain/move-box.ts): a stopped one moves, unless its published ports tie it here. */
function fateOf(box: BoxOnNode): string {
  if (box.state !== "stopped") return "stays (its processes run here)";
  if (box.ports > 0) return "stays (it has published ports: unpublish them and it moves)";
  return "moves to another node";
}

/**
 * The boxes service's control plane moves the stopped boxes (every 2 s); this waits and says where each went, until
 * all have moved or none has for `waitMs` (no control plane running, or no node with room: its log says why).
 */
async function waitForMoves(db: BoxesDb, node: string, ids: string[], print: (line: string) => void, waitMs: number): Promise<void> {
  print(`Moving ${ids.length} stopped boxes to other nodes (the boxes service does it; this waits and reports):`);
  const left = new Set(ids);
  let progressAt = Date.now();
  while (left.size > 0 && Date.now() - progressAt < waitMs) {
    await new Promise((resolve) => setTimeout(resolve, 500));
    const rows = await db.box.findMany({ where: { id: { in: [...left] } }, select: { id: true, node: true, state: true } });
    for (const row of rows) {
      if (row.node === node && row.state === "stopped") continue;
      left.delete(row.id);
      progressAt = Date.now();
      print(row.node === node ? `  ${row.id}  stays: it is ${row.state} now` : `  ${row.id}  moved to ${row.node}`);
    }
    for (const id of left) if (!rows.some((row) => row.id === id)) left.delete(id);
  }
  if (left.size > 0)
    print(
      `${left.size} stopped boxes did not move in ${Math.round(waitMs / 1000)} s: no node has room for them, or no boxes control plane runs (its log says which); they move once one can.`,
    );
  else print(`Every stopped box left node ${node}.`);
}

async function listNodes(db: BoxesDb, print: (line: string) => void): Promise<number> {
  const rows = await db.$queryRaw<
    { node: string; vcpus: number; memMiB: number; labels: string[]; draining: boolean; silentMs: number | null; boxes: number }[]
  >`
    SELECT n.node, n.vcpus, n.mem_mib AS "memMiB", n.labels, n.draining,
           (extract(epoch FROM now() - n.heartbeat_at) * 1000)::float8 AS "silentMs",
           (SELECT count(*)::int FROM boxes b WHERE b.node = n.node AND b.state NOT IN ('deleting', 'deleted')) AS boxes
      FROM box_nodes n WHERE n.vcpus > 0 ORDER BY n.node`;
  if (rows.length === 0) print("No node has registered yet: a node registers when its boxes service starts.");
  for (const row of rows) {
    const up = row.silentMs !== null && row.silentMs < nodeDownAfterMs;
    const state = up ? "up" : row.silentMs === null ? "down (never heartbeat)" : `down (silent ${Math.round(row.silentMs / 1000)} s)`;
    const labels = row.labels.length > 0 ? `  labels ${row.labels.join(",")}` : "";
    print(`${row.node}  ${state}${row.draining ? ", drained" : ""}  ${row.vcpus} vCPUs, ${row.memMiB} MiB  ${row.boxes} boxes${labels}`);
  }
  return 0;
}
