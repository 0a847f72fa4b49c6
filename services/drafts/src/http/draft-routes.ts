/** REST: the same use cases, schemas and access as the MCP tools, under /v1/workspaces/{workspace_id}/drafts. */
import { Router, type Request } from "express";
import { restRoutes } from "@bancada/service-kit";
import { createDraft } from "../domain/create-draft.js";
import type { DraftsDeps } from "../domain/context.js";
import { getDraft } from "../domain/get-draft.js";
import { listDrafts } from "../domain/list-drafts.js";
import {
  createDraftInput,
  draftResult,
  getDraftInput,
  listDraftsInput,
  listDraftsResult,
  submitDraftInput,
  updateDraftInput,
} from "../domain/schemas.js";
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
  const routes = restRoutes(router);
  const base = "/v1/workspaces/:workspaceId/drafts";
  const idempotency = { "Idempotency-Key": "a retry with the same key answers the first result" };
  const revisionHeaders = { ...idempotency, "If-Match": 'the revision you read, as "<revision>" (or expected_revision in the body)' };
  const pathIds = ["workspace_id", "draft_id"];
  const tools = {
    list: listContentDraftsTool(deps),
    get: getContentDraftTool(deps),
    create: createContentDraftTool(deps),
    update: updateContentDraftTool(deps),
    submit: submitContentDraftTool(deps),
  };

  routes.get(
    base,
    { summary: "List a workspace's drafts (limit, cursor_updated_at, cursor_id)", access: tools.list, response: listDraftsResult },
    async (req, res) => {
      const ctx = restContext(deps, req, tools.list);
      res.json(await listDrafts(ctx, listDraftsInput.parse(listQuery(req))));
    },
  );
  routes.post(
    base,
    {
      summary: "Create a draft",
      access: tools.create,
      body: createDraftInput,
      notInBody: ["workspace_id"],
      headers: idempotency,
      status: 201,
      response: draftResult,
    },
    async (req, res) => {
      const ctx = restContext(deps, req, tools.create);
      const input = body(req);
      const draft = await createDraft(
        ctx,
        createDraftInput.parse({ ...input, workspace_id: req.params.workspaceId, request_id: requestIdOf(req, input.request_id) }),
      );
      res.status(201).setHeader("ETag", `"${draft.revision}"`).json({ draft });
    },
  );
  routes.get(
    `${base}/:draftId`,
    { summary: "Read one draft (ETag: its revision)", access: tools.get, response: draftResult },
    async (req, res) => {
      const ctx = restContext(deps, req, tools.get);
      const draft = await getDraft(ctx, getDraftInput.parse({ workspace_id: req.params.workspaceId, draft_id: req.params.draftId }));
      res.setHeader("ETag", `"${draft.revision}"`).json({ draft });
    },
  );
  routes.patch(
    `${base}/:draftId`,
    {
      summary: "Update a draft (expected_revision or If-Match)",
      access: tools.update,
      body: updateDraftInput,
      notInBody: pathIds,
      headers: revisionHeaders,
      response: draftResult,
    },
    async (req, res) => {
      const ctx = restContext(deps, req, tools.update);
      const draft = await updateDraft(ctx, updateDraftInput.parse(revisioned(req)));
      res.setHeader("ETag", `"${draft.revision}"`).json({ draft });
    },
  );
  routes.post(
    `${base}/:draftId/submit`,
    {
      summary: "Submit a draft for review",
      access: tools.submit,
      body: submitDraftInput,
      notInBody: pathIds,
      headers: revisionHeaders,
      status: 202,
      response: draftResult,
    },
    async (req, res) => {
      const ctx = restContext(deps, req, tools.submit);
      const draft = await submitDraft(ctx, submitDraftInput.parse(revisioned(req)));
      res.status(202).setHeader("ETag", `"${draft.revision}"`).json({ draft });
    },
  );
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
