/**
 * `GET /v1/audit`: the tool calls of the caller's account, newest first (who, which tool, outcome, how long;
 * never arguments or results). The key must hold `audit:read`; the account is always the key's own.
 */
import express, { type Router } from "express";
import { restAccess } from "@bancada/contracts";
import { authorizedPrincipal, restRoutes } from "@bancada/service-kit";
import type { AuditTrail } from "../audit.js";
import { auditPageSchema, auditQuerySchema, parseSince, readAudit } from "../audit-query.js";
import type { GatewayDb } from "../db/client.js";

const auditAccess = restAccess({ scope: "audit:read", writes: false });

export function auditRoute(db: GatewayDb, audit: AuditTrail | undefined): Router {
  const router = express.Router();
  const routes = restRoutes(router);
  routes.get(
    "/v1/audit",
    { summary: "The account's tool calls, newest first", access: auditAccess, query: auditQuerySchema, response: auditPageSchema },
    async (req, res) => {
      const principal = authorizedPrincipal(req, auditAccess);
      const query = auditQuerySchema.parse(req.query);
      // this replica's calls of the last second are still in memory: a caller reads its own calls at once
      await audit?.flush();
      const page = await readAudit(db, {
        accountId: principal.accountId,
        limit: query.limit,
        ...(query.tool ? { tool: query.tool } : {}),
        ...(query.agent ? { agentId: query.agent } : {}),
        ...(query.outcome ? { outcome: query.outcome } : {}),
        ...(query.since ? { since: parseSince(query.since) } : {}),
        ...(query.until ? { until: new Date(query.until) } : {}),
        ...(query.cursor ? { cursor: query.cursor } : {}),
      });
      res.json(page);
    },
  );
  return router;
}
