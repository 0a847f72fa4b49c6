/** REST: workspaces and their members (roles are managed here; the MCP tools work inside a workspace). */
import { Router } from "express";
import type { DraftsDeps } from "../domain/context.js";
import { listMembers, removeMember, setMember } from "../domain/members.js";
import { createWorkspaceInput, memberRef, renameWorkspaceInput, setMemberInput, workspaceRef } from "../domain/workspace-inputs.js";
import { createWorkspace, getWorkspace, listWorkspaces, renameWorkspace } from "../domain/workspaces.js";
import { body, requestIdOf, restContext, routeReads, routeWrites } from "./context.js";

export function workspaceRoutes(deps: DraftsDeps): Router {
  const router = Router();
  const read = (req: Parameters<typeof restContext>[1]) => restContext(deps, req, routeReads);
  const write = (req: Parameters<typeof restContext>[1]) => restContext(deps, req, routeWrites);

  router.get("/v1/workspaces", async (req, res) => {
    res.json(await listWorkspaces(read(req)));
  });
  router.post("/v1/workspaces", async (req, res) => {
    const ctx = write(req);
    const input = body(req);
    const requestId = requestIdOf(req, input.request_id);
    const { workspace, created } = await createWorkspace(
      ctx,
      createWorkspaceInput.parse({ ...input, ...(requestId ? { request_id: requestId } : {}) }),
    );
    res.status(created ? 201 : 200).json({ workspace });
  });
  router.get("/v1/workspaces/:workspaceId", async (req, res) => {
    const ctx = read(req);
    res.json(await getWorkspace(ctx, workspaceRef.parse({ workspace_id: req.params.workspaceId }).workspace_id));
  });
  router.patch("/v1/workspaces/:workspaceId", async (req, res) => {
    const ctx = write(req);
    res.json(await renameWorkspace(ctx, renameWorkspaceInput.parse({ ...body(req), workspace_id: req.params.workspaceId })));
  });

  router.get("/v1/workspaces/:workspaceId/members", async (req, res) => {
    const ctx = read(req);
    res.json(await listMembers(ctx, workspaceRef.parse({ workspace_id: req.params.workspaceId }).workspace_id));
  });
  router.put("/v1/workspaces/:workspaceId/members/:personId", async (req, res) => {
    const ctx = write(req);
    const input = setMemberInput.parse({ ...body(req), workspace_id: req.params.workspaceId, person_id: req.params.personId });
    const { member, created } = await setMember(ctx, input);
    res.status(created ? 201 : 200).json({ member });
  });
  router.delete("/v1/workspaces/:workspaceId/members/:personId", async (req, res) => {
    const ctx = write(req);
    await removeMember(ctx, memberRef.parse({ workspace_id: req.params.workspaceId, person_id: req.params.personId }));
    res.status(204).end();
  });
  return router;
}
