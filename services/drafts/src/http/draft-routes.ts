/** REST: the same use cases, schemas and access as the MCP tools, under /v1/workspaces/{workspace_id}/drafts. */
import { Router, type Request } from "express";
import { createDraft } from "../domain/create-draft.js";
import type { DraftsDeps } from "../domain/context.js";
import { getDraft } from "../domain/get-draft.js";
import { listDrafts } from "../domain/list-drafts.js";
import { createDraftInput, getDraftInput, listDraftsInput, submitDraftInput, updateDraftInput } from "../domain/schemas.js";
import { submitDraft } from "../domain/submit-draft.js";
import { updateDraft } from "../domain/update-draft.js";
import { createContentDraftTool } from "../tools/create-content-draft.js";
import { getContentDraftTool } from "../tools/get-content-draft.js";
import { listContentDraftsTool } from "../tools/list-content-drafts.js";
import { submitContentDraftTool } from "../tools/submit-content-draft.js";
import { updateContentDraftTool } from "../tools/update-content-draft.js";
import { body, ifMatch, requestIdOf, restContext } from "./context.js";

export function draftRoutes(deps: DraftsDeps): Router {
  const router = Router();
  const base = "/v1/workspaces/:workspaceId/drafts";
  const tools = {
    list: listContentDraftsTool(deps),
    get: getContentDraftTool(deps),
    create: createContentDraftTool(deps),
    update: updateContentDraftTool(deps),
    submit: submitContentDraftTool(deps),
  };

  router.get(base, async (req, res) => {
    const ctx = restContext(deps, req, tools.list);
    res.json(await listDrafts(ctx, listDraftsInput.parse(listQuery(req))));
  });
  router.post(base, async (req, res) => {
    const ctx = restContext(deps, req, tools.create);
    const input = body(req);
    const draft = await createDraft(
      ctx,
      createDraftInput.parse({ ...input, workspace_id: req.params.workspaceId, request_id: requestIdOf(req, input.request_id) }),
    );
    res.status(201).setHeader("ETag", `"${draft.revision}"`).json({ draft });
  });
  router.get(`${base}/:draftId`, async (req, res) => {
    const ctx = restContext(deps, req, tools.get);
    const draft = await getDraft(ctx, getDraftInput.parse({ workspace_id: req.params.workspaceId, draft_id: req.params.draftId }));
    res.setHeader("ETag", `"${draft.revision}"`).json({ draft });
  });
  router.patch(`${base}/:draftId`, async (req, res) => {
    const ctx = restContext(deps, req, tools.update);
    const draft = await updateDraft(ctx, updateDraftInput.parse(revisioned(req)));
    res.setHeader("ETag", `"${draft.revision}"`).json({ draft });
  });
  router.post(`${base}/:draftId/submit`, async (req, res) => {
    const ctx = restContext(deps, req, tools.submit);
    const draft = await submitDraft(ctx, submitDraftInput.parse(revisioned(req)));
    res.status(202).setHeader("ETag", `"${draft.revision}"`).json({ draft });
  });
  return router;
}

/** Path ids, If-Match (else the body's expected_revision) and Idempotency-Key (else the body's request_id). */
function revisioned(req: Request): Record<string, unknown> {
  const input = body(req);
  return {
    ...input,
    workspace_id: req.params.workspaceId,
    draft_id: req.params.draftId,
    expected_revision: ifMatch(req) ?? input.expected_revision,
    request_id: requestIdOf(req, input.request_id),
  };
}

/** `?limit=20&cursor_updated_at=…&cursor_id=…` (the two cursor fields come from next_cursor). */
function listQuery(req: Request): Record<string, unknown> {
  const { limit, cursor_updated_at, cursor_id, ...rest } = req.query as Record<string, unknown>;
  return {
    ...rest,
    workspace_id: req.params.workspaceId,
    ...(typeof limit === "string" ? { limit: Number(limit) } : {}),
    ...(cursor_updated_at !== undefined || cursor_id !== undefined ? { cursor: { updated_at: cursor_updated_at, id: cursor_id } } : {}),
  };
}
