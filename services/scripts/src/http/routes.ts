/**
 * The REST API (`/v1`): the same use cases, schemas and access as the MCP tools, so the two never diverge.
 * A route that runs a tool's use case is authorized by that tool's declaration; only the change feed, which
 * no tool serves, declares its own access.
 */
import { Router, type Request } from "express";
import { invalidArgument, restAccess, type Access } from "@bancada/contracts";
import { authorizedPrincipal, restRoutes } from "@bancada/service-kit";
import type { Scripts, ScriptsContext } from "../domain/context.js";
import { createScript } from "../domain/create-script.js";
import { getScript } from "../domain/get-script.js";
import { listChanges } from "../domain/list-changes.js";
import { listScripts } from "../domain/list-scripts.js";
import {
  createScriptInput,
  getScriptInput,
  listChangesInput,
  listScriptsInput,
  revisionedRef,
  updateScriptInput,
} from "../domain/schemas.js";
import { restoreScript, trashScript, updateScript } from "../domain/update-script.js";
import { createScriptTool } from "../tools/create-script.js";
import { getScriptTool } from "../tools/get-script.js";
import { listScriptsTool } from "../tools/list-scripts.js";
import { restoreScriptTool } from "../tools/restore-script.js";
import { trashScriptTool } from "../tools/trash-script.js";
import { updateScriptTool } from "../tools/update-script.js";

const readingChanges = restAccess({ scope: "scripts:read", writes: false });

export function scriptsRoutes(scripts: Scripts): Router {
  const { db, changed } = scripts;
  const router = Router();
  const routes = restRoutes(router);
  const context = (req: Request, access: Access): ScriptsContext => {
    const principal = authorizedPrincipal(req, access);
    return { db, accountId: principal.accountId, personId: principal.personId, changed };
  };
  const tools = {
    list: listScriptsTool(scripts),
    get: getScriptTool(scripts),
    create: createScriptTool(scripts),
    update: updateScriptTool(scripts),
    trash: trashScriptTool(scripts),
    restore: restoreScriptTool(scripts),
  };

  routes.get(
    "/v1/scripts",
    { summary: "List scripts (search, filter, page)", access: tools.list, query: listScriptsInput },
    async (req, res) => {
      const ctx = context(req, tools.list);
      res.json(await listScripts(ctx, listScriptsInput.parse(listQuery(req.query))));
    },
  );

  routes.get(
    "/v1/scripts/:id",
    { summary: "Read one script (ETag: its revision)", access: tools.get, params: getScriptInput },
    async (req, res) => {
      const ctx = context(req, tools.get);
      const script = await getScript(ctx, getScriptInput.parse({ id: req.params.id }).id);
      res.setHeader("ETag", `"${script.revision}"`).json({ script });
    },
  );

  const idempotency = { "Idempotency-Key": "a retry with the same key answers the first result" };
  const match = { "If-Match": "the revision you read" };
  routes.post(
    "/v1/scripts",
    {
      summary: "Create a script",
      access: tools.create,
      body: createScriptInput,
      notInBody: ["idempotencyKey"],
      headers: idempotency,
      status: 201,
    },
    async (req, res) => {
      const ctx = context(req, tools.create);
      const key = req.header("Idempotency-Key");
      const input = createScriptInput.parse({ ...req.body, ...(key ? { idempotencyKey: key } : {}) });
      const script = await createScript(ctx, input);
      res.status(201).setHeader("ETag", `"${script.revision}"`).json({ script });
    },
  );

  routes.put(
    "/v1/scripts/:id",
    {
      summary: "Replace a script's fields (revision-checked)",
      access: tools.update,
      body: updateScriptInput,
      notInBody: ["revision"],
      headers: match,
    },
    async (req, res) => {
      const ctx = context(req, tools.update);
      const input = updateScriptInput.parse({ ...req.body, id: req.params.id, revision: ifMatch(req) });
      const script = await updateScript(ctx, input);
      res.setHeader("ETag", `"${script.revision}"`).json({ script });
    },
  );

  for (const [action, use, tool] of [
    ["trash", trashScript, tools.trash],
    ["restore", restoreScript, tools.restore],
  ] as const) {
    const summary = `${action === "trash" ? "Trash" : "Restore"} a script (revision in If-Match or the body)`;
    routes.post(`/v1/scripts/:id/${action}`, { summary, access: tool, body: revisionedRef, headers: match }, async (req, res) => {
      const ctx = context(req, tool);
      const revision = req.header("If-Match") ? ifMatch(req) : (req.body as { revision?: unknown } | undefined)?.revision;
      const script = await use(ctx, revisionedRef.parse({ id: req.params.id, revision }));
      res.setHeader("ETag", `"${script.revision}"`).json({ script });
    });
  }

  routes.get(
    "/v1/changes",
    { summary: "The change feed after a cursor", access: readingChanges, query: listChangesInput },
    async (req, res) => {
      const ctx = context(req, readingChanges);
      const input = listChangesInput.parse(req.query);
      res.json(await listChanges(ctx, input.after, input.limit));
    },
  );

  return router;
}

function listQuery(query: Request["query"]): Record<string, unknown> {
  const out: Record<string, unknown> = { ...query };
  for (const key of ["limit", "offset"]) if (typeof out[key] === "string") out[key] = Number(out[key]);
  if (out.trashed === "true" || out.trashed === "false") out.trashed = out.trashed === "true";
  return out;
}

function ifMatch(req: Request): number {
  const raw = req.header("If-Match")?.replace(/^W\//, "").replaceAll('"', "").trim();
  const revision = Number(raw);
  if (!raw || !Number.isInteger(revision) || revision < 1) {
    throw invalidArgument([{ path: "If-Match", message: "send the revision you read as 'If-Match: <revision>'" }]);
  }
  return revision;
}
