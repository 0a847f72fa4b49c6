/**
 * The admin REST API for API keys (the CLI's twin, for automation): enabled only when an admin token is
 * configured, and then only with that token. Without one, these routes do not exist (404).
 */
import { timingSafeEqual, createHash } from "node:crypto";
import express, { type RequestHandler, type Router } from "express";
import { z } from "zod";
import { DomainError, ErrorCode } from "@bancada/contracts";
import { bearerToken, restRoutes } from "@bancada/service-kit";
import type { KeyStore } from "../keys/api-keys.js";

const createKeyBody = (scopes: readonly string[]) =>
  z.strictObject({
    accountId: z.string().min(1).max(200),
    personId: z.string().min(1).max(200),
    agentId: z.string().min(1).max(200),
    scopes: z.array(z.enum(scopes)).min(1),
    allowWrites: z.boolean().default(false),
    allowedBoardIds: z.array(z.string().min(1)).max(1000).nullable().default(null),
    expiresAt: z.iso.datetime({ offset: true }).nullable().default(null),
  });

export function adminRoutes(keys: KeyStore, adminToken: string | undefined): Router {
  const router = express.Router();
  const createKey = createKeyBody(keys.scopes);
  const routes = restRoutes(router);
  if (!adminToken) return router;
  router.use("/admin", requireAdmin(adminToken), express.json({ limit: "64kb" }));
  routes.post(
    "/admin/keys",
    { summary: "Create a key for anyone (admin token)", access: "admin", body: createKey, status: 201 },
    async (req, res) => {
      const body = createKey.parse(req.body);
      const { key, record } = await keys.create({ ...body, expiresAt: body.expiresAt ? new Date(body.expiresAt) : null });
      res.status(201).json({ key, ...record });
    },
  );
  routes.get("/admin/keys", { summary: "List keys (accountId=…)", access: "admin" }, async (req, res) => {
    const accountId = typeof req.query.accountId === "string" ? req.query.accountId : undefined;
    res.json({ keys: await keys.list(accountId ? { accountId } : {}) });
  });
  routes.post("/admin/keys/:id/revoke", { summary: "Revoke a key", access: "admin" }, async (req, res) => {
    if (!(await keys.revoke(req.params.id))) throw new DomainError(ErrorCode.notFound, `No active key ${req.params.id}.`);
    res.json({ revoked: req.params.id });
  });
  return router;
}

function requireAdmin(adminToken: string): RequestHandler {
  const expected = createHash("sha256").update(adminToken).digest();
  return (req, res, next) => {
    const given = createHash("sha256")
      .update(bearerToken(req.headers.authorization) ?? "")
      .digest();
    if (timingSafeEqual(given, expected)) return next();
    res.setHeader("WWW-Authenticate", 'Bearer realm="bancada-admin"');
    next(new DomainError(ErrorCode.unauthenticated, "Send the admin token (BANCADA_ADMIN_TOKEN) as 'Authorization: Bearer <token>'."));
  };
}
