/**
 * The account's SSH keys over REST (no tool stands behind them): a registered key opens a shell in any of the
 * account's boxes, so adding or removing one takes the exec scope.
 *   POST   /v1/ssh-keys { publicKey, name? } → 201 { key }   (boxes:exec)
 *   GET    /v1/ssh-keys                      → { keys }      (boxes:read)
 *   DELETE /v1/ssh-keys/:id                  → { deleted }   (boxes:exec)
 */
import { Router } from "express";
import { restRoutes } from "@bancada/service-kit";
import { restAccess } from "@bancada/contracts";
import type { BoxesRuntime } from "../domain/context.js";
import { registerSshKeyInput, sshKeyAnswers } from "../domain/schemas/ssh.js";
import { deleteSshKey, listSshKeys, registerSshKey } from "../domain/ssh/ssh-keys.js";
import { requestContext } from "./request-context.js";

const manage = restAccess({ scope: "boxes:exec", writes: true });
const read = restAccess({ scope: "boxes:read", writes: false });

export function sshKeyRoutes(rt: BoxesRuntime): Router {
  const router = Router();
  const routes = restRoutes(router);
  routes.post(
    "/v1/ssh-keys",
    { summary: "Register an SSH public key", access: manage, body: registerSshKeyInput, status: 201, response: sshKeyAnswers.key },
    async (req, res) => {
      const ctx = requestContext(rt, req, manage);
      res.status(201).json({ key: await registerSshKey(ctx, registerSshKeyInput.parse(req.body ?? {})) });
    },
  );
  routes.get("/v1/ssh-keys", { summary: "List the account's SSH keys", access: read, response: sshKeyAnswers.keys }, async (req, res) => {
    res.json({ keys: await listSshKeys(requestContext(rt, req, read)) });
  });
  routes.delete("/v1/ssh-keys/:id", { summary: "Delete an SSH key", access: manage, response: sshKeyAnswers.deleted }, async (req, res) => {
    res.json(await deleteSshKey(requestContext(rt, req, manage), String(req.params.id)));
  });
  return router;
}
