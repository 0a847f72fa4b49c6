/**
 * REST: activity and the human review of proposals (apply or reject each suggestion, close the summary, dismiss).
 * Apply all / Reject all decide every pending suggestion at once; an obsolete one can be proposed again.
 * Activity and the proposal list are tools' use cases and take their access; the review itself is a person's
 * decision, never a tool's, so those routes declare their own.
 */
import { Router, type Request } from "express";
import { restRoutes } from "@bancada/service-kit";
import { z } from "zod";
import type { BoardsDb } from "../db/client.js";
import { getTaskActivity } from "../domain/get-activity.js";
import { pagedBoardRef } from "../domain/inputs.js";
import { listBoardProposals } from "../domain/list-proposals.js";
import { getProposal } from "../domain/read-one.js";
import { reproposeInput, reproposeSuggestion } from "../domain/inbox.js";
import { applySuggestion, closeProposal, rejectSuggestion, reviewAll } from "../domain/review-proposal.js";
import { getTaskActivityTool } from "../tools/get-task-activity.js";
import { listBoardProposalsTool } from "../tools/list-board-proposals.js";
import type { BoardsContext } from "../domain/context.js";
import { restAnswers } from "../domain/views.js";
import { body, restContext, routeReads, routeWrites } from "./context.js";

const proposalRef = z.strictObject({ boardId: z.guid(), proposalId: z.guid() });
const suggestionRef = proposalRef.extend({ suggestionId: z.guid() });

export function reviewRoutes(db: BoardsDb): Router {
  const router = Router();
  const routes = restRoutes(router);
  const read = (req: Request) => restContext(db, req, routeReads);
  const write = (req: Request) => restContext(db, req, routeWrites);
  const tools = { activity: getTaskActivityTool(db), proposals: listBoardProposalsTool(db) };
  const paged = (req: Request) => pagedBoardRef.parse({ ...req.query, boardId: req.params.boardId });

  routes.get(
    "/v1/boards/:boardId/activity",
    { summary: "A board's task activity, newest first", access: tools.activity, query: pagedBoardRef, response: restAnswers.activity },
    async (req, res) => {
      const ctx = restContext(db, req, tools.activity);
      res.json(await getTaskActivity(ctx, paged(req)));
    },
  );
  routes.get(
    "/v1/boards/:boardId/proposals",
    { summary: "A board's proposals", access: tools.proposals, query: pagedBoardRef, response: restAnswers.proposals },
    async (req, res) => {
      const ctx = restContext(db, req, tools.proposals);
      res.json(await listBoardProposals(ctx, paged(req)));
    },
  );
  routes.get(
    "/v1/boards/:boardId/proposals/:proposalId",
    { summary: "Read one proposal", access: routeReads, params: proposalRef, response: restAnswers.proposal },
    async (req, res) => {
      const ctx = read(req);
      const ref = proposalRef.parse(req.params);
      res.json(await getProposal(ctx, ref.boardId, ref.proposalId));
    },
  );
  // a person's four review decisions: one POST each, all under routeWrites, the address parsed as the use case needs it
  const decision = <Ref, Answer>(
    action: string,
    summary: string,
    params: z.ZodType<Ref>,
    response: z.ZodType<Answer>,
    decide: (ctx: BoardsContext, ref: Ref) => Promise<Answer>,
  ) =>
    routes.post(
      `/v1/boards/:boardId/proposals/:proposalId/${action}`,
      { summary, access: routeWrites, params, response },
      async (req, res) => {
        res.json(await decide(write(req), params.parse(req.params)));
      },
    );
  const { proposal, review, reviewAll: reviewedAll } = restAnswers;
  decision("suggestions/:suggestionId/apply", "Apply one suggestion of a proposal", suggestionRef, review, applySuggestion);
  decision("suggestions/:suggestionId/reject", "Reject one suggestion of a proposal", suggestionRef, review, rejectSuggestion);
  decision("close-summary", "Close a proposal's summary", proposalRef, proposal, (ctx, ref) => closeProposal(ctx, ref, false));
  decision("dismiss", "Dismiss a proposal", proposalRef, proposal, (ctx, ref) => closeProposal(ctx, ref, true));
  decision("apply-all", "Apply every pending suggestion of a proposal", proposalRef, reviewedAll, (ctx, ref) =>
    reviewAll(ctx, ref, "apply"),
  );
  decision("reject-all", "Reject every pending suggestion of a proposal", proposalRef, reviewedAll, (ctx, ref) =>
    reviewAll(ctx, ref, "reject"),
  );
  routes.post(
    "/v1/boards/:boardId/proposals/:proposalId/suggestions/:suggestionId/repropose",
    {
      summary: "Propose an obsolete suggestion again, at its task's current version",
      access: routeWrites,
      params: suggestionRef,
      body: reproposeInput,
      status: 201,
      response: restAnswers.proposal,
    },
    async (req, res) => {
      const ctx = write(req);
      const ref = suggestionRef.parse(req.params);
      res.status(201).json(await reproposeSuggestion(ctx, { ...ref, ...reproposeInput.parse(body(req)) }));
    },
  );
  return router;
}
