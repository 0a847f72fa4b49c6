/**
 * Workspace secrets over REST (docs/boxes.md#secrets): `PUT /v1/secrets/:name` sets one (create or replace),
 * `GET /v1/secrets` lists the names, `DELETE /v1/secrets/:name` removes one. No route ever answers a value.
 * No tool stands behind them: setting and deleting need boxes:write, listing boxes:read.
 */
import { Router } from "express";
import { restAccess } from "@bancada/contracts";
import { authorizedPrincipal, restRoutes } from "@bancada/service-kit";
import type { BoxesContext, BoxesRuntime } from "../domain/context.js";
import { secretAnswers, secretNameInput, setSecretInput } from "../domain/secrets/schemas.js";
import { deleteSecret, listSecrets, setSecret } from "../domain/secrets/secrets.js";

const reads = restAccess({ scope: "boxes:read", writes: false });
const writes = restAccess({ scope: "boxes:write", writes: true });

export function secretsRoutes(rt: BoxesRuntime): Router {
  const router = Router();
  const routes = restRoutes(router);
  const context = (req: Parameters<typeof authorizedPrincipal>[0], access: typeof reads): BoxesContext => {
    const principal = authorizedPrincipal(req, access);
    return { ...rt, accountId: principal.accountId, personId: principal.personId, agentId: principal.agentId };
  };

  routes.get(
    "/v1/secrets",
    { summary: "List the workspace secrets' names (never values)", access: reads, response: secretAnswers.secrets },
    async (req, res) => {
      res.json({ secrets: await listSecrets(context(req, reads)) });
    },
  );

  routes.put(
    "/v1/secrets/:name",
    { summary: "Set a secret (create or replace)", access: writes, body: setSecretInput, response: secretAnswers.secret },
    async (req, res) => {
      const ctx = context(req, writes);
      const body = req.body && typeof req.body === "object" && !Array.isArray(req.body) ? (req.body as Record<string, unknown>) : {};
      res.json({ secret: await setSecret(ctx, setSecretInput.parse({ ...body, name: req.params.name })) });
    },
  );

  routes.delete(
    "/v1/secrets/:name",
    { summary: "Delete a secret", access: writes, params: secretNameInput, response: secretAnswers.deleted },
    async (req, res) => {
      const ctx = context(req, writes);
      res.json(await deleteSecret(ctx, secretNameInput.parse({ name: req.params.name }).name));
    },
  );

  return router;
}
