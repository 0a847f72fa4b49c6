/** REST: workspaces and their members (roles are managed here; the MCP tools work inside a workspace). */
import { Router } from "express";
import { restRoutes } from "@bancada/service-kit";
import type { DraftsDeps } from "../domain/context.js";
import { listMembers, removeMember, setMember } from "../domain/members.js";
import {
  createWorkspaceInput,
  memberRef,
  renameWorkspaceInput,
  setMemberInput,
  workspaceAnswers,
  workspaceRef,
} from "../domain/workspace-inputs.js";
import { createWorkspace, getWorkspace, listWorkspaces, renameWorkspace } from "../domain/workspaces.js";
import { body, requestIdOf, restContext, routeReads, routeWrites } from "./context.js";

export function workspaceRoutes(deps: DraftsDeps): Router {
  const router = Router();
  const routes = restRoutes(router);
  const read = (req: Parameters<typeof restContext>[1]) => restContext(deps, req, routeReads);
  const idempotency = { "Idempotency-Key": "a retry with the same key answers the first result" };
  const write = (req: Parameters<typeof restContext>[1]) => restContext(deps, req, routeWrites);

  routes.get(
    "/v1/workspaces",
    { summary: "List the workspaces the person belongs to", access: routeReads, response: workspaceAnswers.workspaces },
    async (req, res) => {
      res.json(await listWorkspaces(read(req)));
    },
  );
  routes.post(
    "/v1/workspaces",
    {
      summary: "Create a workspace (201; 200 when Idempotency-Key repeats)",
      access: routeWrites,
      body: createWorkspaceInput,
      headers: idempotency,
      status: 201,
      response: workspaceAnswers.workspace,
    },
    async (req, res) => {
      const ctx = write(req);
      const input = body(req);
      const requestId = requestIdOf(req, input.request_id);
      const { workspace, created } = await createWorkspace(
        ctx,
        createWorkspaceInput.parse({ ...input, ...(requestId ? { request_id: requestId } : {}) }),
      );
      res.status(created ? 201 : 200).json({ workspace });
    },
  );
  routes.get(
    "/v1/workspaces/:workspaceId",
    { summary: "Read one workspace", access: routeReads, response: workspaceAnswers.workspace },
    async (req, res) => {
      const ctx = read(req);
      res.json(await getWorkspace(ctx, workspaceRef.parse({ workspace_id: req.params.workspaceId }).workspace_id));
    },
  );
  routes.patch(
    "/v1/workspaces/:workspaceId",
    {
      summary: "Rename a workspace",
      access: routeWrites,
      body: renameWorkspaceInput,
      notInBody: ["workspace_id"],
      response: workspaceAnswers.workspace,
    },
    async (req, res) => {
      const ctx = write(req);
      res.json(await renameWorkspace(ctx, renameWorkspaceInput.parse({ ...body(req), workspace_id: req.params.workspaceId })));
    },
  );

  routes.get(
    "/v1/workspaces/:workspaceId/members",
    { summary: "List a workspace's members", access: routeReads, response: workspaceAnswers.members },
    async (req, res) => {
      const ctx = read(req);
      res.json(await listMembers(ctx, workspaceRef.parse({ workspace_id: req.params.workspaceId }).workspace_id));
    },
  );
  routes.put(
    "/v1/workspaces/:workspaceId/members/:personId",
    {
      summary: "Add a member or change their role (201 when added)",
      access: routeWrites,
      body: setMemberInput,
      notInBody: ["workspace_id", "person_id"],
      response: workspaceAnswers.member,
    },
    async (req, res) => {
      const ctx = write(req);
      const input = setMemberInput.parse({ ...body(req), workspace_id: req.params.workspaceId, person_id: req.params.personId });
      const { member, created } = await setMember(ctx, input);
      res.status(created ? 201 : 200).json({ member });
    },
  );
  routes.delete(
    "/v1/workspaces/:workspaceId/members/:personId",
    { summary: "Remove a member", access: routeWrites, status: 204 },
    async (req, res) => {
      const ctx = write(req);
      await removeMember(ctx, memberRef.parse({ workspace_id: req.params.workspaceId, person_id: req.params.personId }));
      res.status(204).end();
    },
  );
  return router;
}
