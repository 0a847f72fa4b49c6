/**
 * The caller's own session and API keys, for the web console (`/v1/session`, `/v1/keys`). A person manages only
 * their own keys (same account, same person); keys for anyone else stay behind the admin token (`/admin/keys`).
 * A key made here can never do more than the key that made it: its scopes, writes, boards and expiry are at
 * most the caller's, so a leaked agent key cannot mint a stronger one.
 */
import express, { type Request, type Router } from "express";
import { z } from "zod";
import {
  DomainError,
  ErrorCode,
  mcpClientConfiguration,
  mcpStdioConfiguration,
  restAccess,
  type Principal,
  type StdioLaunch,
} from "@bancada/contracts";
import {
  authenticate,
  authorizedPrincipal,
  hostGuard,
  jsonBody,
  originGuard,
  principalOf,
  type GuardOptions,
  type RateLimiter,
  restRoutes,
} from "@bancada/service-kit";
import type { KeyOwner, KeyRecord, KeyStore } from "../keys/api-keys.js";

export const keysRead = restAccess({ scope: "keys:read", writes: false });
export const keysWrite = restAccess({ scope: "keys:write", writes: true });

/** Ours, where nothing else says: a person holds at most this many keys that still work. */
export const maxActiveKeysPerPerson = 50;
const labelMax = 200;

const createKeyBody = (scopes: readonly string[]) =>
  z.strictObject({
    label: z.string().trim().min(1, "must not be blank").max(labelMax),
    scopes: z
      .array(z.enum(scopes))
      .min(1)
      .refine((list) => new Set(list).size === list.length, "must not repeat a scope"),
    allowWrites: z.boolean().default(false),
    allowedBoardIds: z.array(z.guid()).max(1000).nullable().default(null),
    expiresAt: z.iso.datetime({ offset: true }).nullable().default(null),
  });

const keyIdParam = z.strictObject({ id: z.guid() });

/** What the console shows of a key: never its secret or hash. */
const keyView = z.object({
  id: z.string(),
  prefix: z.string(),
  label: z.string(),
  scopes: z.array(z.string()),
  allowWrites: z.boolean(),
  allowedBoardIds: z.array(z.string()).nullable(),
  createdAt: z.string(),
  lastUsedAt: z.string().nullable(),
  expiresAt: z.string().nullable(),
  revokedAt: z.string().nullable(),
  current: z.boolean().describe("This is the key making the request."),
});
type KeyView = z.infer<typeof keyView>;

/** GET /v1/session: the calling key, whom it acts for and what it may do (the console opens its areas by it). */
const sessionView = z.object({
  key: keyView.nullable(),
  accountId: z.string(),
  personId: z.string(),
  scopes: z.array(z.string()),
  allowWrites: z.boolean(),
  allowedBoardIds: z.array(z.string()).nullable(),
  allScopes: z.array(z.string()),
});

export function keyRoutes(keys: KeyStore, guards: GuardOptions, limiter?: RateLimiter, stdioLaunch?: StdioLaunch): Router {
  const router = express.Router();
  const routes = restRoutes(router);
  const createKey = createKeyBody(keys.scopes);
  router.use(["/v1/session", "/v1/keys"], hostGuard(guards), originGuard(guards), authenticate(keys, limiter), jsonBody("64kb"));

  routes.get("/v1/session", { summary: "The calling key and what it may do", access: "key", response: sessionView }, async (req, res) => {
    // any working key may see itself: that is how the console signs in and learns which areas to offer
    const principal = principalOf(req);
    const record = await keys.get(principal.keyId, ownerOf(principal));
    res.setHeader("Cache-Control", "no-store");
    res.json({
      key: record ? view(record, principal) : null,
      accountId: principal.accountId,
      personId: principal.personId,
      scopes: principal.scopes,
      allowWrites: principal.allowWrites,
      allowedBoardIds: principal.allowedBoardIds,
      allScopes: [...keys.scopes],
    } satisfies z.infer<typeof sessionView>);
  });

  routes.get(
    "/v1/keys",
    { summary: "The caller's own keys", access: keysRead, response: z.object({ keys: z.array(keyView) }) },
    async (req, res) => {
      const principal = authorizedPrincipal(req, keysRead);
      const list = await keys.list(ownerOf(principal));
      res.setHeader("Cache-Control", "no-store");
      res.json({ keys: list.map((record) => view(record, principal)).reverse() });
    },
  );

  routes.post(
    "/v1/keys",
    { summary: "Create a key no stronger than the caller's", access: keysWrite, body: createKey, status: 201 },
    async (req, res) => {
      const principal = authorizedPrincipal(req, keysWrite);
      const body = createKey.parse(req.body ?? {});
      const own = await keys.get(principal.keyId, ownerOf(principal));
      checkNotStronger(principal, own, body);
      const active = (await keys.list(ownerOf(principal))).filter((record) => isActive(record)).length;
      if (active >= maxActiveKeysPerPerson) {
        throw new DomainError(
          ErrorCode.failedPrecondition,
          `You hold ${active} working keys, the most a person may; revoke one you no longer use, then create this one.`,
          { limit: maxActiveKeysPerPerson },
        );
      }
      const { key, record } = await keys.create({
        ...ownerOf(principal),
        agentId: body.label,
        scopes: body.scopes,
        allowWrites: body.allowWrites,
        allowedBoardIds: body.allowedBoardIds,
        expiresAt: body.expiresAt ? new Date(body.expiresAt) : null,
      });
      res.setHeader("Cache-Control", "no-store");
      res.status(201).json({
        key,
        record: view(record, principal),
        mcpClientConfiguration: mcpClientConfiguration(mcpUrlOf(req), key),
        ...(stdioLaunch ? { mcpStdioConfiguration: mcpStdioConfiguration(stdioLaunch, key) } : {}),
      });
    },
  );

  routes.post(
    "/v1/keys/:id/revoke",
    { summary: "Revoke one of the caller's keys", access: keysWrite, params: keyIdParam },
    async (req, res) => {
      const principal = authorizedPrincipal(req, keysWrite);
      const { id } = keyIdParam.parse(req.params);
      if (!(await keys.revoke(id, ownerOf(principal)))) {
        throw new DomainError(ErrorCode.notFound, `No working key ${id} of yours; list your keys with GET /v1/keys.`);
      }
      res.json({ revoked: id, current: id === principal.keyId });
    },
  );
  return router;
}

export function ownerOf(principal: Principal): KeyOwner {
  return { accountId: principal.accountId, personId: principal.personId };
}

function isActive(record: KeyRecord, now = Date.now()): boolean {
  return !record.revokedAt && (!record.expiresAt || Date.parse(record.expiresAt) > now);
}

function view(record: KeyRecord, principal: Principal): KeyView {
  return {
    id: record.id,
    prefix: record.prefix,
    label: record.agentId,
    scopes: record.scopes,
    allowWrites: record.allowWrites,
    allowedBoardIds: record.allowedBoardIds,
    createdAt: record.createdAt,
    lastUsedAt: record.lastUsedAt,
    expiresAt: record.expiresAt,
    revokedAt: record.revokedAt,
    current: record.id === principal.keyId,
  };
}

/** What a new key, or a grant approved in the console, asks for. */
export interface Requested {
  scopes: readonly string[];
  allowWrites: boolean;
  allowedBoardIds: string[] | null;
  expiresAt: string | null;
}

/**
 * The new key (or grant) within the caller's: scopes, writes, boards and expiry. Each excess is named, so the form
 * can say it.
 */
export function checkNotStronger(principal: Principal, own: KeyRecord | null, body: Requested, what = "A key you create"): void {
  const issues: { path: string; message: string }[] = [];
  body.scopes.forEach((scope, index) => {
    if (!principal.scopes.includes(scope)) issues.push({ path: `scopes[${index}]`, message: `your key does not hold ${scope}` });
  });
  if (body.allowWrites && !principal.allowWrites) issues.push({ path: "allowWrites", message: "your key may not write" });
  if (principal.allowedBoardIds !== null) {
    if (body.allowedBoardIds === null) issues.push({ path: "allowedBoardIds", message: "your key reaches only some boards: list them" });
    else
      body.allowedBoardIds.forEach((id, index) => {
        if (!principal.allowedBoardIds!.includes(id))
          issues.push({ path: `allowedBoardIds[${index}]`, message: "your key cannot reach it" });
      });
  }
  const until = own?.expiresAt ? Date.parse(own.expiresAt) : null;
  if (until !== null && (body.expiresAt === null || Date.parse(body.expiresAt) > until)) {
    issues.push({ path: "expiresAt", message: `your key expires at ${own!.expiresAt}: set this one to expire no later` });
  }
  if (body.expiresAt !== null && Date.parse(body.expiresAt) <= Date.now())
    issues.push({ path: "expiresAt", message: "must be in the future" });
  if (issues.length > 0) {
    throw new DomainError(ErrorCode.permissionDenied, `${what} cannot do more than the key you signed in with.`, { issues });
  }
}

/** The MCP endpoint as the caller reached this gateway (behind the Ingress too: `trust proxy` gives the scheme). */
function mcpUrlOf(req: Request): string {
  return `${req.protocol}://${req.get("host") ?? "localhost"}/mcp`;
}
