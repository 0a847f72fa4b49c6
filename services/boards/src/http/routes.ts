/** The app's REST API (`/v1/boards…`): the same use cases and schemas as the MCP tools, so the two never diverge. */
import { Router } from "express";
import { mountRoutes } from "@bancada/service-kit";
import type { BoardsDb } from "../db/client.js";
import { boardRoutes } from "./board-routes.js";
import { inboxRoutes } from "./inbox-routes.js";
import { reviewRoutes } from "./review-routes.js";
import { taskRoutes } from "./task-routes.js";

export function boardsRoutes(db: BoardsDb): Router {
  const router = Router();
  mountRoutes(router, boardRoutes(db), taskRoutes(db), reviewRoutes(db), inboxRoutes(db));
  return router;
}
