import { Router } from "express";
import { mountRoutes } from "@bancada/service-kit";
import type { DraftsDeps } from "../domain/context.js";
import { assetRoutes } from "./asset-routes.js";
import { draftRoutes } from "./draft-routes.js";
import { workspaceRoutes } from "./workspace-routes.js";

export function draftsRoutes(deps: DraftsDeps): Router {
  const router = Router();
  mountRoutes(router, workspaceRoutes(deps), draftRoutes(deps), assetRoutes(deps));
  return router;
}
