/**
 * Published ports over REST: publish (the tool's use case and access), list a box's ports, unpublish one.
 *   POST   /v1/boxes/:boxId/ports { port, protocol?, visibility? } → 201 { port, accessToken, usage }
 *   GET    /v1/boxes/:boxId/ports                                  → { ports }
 *   DELETE /v1/boxes/:boxId/ports/:port                            → { unpublished }
 */
import { Router, type Request } from "express";
import { restRoutes } from "@bancada/service-kit";
import { restAccess } from "@bancada/contracts";
import type { BoxesRuntime } from "../domain/context.js";
import { listPorts, publishPort, unpublishPort } from "../domain/ports/publish-port.js";
import { boxRefInput } from "../domain/schemas/box.js";
import { publishPortInput, unpublishPortInput } from "../domain/schemas/port.js";
import { publishPortTool } from "../tools/publish-port.js";
import { requestContext } from "./request-context.js";

const readPorts = restAccess({ scope: "boxes:read", writes: false });
const unpublish = restAccess({ scope: "boxes:write", writes: true });

export function portRoutes(rt: BoxesRuntime): Router {
  const router = Router();
  const routes = restRoutes(router);
  const publish = publishPortTool(rt);

  routes.post(
    "/v1/boxes/:boxId/ports",
    { summary: "Publish a port of a box", access: publish, body: publishPortInput, status: 201 },
    async (req, res) => {
      const ctx = requestContext(rt, req, publish);
      res.status(201).json(await publishPort(ctx, publishPortInput.parse({ ...objectBody(req), boxId: req.params.boxId })));
    },
  );

  routes.get(
    "/v1/boxes/:boxId/ports",
    { summary: "List a box's published ports", access: readPorts, params: boxRefInput },
    async (req, res) => {
      const ctx = requestContext(rt, req, readPorts);
      res.json({ ports: await listPorts(ctx, boxRefInput.parse({ boxId: req.params.boxId }).boxId) });
    },
  );

  routes.delete("/v1/boxes/:boxId/ports/:port", { summary: "Unpublish a port", access: unpublish }, async (req, res) => {
    const ctx = requestContext(rt, req, unpublish);
    res.json(await unpublishPort(ctx, unpublishPortInput.parse({ boxId: req.params.boxId, port: Number(req.params.port) })));
  });

  return router;
}

function objectBody(req: Request): Record<string, unknown> {
  return req.body && typeof req.body === "object" && !Array.isArray(req.body) ? (req.body as Record<string, unknown>) : {};
}
