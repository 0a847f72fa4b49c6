/**
 * The REST API (`/v1/boxes…`): the same use cases, zod schemas and access as the MCP tools, so the two never
 * diverge; every route runs one tool's use case and is authorized by that tool's declaration. A request whose
 * client goes away cancels the wait the same way a cancelled tool call does.
 */
import { Router, type Request, type Response } from "express";
import { restRoutes } from "@bancada/service-kit";
import { restAccess, type ToolAccess } from "@bancada/contracts";
import type { BoxesContext, BoxesRuntime } from "../domain/context.js";
import { createBox } from "../domain/create-box.js";
import { deleteBox } from "../domain/delete-box.js";
import { execCommand } from "../domain/exec.js";
import { forkBox } from "../domain/fork-box.js";
import { listSnapshots } from "../domain/list-snapshots.js";
import { deleteSnapshot } from "../domain/delete-snapshot.js";
import { saveSnapshot } from "../domain/save-snapshot.js";
import { forkBoxInput, listSnapshotsInput, saveSnapshotInput, snapshotIdParams } from "../domain/schemas/disk.js";
import { forkBoxTool } from "../tools/fork-box.js";
import { listSnapshotsTool } from "../tools/list-snapshots.js";
import { saveSnapshotTool } from "../tools/save-snapshot.js";
import { readBoxFile, writeBoxFile } from "../domain/files.js";
import { getBox } from "../domain/get-box.js";
import { jobLogs } from "../domain/job-logs.js";
import { jobWait } from "../domain/job-wait.js";
import { listBoxes } from "../domain/list-boxes.js";
import { resumeBox, suspendBox } from "../domain/power.js";
import { startJob } from "../domain/start-job.js";
import { getUsage } from "../domain/usage/get-usage.js";
import { getUsageInput } from "../domain/usage/schemas.js";
import { boxRefInput, createBoxInput, deleteBoxInput, listBoxesInput, powerInput } from "../domain/schemas/box.js";
import { execInput, jobLogsInput, jobWaitInput, readFileInput, startJobInput, writeFileInput } from "../domain/schemas/exec.js";
import { createBoxTool } from "../tools/create-box.js";
import { deleteBoxTool } from "../tools/delete-box.js";
import { execTool } from "../tools/exec.js";
import { getBoxTool } from "../tools/get-box.js";
import { getUsageTool } from "../tools/get-usage.js";
import { jobLogsTool } from "../tools/job-logs.js";
import { jobWaitTool } from "../tools/job-wait.js";
import { listBoxesTool } from "../tools/list-boxes.js";
import { readFileTool } from "../tools/read-file.js";
import { resumeBoxTool } from "../tools/resume-box.js";
import { startJobTool } from "../tools/start-job.js";
import { requestContext } from "./request-context.js";
import { transferRoutes } from "./transfer-routes.js";
import { portRoutes } from "./port-routes.js";
import { sshKeyRoutes } from "./ssh-key-routes.js";
import { suspendBoxTool } from "../tools/suspend-box.js";
import { writeFileTool } from "../tools/write-file.js";
import { secretsRoutes } from "./secrets-routes.js";

const snapshotWrites = restAccess({ scope: "boxes:write", writes: true });

export function boxesRoutes(rt: BoxesRuntime): Router {
  const router = Router();
  const routes = restRoutes(router);
  router.use(transferRoutes(rt));
  router.use(portRoutes(rt));
  router.use(sshKeyRoutes(rt));
  const context = (req: Request, tool: ToolAccess): BoxesContext => requestContext(rt, req, tool);
  const idempotency = { "Idempotency-Key": "a retry with the same key answers the first result" };
  const tools = {
    list: listBoxesTool(rt),
    get: getBoxTool(rt),
    create: createBoxTool(rt),
    remove: deleteBoxTool(rt),
    suspend: suspendBoxTool(rt),
    resume: resumeBoxTool(rt),
    exec: execTool(rt),
    startJob: startJobTool(rt),
    jobLogs: jobLogsTool(rt),
    jobWait: jobWaitTool(rt),
    readFile: readFileTool(rt),
    writeFile: writeFileTool(rt),
    usage: getUsageTool(rt),
    fork: forkBoxTool(rt),
    saveSnapshot: saveSnapshotTool(rt),
    listSnapshots: listSnapshotsTool(rt),
  };

  routes.get("/v1/boxes", { summary: "List boxes (state=…, metadata.<key>=…)", access: tools.list }, async (req, res) => {
    const ctx = context(req, tools.list);
    res.json(await listBoxes(ctx, listBoxesInput.parse(listQuery(req.query))));
  });

  routes.post(
    "/v1/boxes",
    {
      summary: "Create a box",
      access: tools.create,
      body: createBoxInput,
      notInBody: ["idempotencyKey"],
      headers: idempotency,
      status: 201,
    },
    async (req, res) => {
      const ctx = context(req, tools.create);
      const key = req.header("Idempotency-Key");
      const input = createBoxInput.parse({ ...body(req), ...(key ? { idempotencyKey: key } : {}) });
      res.status(201).json({ box: await createBox(ctx, input, cancelledWith(res)) });
    },
  );

  routes.get("/v1/boxes/:boxId", { summary: "Read one box", access: tools.get, params: boxRefInput }, async (req, res) => {
    const ctx = context(req, tools.get);
    res.json({ box: await getBox(ctx, boxRefInput.parse({ boxId: req.params.boxId }).boxId) });
  });

  routes.delete(
    "/v1/boxes/:boxId",
    { summary: "Delete a box (confirm=true)", access: tools.remove, body: deleteBoxInput },
    async (req, res) => {
      const ctx = context(req, tools.remove);
      const input = deleteBoxInput.parse({ ...flags(req.query, ["confirm", "wait"]), ...body(req), boxId: req.params.boxId });
      res.json({ box: await deleteBox(ctx, input, cancelledWith(res)) });
    },
  );

  for (const [action, use, tool] of [
    ["suspend", suspendBox, tools.suspend],
    ["resume", resumeBox, tools.resume],
  ] as const) {
    routes.post(
      `/v1/boxes/:boxId/${action}`,
      { summary: `${action === "suspend" ? "Suspend" : "Resume"} a box`, access: tool, body: powerInput },
      async (req, res) => {
        const ctx = context(req, tool);
        res.json({ box: await use(ctx, powerInput.parse({ ...body(req), boxId: req.params.boxId }), cancelledWith(res)) });
      },
    );
  }

  routes.post(
    "/v1/boxes/:boxId/exec",
    { summary: "Run a command in a box and wait for it", access: tools.exec, body: execInput },
    async (req, res) => {
      const ctx = context(req, tools.exec);
      res.json(await execCommand(ctx, execInput.parse({ ...body(req), boxId: req.params.boxId }), cancelledWith(res)));
    },
  );

  routes.post(
    "/v1/boxes/:boxId/jobs",
    {
      summary: "Start a background job",
      access: tools.startJob,
      body: startJobInput,
      notInBody: ["idempotencyKey"],
      headers: idempotency,
      status: 201,
    },
    async (req, res) => {
      const ctx = context(req, tools.startJob);
      const key = req.header("Idempotency-Key");
      const input = startJobInput.parse({ ...body(req), boxId: req.params.boxId, ...(key ? { idempotencyKey: key } : {}) });
      res.status(201).json({ job: await startJob(ctx, input) });
    },
  );

  routes.get(
    "/v1/boxes/:boxId/jobs/:jobId/logs",
    { summary: "Read a job's logs (offset, tail)", access: tools.jobLogs },
    async (req, res) => {
      const ctx = context(req, tools.jobLogs);
      const input = jobLogsInput.parse({ ...numbers(req.query, ["offset", "tail"]), boxId: req.params.boxId, jobId: req.params.jobId });
      res.json(await jobLogs(ctx, input));
    },
  );

  routes.post(
    "/v1/boxes/:boxId/jobs/:jobId/wait",
    { summary: "Wait for a job to end", access: tools.jobWait, body: jobWaitInput },
    async (req, res) => {
      const ctx = context(req, tools.jobWait);
      const input = jobWaitInput.parse({ ...body(req), boxId: req.params.boxId, jobId: req.params.jobId });
      res.json({ job: await jobWait(ctx, input, cancelledWith(res)) });
    },
  );

  routes.get("/v1/boxes/:boxId/files", { summary: "Read a file of a box (path=…)", access: tools.readFile }, async (req, res) => {
    const ctx = context(req, tools.readFile);
    res.json(await readBoxFile(ctx, readFileInput.parse({ path: req.query.path, boxId: req.params.boxId })));
  });

  routes.put(
    "/v1/boxes/:boxId/files",
    { summary: "Write a file into a box", access: tools.writeFile, body: writeFileInput },
    async (req, res) => {
      const ctx = context(req, tools.writeFile);
      res.json(await writeBoxFile(ctx, writeFileInput.parse({ ...body(req), boxId: req.params.boxId })));
    },
  );

  router.use(secretsRoutes(rt));

  routes.get(
    "/v1/usage",
    { summary: "The account's box usage (period=…)", access: tools.usage, query: getUsageInput },
    async (req, res) => {
      const ctx = context(req, tools.usage);
      res.json(await getUsage(ctx, getUsageInput.parse(typeof req.query.period === "string" ? { period: req.query.period } : {})));
    },
  );

  routes.post(
    "/v1/boxes/:boxId/fork",
    { summary: "Fork a box", access: tools.fork, body: forkBoxInput, notInBody: ["idempotencyKey"], headers: idempotency, status: 201 },
    async (req, res) => {
      const ctx = context(req, tools.fork);
      const key = req.header("Idempotency-Key");
      const input = forkBoxInput.parse({ ...body(req), boxId: req.params.boxId, ...(key ? { idempotencyKey: key } : {}) });
      res.status(201).json(await forkBox(ctx, input, cancelledWith(res)));
    },
  );

  routes.post(
    "/v1/boxes/:boxId/snapshots",
    { summary: "Save a snapshot of a box's disk", access: tools.saveSnapshot, body: saveSnapshotInput, status: 201 },
    async (req, res) => {
      const ctx = context(req, tools.saveSnapshot);
      const input = saveSnapshotInput.parse({ ...body(req), boxId: req.params.boxId });
      res.status(201).json({ snapshot: await saveSnapshot(ctx, input, cancelledWith(res)) });
    },
  );

  // No tool deletes a snapshot: the route declares its own access (docs/boxes.md#snapshots).
  routes.delete(
    "/v1/snapshots/:snapshotId",
    { summary: "Delete a snapshot (its files; its storage stops being billed)", access: snapshotWrites, params: snapshotIdParams },
    async (req, res) => {
      const ctx = requestContext(rt, req, snapshotWrites);
      res.json({ snapshot: await deleteSnapshot(ctx, snapshotIdParams.parse(req.params).snapshotId) });
    },
  );

  routes.get("/v1/snapshots", { summary: "List snapshots", access: tools.listSnapshots, query: listSnapshotsInput }, async (req, res) => {
    const ctx = context(req, tools.listSnapshots);
    const query = { ...numbers(req.query, ["limit"]), ...strings(req.query, ["boxId", "cursor"]) };
    res.json(await listSnapshots(ctx, listSnapshotsInput.parse(query)));
  });

  return router;
}

function body(req: Request): Record<string, unknown> {
  return req.body && typeof req.body === "object" && !Array.isArray(req.body) ? (req.body as Record<string, unknown>) : {};
}

/** Aborted when the client goes away before the answer is sent. */
function cancelledWith(res: Response): AbortSignal {
  const controller = new AbortController();
  res.on("close", () => {
    if (!res.writableFinished) controller.abort();
  });
  return controller.signal;
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
