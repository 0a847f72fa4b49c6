/** REST: the same use cases and schemas as the MCP tools, under /v1/workspaces/{workspace_id}/drafts. */
import { Router, type Request } from "express";
import { createDraft } from "../domain/create-draft.js";
import type { DraftsDeps } from "../domain/context.js";
import { getDraft } from "../domain/get-draft.js";
import { listDrafts } from "../domain/list-drafts.js";
import { createDraftInput, getDraftInput, listDraftsInput, submitDraftInput, updateDraftInput } from "../domain/schemas.js";
import { submitDraft } from "../domain/submit-draft.js";
import { updateDraft } from "../domain/update-draft.js";
import { body, ifMatch, requestIdOf, restContext } from "./context.js";

export function draftRoutes(deps: DraftsDeps): Router {
  const router = Router();
  const base = "/v1/workspaces/:workspaceId/drafts";

  router.get(base, async (req, res) => {
    const ctx = restContext(deps, req, false);
    res.json(await listDrafts(ctx, listDraftsInput.parse(listQuery(req))));
  });
  router.post(base, async (req, res) => {
    const ctx = restContext(deps, req, true);
    const input = body(req);
    const draft = await createDraft(ctx, createDraftInput.parse({ ...input, workspace_id: req.params.workspaceId, request_id: requestIdOf(req, input.request_id) }));
    res.status(201).setHeader("ETag", `"${draft.revision}"`).json({ draft });
  });
  router.get(`${base}/:draftId`, async (req, res) => {
    const ctx = restContext(deps, req, false);
    const draft = await getDraft(ctx, getDraftInput.parse({ workspace_id: req.params.workspaceId, draft_id: req.params.draftId }));
    res.setHeader("ETag", `"${draft.revision}"`).json({ draft });
  });
  router.patch(`${base}/:draftId`, async (req, res) => {
    const ctx = restContext(deps, req, true);
    const draft = await updateDraft(ctx, updateDraftInput.parse(revisioned(req)));
    res.setHeader("ETag", `"${draft.revision}"`).json({ draft });
  });
  router.post(`${base}/:draftId/submit`, async (req, res) => {
    const ctx = restContext(deps, req, true);
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
