/**
 * REST: the reviewer's inbox across boards (`/v1/inbox`). Reading it is a person's own view, so it takes the
 * routes' read access; the boards it covers are the caller's (row-level security and the key's allowlist).
 */
import { Router } from "express";
import { restRoutes } from "@bancada/service-kit";
import type { BoardsDb } from "../db/client.js";
import { countInbox, inboxQuery, listInbox } from "../domain/inbox.js";
import { restAnswers } from "../domain/views.js";
import { restContext, routeReads } from "./context.js";

export function inboxRoutes(db: BoardsDb): Router {
  const router = Router();
  const routes = restRoutes(router);
  routes.get(
    "/v1/inbox",
    {
      summary: "Open proposals of every board the caller reviews, newest first",
      access: routeReads,
      query: inboxQuery,
      response: restAnswers.inbox,
    },
    async (req, res) => {
      const ctx = restContext(db, req, routeReads);
      res.json(await listInbox(ctx, inboxQuery.parse(req.query)));
    },
  );
  routes.get(
    "/v1/inbox/counts",
    { summary: "How many open proposals wait on each board the caller reviews", access: routeReads, response: restAnswers.inboxCounts },
    async (req, res) => {
      res.json(await countInbox(restContext(db, req, routeReads)));
    },
  );
  return router;
}
