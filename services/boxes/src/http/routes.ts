/**
 * The REST API (`/v1/boxes…`): every route that mirrors a tool runs that tool's handler, with its zod schema and
 * access, so the two never diverge; each is one row below (method, path, how its input is read from the request).
 * Any replica runs it: the use cases reach the box's node themselves (domain/box-node.ts). A request whose
 * client goes away cancels the work the same way a cancelled tool call does (run-operation.ts).
 */
import { Router, type Request } from "express";
import { mountRoutes, restRoutes, type RouteDeclaration, type RouteMethod } from "@bancada/service-kit";
import type { BoxesRuntime } from "../domain/context.js";
import { forkBoxInput, listSnapshotsInput, listSnapshotsResult, saveSnapshotInput, snapshotIdParams } from "../domain/schemas/disk.js";
import { getUsageInput, usageResult } from "../domain/usage/schemas.js";
import { listFolderQuery, listFolderResult, listJobsQuery, listJobsResult } from "../domain/schemas/browse.js";
import { boxRefInput, boxResult, createBoxInput, deleteBoxInput, listBoxesResult, powerInput } from "../domain/schemas/box.js";
import { execInput, jobWaitInput, startJobInput, writeFileInput } from "../domain/schemas/exec.js";
import { listPortsResult, publishPortInput } from "../domain/schemas/port.js";
import { downloadUrlInput, uploadUrlInput } from "../domain/schemas/transfer.js";
import { boxOperations } from "./box-operations.js";
import { runOperation, type BoxOperation } from "./run-operation.js";
import { transferRoutes } from "./transfer-routes.js";
import { sshKeyRoutes } from "./ssh-key-routes.js";
import { secretsRoutes } from "./secrets-routes.js";

/** One REST mirror: the operation it runs, how its input is read from the request, and what the document says of it. */
interface Mirror {
  summary: string;
  op: BoxOperation;
  input: (req: Request) => Record<string, unknown>;
  status?: number;
  declare?: Omit<RouteDeclaration, "summary" | "access" | "status">;
}

const idempotency = { notInBody: ["idempotencyKey"], headers: { "Idempotency-Key": "a retry with the same key answers the first result" } };

export function boxesRoutes(rt: BoxesRuntime): Router {
  const router = Router();
  const routes = restRoutes(router);
  const ops = boxOperations(rt);
  mountRoutes(router, transferRoutes(rt), sshKeyRoutes(rt), secretsRoutes(rt));

  const mirror = (method: RouteMethod, path: string, { summary, op, input, status = 200, declare }: Mirror) =>
    routes[method](path, { summary, access: op.access, ...declare, ...(status === 200 ? {} : { status }) }, async (req, res) => {
      res.status(status).json(await runOperation(rt, req, res, op, input(req)));
    });
  const box = (req: Request) => ({ ...body(req), boxId: req.params.boxId });
  const keyed = (req: Request) => {
    const key = req.header("Idempotency-Key");
    return key ? { idempotencyKey: key } : {};
  };

  mirror("get", "/v1/boxes", {
    summary: "List boxes (state=…, metadata.<key>=…)",
    op: ops.list,
    input: (req) => listQuery(req.query),
    declare: { response: listBoxesResult },
  });
  mirror("post", "/v1/boxes", {
    summary: "Create a box",
    op: ops.create,
    input: (req) => ({ ...body(req), ...keyed(req) }),
    status: 201,
    declare: { body: createBoxInput, ...idempotency },
  });
  mirror("get", "/v1/boxes/:boxId", {
    summary: "Read one box",
    op: ops.get,
    input: (req) => ({ boxId: req.params.boxId }),
    declare: { params: boxRefInput, response: boxResult },
  });
  mirror("delete", "/v1/boxes/:boxId", {
    summary: "Delete a box (confirm=true)",
    op: ops.remove,
    input: (req) => ({ ...flags(req.query, ["confirm", "wait"]), ...box(req) }),
    declare: { body: deleteBoxInput },
  });
  mirror("post", "/v1/boxes/:boxId/suspend", { summary: "Suspend a box", op: ops.suspend, input: box, declare: { body: powerInput } });
  mirror("post", "/v1/boxes/:boxId/resume", { summary: "Resume a box", op: ops.resume, input: box, declare: { body: powerInput } });
  mirror("post", "/v1/boxes/:boxId/exec", {
    summary: "Run a command in a box and wait for it",
    op: ops.exec,
    input: box,
    declare: { body: execInput },
  });
  mirror("post", "/v1/boxes/:boxId/jobs", {
    summary: "Start a background job",
    op: ops.startJob,
    input: (req) => ({ ...box(req), ...keyed(req) }),
    status: 201,
    declare: { body: startJobInput, ...idempotency },
  });
  mirror("get", "/v1/boxes/:boxId/jobs", {
    summary: "List a box's jobs, newest first (limit)",
    op: ops.listJobs,
    input: (req) => ({ ...numbers(req.query, ["limit"]), boxId: req.params.boxId }),
    declare: { params: boxRefInput, query: listJobsQuery, response: listJobsResult },
  });
  mirror("get", "/v1/boxes/:boxId/folder", {
    summary: "List a folder of a box (path=…, default /data/home)",
    op: ops.listFolder,
    input: (req) => ({ ...strings(req.query, ["path"]), boxId: req.params.boxId }),
    declare: { params: boxRefInput, query: listFolderQuery, response: listFolderResult },
  });
  mirror("get", "/v1/boxes/:boxId/jobs/:jobId/logs", {
    summary: "Read a job's logs (offset, tail)",
    op: ops.jobLogs,
    input: (req) => ({ ...numbers(req.query, ["offset", "tail"]), boxId: req.params.boxId, jobId: req.params.jobId }),
  });
  mirror("post", "/v1/boxes/:boxId/jobs/:jobId/wait", {
    summary: "Wait for a job to end",
    op: ops.jobWait,
    input: (req) => ({ ...box(req), jobId: req.params.jobId }),
    declare: { body: jobWaitInput },
  });
  mirror("get", "/v1/boxes/:boxId/files", {
    summary: "Read a file of a box (path=…)",
    op: ops.readFile,
    input: (req) => ({ path: req.query.path, boxId: req.params.boxId }),
  });
  mirror("put", "/v1/boxes/:boxId/files", {
    summary: "Write a file into a box",
    op: ops.writeFile,
    input: box,
    declare: { body: writeFileInput },
  });
  mirror("post", "/v1/boxes/:boxId/upload-url", {
    summary: "A signed upload URL for a path in a box",
    op: ops.uploadUrl,
    input: box,
    declare: { body: uploadUrlInput },
  });
  mirror("post", "/v1/boxes/:boxId/download-url", {
    summary: "A signed download URL for a path in a box",
    op: ops.downloadUrl,
    input: box,
    declare: { body: downloadUrlInput },
  });
  mirror("post", "/v1/boxes/:boxId/fork", {
    summary: "Fork a box",
    op: ops.fork,
    input: (req) => ({ ...box(req), ...keyed(req) }),
    status: 201,
    declare: { body: forkBoxInput, ...idempotency },
  });
  mirror("post", "/v1/boxes/:boxId/snapshots", {
    summary: "Save a snapshot of a box's disk",
    op: ops.saveSnapshot,
    input: box,
    status: 201,
    declare: { body: saveSnapshotInput },
  });
  mirror("post", "/v1/boxes/:boxId/ports", {
    summary: "Publish a port of a box",
    op: ops.publishPort,
    input: box,
    status: 201,
    declare: { body: publishPortInput },
  });
  mirror("get", "/v1/boxes/:boxId/ports", {
    summary: "List a box's published ports",
    op: ops.listPorts,
    input: (req) => ({ boxId: req.params.boxId }),
    declare: { params: boxRefInput, response: listPortsResult },
  });
  mirror("delete", "/v1/boxes/:boxId/ports/:port", {
    summary: "Unpublish a port",
    op: ops.unpublishPort,
    input: (req) => ({ boxId: req.params.boxId, port: Number(req.params.port) }),
  });
  mirror("get", "/v1/usage", {
    summary: "The account's box usage (period=…)",
    op: ops.usage,
    input: (req) => strings(req.query, ["period"]),
    declare: { query: getUsageInput, response: usageResult },
  });
  mirror("delete", "/v1/snapshots/:snapshotId", {
    summary: "Delete a snapshot (its files; its storage stops being billed)",
    op: ops.deleteSnapshot,
    input: (req) => ({ snapshotId: req.params.snapshotId }),
    declare: { params: snapshotIdParams },
  });
  mirror("get", "/v1/snapshots", {
    summary: "List snapshots",
    op: ops.listSnapshots,
    input: (req) => ({ ...numbers(req.query, ["limit"]), ...strings(req.query, ["boxId", "cursor"]) }),
    declare: { query: listSnapshotsInput, response: listSnapshotsResult },
  });

  return router;
}

function body(req: Request): Record<string, unknown> {
  return req.body && typeof req.body === "object" && !Array.isArray(req.body) ? (req.body as Record<string, unknown>) : {};
}

/** `?state=running&state=stopped` (or comma-separated), `?metadata.kind=render`, numbers and booleans from text. */
function listQuery(query: Request["query"]): Record<string, unknown> {
  const out: Record<string, unknown> = { ...numbers(query, ["limit"]), ...flags(query, ["includeDeleted"]) };
  if (typeof query.cursor === "string") out.cursor = query.cursor;
  const states = ([] as unknown[]).concat(query.state ?? []).flatMap((value) => String(value).split(","));
  if (states.length > 0) out.state = states;
  const metadata = Object.entries(query).filter(([key]) => key.startsWith("metadata."));
  if (metadata.length > 0)
    out.metadata = Object.fromEntries(metadata.map(([key, value]) => [key.slice("metadata.".length), String(value)]));
  return out;
}

function numbers(query: Request["query"], names: string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const name of names) if (typeof query[name] === "string") out[name] = Number(query[name]);
  return out;
}

function strings(query: Request["query"], names: string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const name of names) if (typeof query[name] === "string") out[name] = query[name];
  return out;
}

function flags(query: Request["query"], names: string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const name of names) if (query[name] === "true" || query[name] === "false") out[name] = query[name] === "true";
  return out;
}
