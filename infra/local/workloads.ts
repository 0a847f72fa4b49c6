/**
 * The rehearsal's load on every service but boxes: units of work, each retried step by step with its own
 * idempotency key until it is acknowledged, so a replica, gateway or NATS node killed under them costs retries,
 * never a lost or doubled write (infra/test/rehearsal.test.ts counts both in PostgreSQL).
 *
 * - scripts: `create_script` (`idempotencyKey`), its title names the key;
 * - boards: `create_task` on one board (`requestId` is the task's id);
 * - drafts: `sosoapi_create_content_draft` then `sosoapi_submit_content_draft` (each its own `request_id`), a
 *   caption naming the key and one X account, no asset (the worker then submits it without reading a disk);
 * - docs: `search_documents` (a read: acknowledged is answered).
 */
import { randomUUID } from "node:crypto";
import { Caller, type Attempt, type Outcome } from "./load.js";

export type ServiceName = "scripts" | "boards" | "drafts" | "docs";
export const loadedServices: ServiceName[] = ["scripts", "boards", "drafts", "docs"];

/** What the units of one service came to. */
export interface ServiceLog {
  /** unit key → the id of what it wrote (a search: its number of results) */
  acknowledged: Map<string, string>;
  attempts: (Attempt & { tool: string })[];
  /** keys that never finished within the bounds */
  abandoned: string[];
}

export const emptyLog = (): ServiceLog => ({ acknowledged: new Map(), attempts: [], abandoned: [] });

/** Where the load writes: made once, before the load, through the REST API the gateway relays. */
export interface Targets {
  tag: string;
  boardId: string;
  workspaceId: string;
}

/** A short read of each service, for "how soon does it answer again after a kill". */
export const probes: Record<ServiceName, (targets: Targets) => { tool: string; args: Record<string, unknown> }> = {
  scripts: () => ({ tool: "list_scripts", args: { limit: 1 } }),
  boards: (targets) => ({ tool: "list_tasks", args: { boardId: targets.boardId } }),
  drafts: (targets) => ({ tool: "sosoapi_list_content_drafts", args: { workspace_id: targets.workspaceId, limit: 1 } }),
  docs: () => ({ tool: "search_documents", args: { query: "bancada", pageSize: 1 } }),
};

/** A board and a workspace for the load, made over REST at the first gateway (its `/mcp` URL's origin). */
export async function makeTargets(gateway: string, apiKey: string, tag: string): Promise<Targets> {
  const origin = new URL(gateway).origin;
  const post = async (route: string, body: object) => {
    const response = await fetch(`${origin}${route}`, {
      method: "POST",
      headers: { authorization: `Bearer ${apiKey}`, "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    if (!response.ok) throw new Error(`POST ${route}: ${response.status} ${await response.text()}`);
    return (await response.json()) as Record<string, { id: string }>;
  };
  const board = await post("/v1/boards", { requestId: randomUUID(), name: tag });
  const workspace = await post("/v1/workspaces", { name: tag, request_id: randomUUID() });
  return { tag, boardId: board.board!.id, workspaceId: workspace.workspace!.id };
}

/** Calls `tool` with the same arguments (so the same key) until it succeeds or `maxAttempts` run out. */
async function step(
  caller: Caller,
  log: ServiceLog,
  key: string,
  tool: string,
  args: Record<string, unknown>,
  maxAttempts: number,
): Promise<Record<string, unknown> | undefined> {
  for (let attempt = 0; attempt < maxAttempts; attempt++) {
    const started = Date.now();
    const gateway = caller.gateway;
    const outcome: Outcome = await caller.call(tool, args);
    const entry = { tool, key, at: started, ms: Date.now() - started, gateway, outcome: outcome.kind };
    if (outcome.kind === "ok") {
      log.attempts.push(entry);
      return outcome.data;
    }
    log.attempts.push({ ...entry, code: outcome.kind === "error" ? outcome.code : "transport", message: outcome.message });
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return undefined;
}

/** One unit of `service`'s work under `key`: the id it wrote once every step is acknowledged, else undefined. */
async function unit(
  service: ServiceName,
  caller: Caller,
  log: ServiceLog,
  key: string,
  targets: Targets,
  maxAttempts: number,
): Promise<string | undefined> {
  const title = `${targets.tag} ${key}`;
  switch (service) {
    case "scripts": {
      const data = await step(
        caller,
        log,
        key,
        "create_script",
        { title, text: "written by the rehearsal", idempotencyKey: key },
        maxAttempts,
      );
      return (data?.script as { id: string } | undefined)?.id;
    }
    case "boards": {
      const data = await step(caller, log, key, "create_task", { requestId: key, boardId: targets.boardId, title }, maxAttempts);
      return (data?.task as { id: string } | undefined)?.id;
    }
    case "drafts": {
      const workspace = targets.workspaceId;
      const created = await step(
        caller,
        log,
        key,
        "sosoapi_create_content_draft",
        { workspace_id: workspace, request_id: key, caption: title, account_ids: ["x:bancada_rehearsal"] },
        maxAttempts,
      );
      const draft = created?.draft as { id: string; revision: number } | undefined;
      if (!draft) return undefined;
      const submitKey = randomUUID();
      const submitted = await step(
        caller,
        log,
        key,
        "sosoapi_submit_content_draft",
        { workspace_id: workspace, draft_id: draft.id, expected_revision: draft.revision, request_id: submitKey },
        maxAttempts,
      );
      return submitted ? draft.id : undefined;
    }
    case "docs": {
      const data = await step(caller, log, key, "search_documents", { query: "bancada", pageSize: 3 }, maxAttempts);
      return data ? String((data.results as unknown[] | undefined)?.length ?? 0) : undefined;
    }
  }
}

/** `workers` callers of `service` run units until `stop()` says so; every unit ends acknowledged or abandoned. */
export async function loadService(options: {
  service: ServiceName;
  gateways: string[];
  apiKey: string;
  workers: number;
  targets: Targets;
  stop: () => boolean;
  log: ServiceLog;
  maxAttempts?: number;
}): Promise<ServiceLog> {
  const { log } = options;
  const worker = async (index: number) => {
    const caller = new Caller(options.gateways, options.apiKey, index);
    try {
      while (!options.stop()) {
        const key = randomUUID();
        const id = await unit(options.service, caller, log, key, options.targets, options.maxAttempts ?? 60);
        if (id === undefined) log.abandoned.push(key);
        else log.acknowledged.set(key, id);
      }
    } finally {
      await caller.close();
    }
  };
  await Promise.all(Array.from({ length: options.workers }, (_, index) => worker(index)));
  return log;
}
