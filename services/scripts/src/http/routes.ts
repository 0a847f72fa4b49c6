/** The REST API (`/v1`): the same use cases and schemas as the MCP tools, so the two never diverge. */
import { Router, type Request } from "express";
import { invalidArgument } from "@bancada/contracts";
import { principalOf, requireScope } from "@bancada/service-kit";
import type { ScriptsDb } from "../db/client.js";
import type { ScriptsContext } from "../domain/context.js";
import { createScript } from "../domain/create-script.js";
import { getScript } from "../domain/get-script.js";
import { listChanges } from "../domain/list-changes.js";
import { listScripts } from "../domain/list-scripts.js";
import { createScriptInput, getScriptInput, listChangesInput, listScriptsInput, revisionedRef, updateScriptInput } from "../domain/schemas.js";
import { restoreScript, trashScript, updateScript } from "../domain/update-script.js";

export function scriptsRoutes(db: ScriptsDb): Router {
  const router = Router();
  const context = (req: Request, write = false): ScriptsContext => {
    const principal = principalOf(req);
    requireScope(principal, write ? "scripts:write" : "scripts:read", write);
    return { db, accountId: principal.accountId, personId: principal.personId };
  };

  router.get("/v1/scripts", async (req, res) => {
    const ctx = context(req);
    res.json(await listScripts(ctx, listScriptsInput.parse(listQuery(req.query))));
  });

  router.get("/v1/scripts/:id", async (req, res) => {
    const ctx = context(req);
    const script = await getScript(ctx, getScriptInput.parse({ id: req.params.id }).id);
    res.setHeader("ETag", `"${script.revision}"`).json({ script });
  });

  router.post("/v1/scripts", async (req, res) => {
    const ctx = context(req, true);
    const key = req.header("Idempotency-Key");
    const input = createScriptInput.parse({ ...req.body, ...(key ? { idempotencyKey: key } : {}) });
    const script = await createScript(ctx, input);
    res.status(201).setHeader("ETag", `"${script.revision}"`).json({ script });
  });

  router.put("/v1/scripts/:id", async (req, res) => {
    const ctx = context(req, true);
    const input = updateScriptInput.parse({ ...req.body, id: req.params.id, revision: ifMatch(req) });
    const script = await updateScript(ctx, input);
    res.setHeader("ETag", `"${script.revision}"`).json({ script });
  });

  for (const [action, use] of [["trash", trashScript], ["restore", restoreScript]] as const) {
    router.post(`/v1/scripts/:id/${action}`, async (req, res) => {
      const ctx = context(req, true);
      const revision = req.header("If-Match") ? ifMatch(req) : (req.body as { revision?: unknown } | undefined)?.revision;
      const script = await use(ctx, revisionedRef.parse({ id: req.params.id, revision }));
      res.setHeader("ETag", `"${script.revision}"`).json({ script });
    });
  }

  router.get("/v1/changes", async (req, res) => {
    const ctx = context(req);
    const input = listChangesInput.parse(req.query);
    res.json(await listChanges(ctx, input.after, input.limit));
  });

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
