/**
 * list_tasks and move_task through the gateway (real MCP client → gateway → bus → service → Postgres with
 * RLS) on a board of 10,000 tasks, side by side with the same calls on a 10-task board (baseline).
 * Run: npx tsx services/boards/bench/list-move.ts   (DATABASE_URL / NATS_URL honoured; defaults: local
 * Postgres and NATS). Prints p50/p99 of sequential calls and the throughput of 8 concurrent clients.
 */
import { randomUUID } from "node:crypto";

process.env.DATABASE_URL ??= "postgres://postgres@127.0.0.1:5432/postgres";
process.env.NATS_URL ??= "nats://127.0.0.1:4222";
process.env.LOG_LEVEL ??= "silent";

const { callTool, connectClient, startStack } = await import("@bancada/e2e");
const { createBoardsService, createBoardsDb } = await import("../src/index.js");
const { seedTasks } = await import("../test/fixtures.js");

type Client = Awaited<ReturnType<typeof connectClient>>;
interface TaskRow {
  id: string;
  quadrant: string;
  version: number;
}

const quadrants = ["urgent-important", "not-urgent-important", "urgent-not-important", "not-urgent-not-important", "backlog"];
const samples = Number(process.env.BENCH_SAMPLES ?? 300);

let service!: Awaited<ReturnType<typeof createBoardsService>>;
const stack = await startStack({
  services: {
    boards: async (deps) => {
      service = await createBoardsService({ ...deps, expiryIntervalMs: 0 });
      return { name: "boards", routes: service.routes, stop: () => service.stop() };
    },
  },
  // the clients share one key: the per-key limit (100/s by default) would measure itself, not the path
  gateway: { rateLimit: { burst: 100_000, perSecond: 100_000 } },
});
/** The service alone: the tool host's in-process entry (validation, RLS transaction, domain), no MCP, gateway or bus. */
const principal = {
  keyId: "bench",
  accountId: "acct-a",
  personId: "ana",
  agentId: "bench",
  scopes: ["boards:read", "boards:write"],
  allowWrites: true,
  allowedBoardIds: null,
  profile: "full" as const,
};
async function direct<T>(tool: string, args: Record<string, unknown>): Promise<T> {
  const reply = await service.host.call(tool, args, principal);
  if (!reply.ok) throw new Error(`${tool}: ${JSON.stringify(reply.error).slice(0, 300)}`);
  return reply.result as T;
}
const db = createBoardsDb(stack.database.url, 2);
const key = await stack.createKey({ personId: "ana", scopes: ["boards:read", "boards:write"] });
const clients: Client[] = await Promise.all(Array.from({ length: 8 }, () => connectClient(stack.mcpUrl, key)));
const client = clients[0]!;

async function makeBoard(name: string, count: number): Promise<{ id: string; tasks: TaskRow[] }> {
  const id = randomUUID();
  const response = await fetch(`${stack.baseUrl}/v1/boards`, {
    method: "POST",
    headers: { Authorization: `Bearer ${key}`, "Content-Type": "application/json" },
    body: JSON.stringify({ requestId: id, name }),
  });
  if (response.status !== 201) throw new Error(`board: ${response.status} ${await response.text()}`);
  const tags = await Promise.all(
    ["Cliente", "Interno", "Urgente"].map(async (tag) => {
      const tagId = randomUUID();
      await fetch(`${stack.baseUrl}/v1/boards/${id}/tags`, {
        method: "POST",
        headers: { Authorization: `Bearer ${key}`, "Content-Type": "application/json" },
        body: JSON.stringify({ requestId: tagId, name: tag, color: "teal" }),
      });
      return tagId;
    }),
  );
  // Fixture straight into the tables: 2,000 tasks per quadrant (one in seven completed), a third of them tagged.
  await seedTasks(db, id, count);
  await db.$executeRawUnsafe(`UPDATE boards.tasks SET status = 'completed' WHERE board_id = $1::uuid AND task_number % 7 = 0`, id);
  await db.$executeRawUnsafe(
    `INSERT INTO boards.task_tags (account_id, task_id, tag_id, board_id)
     SELECT t.account_id, t.id, ($2::uuid[])[1 + t.task_number % 3], t.board_id FROM boards.tasks t WHERE t.board_id = $1::uuid AND t.task_number % 3 = 0`,
    id,
    tags,
  );
  await db.$executeRawUnsafe(`ANALYZE boards.tasks; ANALYZE boards.task_tags`);
  const tasks = await db.$queryRawUnsafe<TaskRow[]>(
    `SELECT id::text, quadrant::text, version FROM boards.tasks WHERE board_id = $1::uuid AND status = 'active'`,
    id,
  );
  return { id, tasks };
}

/** Every cursor of the board's full listing, so that reads can hit pages all over the board. */
async function cursorsOf(boardId: string): Promise<(string | undefined)[]> {
  const cursors: (string | undefined)[] = [undefined];
  let cursor: string | null = null;
  do {
    const page: { nextCursor: string | null } = await call<{ nextCursor: string | null }>(client, "list_tasks", {
      boardId,
      ...(cursor ? { cursor } : {}),
    });
    cursor = page.nextCursor;
    if (cursor) cursors.push(cursor);
  } while (cursor);
  return cursors;
}

async function call<T>(on: Client, tool: string, args: Record<string, unknown>): Promise<T> {
  const outcome = await callTool<T>(on, tool, args);
  if (outcome.isError) throw new Error(`${tool}: ${outcome.text.slice(0, 300)}`);
  return outcome.data;
}

function pick<T>(items: T[], i: number): T {
  return items[(i * 7919) % items.length]!;
}

function listArgs(boardId: string, cursors: (string | undefined)[], i: number): Record<string, unknown> {
  const cursor = pick(cursors, i);
  return { boardId, ...(cursor ? { cursor } : {}) };
}

function moveArgs(boardId: string, tasks: TaskRow[], i: number): Record<string, unknown> {
  const task = pick(tasks, i);
  const quadrant = quadrants[i % 5]!;
  const anchor =
    i % 2 === 0 ? tasks.find((t, j) => j >= (i * 31) % tasks.length && t.quadrant === quadrant && t.id !== task.id) : undefined;
  return {
    requestId: randomUUID(),
    boardId,
    taskId: task.id,
    expectedVersion: task.version,
    quadrant,
    ...(anchor ? { beforeId: anchor.id } : {}),
  };
}

/** Keeps the local copy of versions and quadrants current after a move. */
function remember(tasks: TaskRow[], moved: { task: TaskRow }): void {
  const row = tasks.find((t) => t.id === moved.task.id);
  if (row) Object.assign(row, { version: moved.task.version, quadrant: moved.task.quadrant });
}

interface Row {
  op: string;
  board: string;
  p50: number;
  p99: number;
  perSecond: number;
}

type Run = (on: Client, i: number) => Promise<unknown>;

const percentile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;

/**
 * Sequential latency of several variants measured interleaved (call 1 of each, then call 2 of each …), so
 * that the machine's load at any moment weighs on all of them alike; then each variant's throughput
 * with 8 concurrent clients.
 */
async function compare(op: string, variants: [board: string, run: Run][]): Promise<Row[]> {
  for (let i = 0; i < 20; i++) for (const [, run] of variants) await run(client, i + 100_000);
  const latencies = variants.map(() => [] as number[]);
  for (let i = 0; i < samples; i++) {
    for (const [v, [, run]] of variants.entries()) {
      const started = performance.now();
      await run(client, i);
      latencies[v]!.push(performance.now() - started);
    }
  }
  const rows: Row[] = [];
  for (const [v, [board, run]] of variants.entries()) {
    const perClient = Math.ceil(samples / clients.length);
    const started = performance.now();
    await Promise.all(
      clients.map(async (on, c) => {
        for (let i = 0; i < perClient; i++) await run(on, 200_000 + c * perClient + i);
      }),
    );
    const seconds = (performance.now() - started) / 1000;
    const sorted = latencies[v]!.sort((a, b) => a - b);
    rows.push({
      op,
      board,
      p50: percentile(sorted, 0.5),
      p99: percentile(sorted, 0.99),
      perSecond: (perClient * clients.length) / seconds,
    });
  }
  return rows;
}

const big = await makeBoard("10k", 10_000);
const small = await makeBoard("baseline", 10);
const bigCursors = await cursorsOf(big.id);
const smallCursors = await cursorsOf(small.id);

/** Moves on distinct tasks per concurrent client would still collide on versions; each client moves its own slice. */
const mover = (board: { id: string; tasks: TaskRow[] }) => async (on: Client, i: number) => {
  const slice = board.tasks.filter((_, j) => j % clients.length === clients.indexOf(on));
  remember(board.tasks, await call<{ task: TaskRow }>(on, "move_task", moveArgs(board.id, slice.length > 0 ? slice : board.tasks, i)));
};

const serviceMover = (board: { id: string; tasks: TaskRow[] }) => async (on: Client, i: number) => {
  const slice = board.tasks.filter((_, j) => j % clients.length === clients.indexOf(on));
  remember(board.tasks, await direct<{ task: TaskRow }>("move_task", moveArgs(board.id, slice, i + 500_000)));
};

const results: Row[] = [
  ...(await compare("list_tasks (any page)", [
    ["10 tasks", (on, i) => call(on, "list_tasks", listArgs(small.id, smallCursors, i))],
    ["10,000 tasks", (on, i) => call(on, "list_tasks", listArgs(big.id, bigCursors, i))],
    ["10,000, service", (_on, i) => direct("list_tasks", listArgs(big.id, bigCursors, i))],
  ])),
  ...(await compare("list_tasks (backlog, active)", [
    ["10 tasks", (on) => call(on, "list_tasks", { boardId: small.id, quadrant: "backlog", status: "active" })],
    ["10,000 tasks", (on) => call(on, "list_tasks", { boardId: big.id, quadrant: "backlog", status: "active" })],
  ])),
  ...(await compare("move_task", [
    ["10 tasks", mover(small)],
    ["10,000 tasks", mover(big)],
    ["10,000, service", serviceMover(big)],
  ])),
];

console.log(
  `\nboards bench: ${samples} sequential calls per row, interleaved with the other rows of the same operation (p50/p99), then ${clients.length} concurrent clients (throughput)\n`,
);
console.log(["operation".padEnd(30), "board".padEnd(14), "p50 ms".padStart(8), "p99 ms".padStart(8), "calls/s".padStart(9)].join(" "));
for (const r of results) {
  console.log(
    [
      r.op.padEnd(30),
      r.board.padEnd(14),
      r.p50.toFixed(1).padStart(8),
      r.p99.toFixed(1).padStart(8),
      r.perSecond.toFixed(0).padStart(9),
    ].join(" "),
  );
}
console.log(
  `\npages of the 10,000-task board: ${bigCursors.length}; "service" rows skip MCP, the gateway and the bus (the tool host's in-process call)`,
);

await Promise.all(clients.map((c) => c.close()));
await db.$disconnect();
await stack.stop();
