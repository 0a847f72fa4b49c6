/**
 * OAuth for `/mcp` on the gateway's port: the discovery documents (RFC 9728 for the resource, RFC 8414 for the
 * authorization server), the authorization server's own endpoints under `/oauth/` (oidc-provider), the consent
 * page's API (`/oauth/consent/<uid>/…`: what the client asks, approve with a key that holds keys:write, deny) and
 * the caller's grants for the console's Keys page (`/v1/grants`).
 */
import express, { type Request, type RequestHandler, type Response, type Router } from "express";
import { errors } from "oidc-provider";
import { z } from "zod";
import { DomainError, ErrorCode } from "@bancada/contracts";
import {
  authenticate,
  authorizedPrincipal,
  hostGuard,
  jsonBody,
  originGuard,
  restRoutes,
  type GuardOptions,
  RateLimiter,
} from "@bancada/service-kit";
import type { KeyStore } from "../keys/api-keys.js";
import { grantView, subjectOf } from "../oauth/grants.js";
import type { OAuthServer } from "../oauth/server.js";
import { checkNotStronger, keysRead, keysWrite, ownerOf } from "./key-routes.js";

/** A grant lives at most this long; without a date the consent page offers this. */
const maxGrantDays = 365;
const defaultGrantDays = 30;

const approveBody = z.strictObject({
  scopes: z
    .array(z.string())
    .min(1, "pick at least one scope")
    .refine((list) => new Set(list).size === list.length, "must not repeat a scope"),
  allowWrites: z.boolean().default(false),
  allowedBoardIds: z.array(z.guid()).max(1000).nullable().default(null),
  expiresAt: z.iso.datetime({ offset: true }).nullable().default(null),
});

/** What the consent page shows: the client, the scopes it asks (all a grant may hold when it names none), the limits. */
const consentDetails = z.object({
  uid: z.string(),
  client: z.object({ id: z.string(), name: z.string(), host: z.string() }),
  requestedScopes: z.array(z.string()),
  resource: z.string().describe("The URL of the MCP endpoint the grant is for."),
  maxDays: z.number().int(),
  defaultDays: z.number().int(),
});
/** Where the browser goes next: back to the client with a code, or with access_denied. */
const redirect = z.object({ redirectTo: z.string() });

const uidParam = z.strictObject({ uid: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/) });
const grantIdParam = z.strictObject({ id: z.guid() });

export interface OAuthRouteOptions {
  oauth: OAuthServer;
  keys: KeyStore;
  guards: GuardOptions;
  limiter?: RateLimiter;
  /** The console's page, served at the consent URL (the page reads the uid from its path). */
  consolePage: RequestHandler;
}

export function oauthRoutes({ oauth, keys, guards, limiter, consolePage }: OAuthRouteOptions): Router {
  const router = express.Router();
  const routes = restRoutes(router);
  const host = hostGuard(guards);
  const handlers = new WeakMap<object, (req: Request, res: Response) => void>();
  /** Hands the request to the authorization server as it arrived (a mount would cut its path). */
  const authorizationServer: RequestHandler = (req, res) => {
    const provider = oauth.provider(req);
    let handler = handlers.get(provider);
    if (!handler) handlers.set(provider, (handler = provider.callback() as unknown as (req: Request, res: Response) => void));
    req.url = req.originalUrl;
    // the library reads a mount point from baseUrl; its routes are absolute paths of this port
    req.baseUrl = "";
    handler(req, res);
  };

  router.get("/.well-known/oauth-protected-resource{/*rest}", host, (req, res) => {
    res.setHeader("Access-Control-Allow-Origin", "*");
    res.json(oauth.resourceMetadata(req));
  });
  router.get(["/.well-known/oauth-authorization-server{/*rest}", "/.well-known/openid-configuration{/*rest}"], host, (req, res, next) => {
    req.originalUrl = "/.well-known/openid-configuration";
    authorizationServer(req, res, next);
  });

  router.get("/oauth/consent/:uid", host, consolePage);
  const consentRoute = (rest: string) => `/oauth/consent/:uid${rest}`;
  routes.get(
    consentRoute("/details"),
    { summary: "What an OAuth client asks (the consent page)", access: "public", params: uidParam, response: consentDetails },
    host,
    async (req, res) => {
      const { uid } = uidParam.parse(req.params);
      const { details, client, offered } = await clientRequest(oauth, req, res, uid);
      res.setHeader("Cache-Control", "no-store");
      res.json({
        uid,
        client: {
          id: client.clientId,
          name: client.clientName ?? client.clientId,
          host: clientHost(client.clientId, details.params.redirect_uri),
        },
        requestedScopes: offered,
        resource: oauth.resource(req),
        maxDays: maxGrantDays,
        defaultDays: defaultGrantDays,
      } satisfies z.infer<typeof consentDetails>);
    },
  );

  routes.post(
    consentRoute("/approve"),
    {
      summary: "Approve an OAuth client (a key holding keys:write)",
      access: keysWrite,
      params: uidParam,
      body: approveBody,
      response: redirect,
    },
    host,
    originGuard(guards),
    authenticate(keys, limiter),
    jsonBody("64kb"),
    async (req, res) => {
      const { uid } = uidParam.parse(req.params);
      const principal = authorizedPrincipal(req, keysWrite);
      const body = approveBody.parse(req.body ?? {});
      const { provider, client, offered } = await clientRequest(oauth, req, res, uid);
      const notOffered = body.scopes.filter((scope) => !offered.includes(scope));
      if (notOffered.length > 0) {
        throw new DomainError(ErrorCode.invalidArgument, `The client did not ask for ${notOffered.join(", ")}: grant only what it asked.`, {
          issues: notOffered.map((scope) => ({ path: `scopes[${body.scopes.indexOf(scope)}]`, message: "not asked by the client" })),
        });
      }
      const expiresAt = body.expiresAt ?? new Date(Date.now() + defaultGrantDays * 86_400_000).toISOString();
      if (Date.parse(expiresAt) > Date.now() + maxGrantDays * 86_400_000) {
        throw new DomainError(ErrorCode.invalidArgument, `A grant lasts at most ${maxGrantDays} days: pick an earlier expiry.`, {
          issues: [{ path: "expiresAt", message: `at most ${maxGrantDays} days ahead` }],
        });
      }
      const own = await keys.get(principal.keyId, ownerOf(principal));
      checkNotStronger(principal, own, { ...body, expiresAt }, "A grant you approve");
      const grantId = await oauth.grants.approve(provider, oauth.resource(req), {
        ...ownerOf(principal),
        clientId: client.clientId,
        clientName: client.clientName ?? client.clientId,
        approvedByKeyId: principal.keyId,
        scopes: body.scopes,
        allowWrites: body.allowWrites,
        allowedBoardIds: body.allowedBoardIds,
        expiresAt: new Date(expiresAt),
      });
      const redirectTo = await provider.interactionResult(
        req,
        res,
        { login: { accountId: subjectOf(ownerOf(principal)) }, consent: { grantId } },
        { mergeWithLastSubmission: false },
      );
      res.setHeader("Cache-Control", "no-store");
      res.json({ redirectTo });
    },
  );

  routes.post(
    consentRoute("/deny"),
    { summary: "Deny an OAuth client", access: "public", params: uidParam, body: z.strictObject({}), response: redirect },
    host,
    originGuard(guards),
    async (req, res) => {
      const { uid } = uidParam.parse(req.params);
      const provider = oauth.provider(req);
      await interaction(provider, req, res, uid);
      const redirectTo = await provider.interactionResult(
        req,
        res,
        { error: "access_denied", error_description: "The person denied this client access to Bancada." },
        { mergeWithLastSubmission: false },
      );
      res.setHeader("Cache-Control", "no-store");
      res.json({ redirectTo });
    },
  );

  // anyone may register a client (DCR has no credentials): a few per address and hour, so nobody fills the table
  router.post("/oauth/register", host, registrationLimit(), authorizationServer);
  router.use("/oauth", host, authorizationServer);

  router.use("/v1/grants", host, originGuard(guards), authenticate(keys, limiter), jsonBody("64kb"));
  routes.get(
    "/v1/grants",
    { summary: "The OAuth clients the caller approved", access: keysRead, response: z.object({ grants: z.array(grantView) }) },
    async (req, res) => {
      const principal = authorizedPrincipal(req, keysRead);
      res.setHeader("Cache-Control", "no-store");
      res.json({ grants: await oauth.grants.list(ownerOf(principal)) });
    },
  );
  routes.post(
    "/v1/grants/:id/revoke",
    {
      summary: "Revoke one of the caller's OAuth grants and its tokens",
      access: keysWrite,
      params: grantIdParam,
      response: z.object({ revoked: z.string() }),
    },
    async (req, res) => {
      const principal = authorizedPrincipal(req, keysWrite);
      const { id } = grantIdParam.parse(req.params);
      if (!(await oauth.grants.revoke(oauth.provider(req), id, ownerOf(principal)))) {
        throw new DomainError(ErrorCode.notFound, `No working grant ${id} of yours; list your grants with GET /v1/grants.`);
      }
      res.json({ revoked: id });
    },
  );
  return router;
}

/** The consent `uid` of this browser, its client, and the scopes it asks that a grant may hold (all when it names none). */
async function clientRequest(oauth: OAuthServer, req: Request, res: Response, uid: string) {
  const provider = oauth.provider(req);
  const details = await interaction(provider, req, res, uid);
  const client = await provider.Client.find(String(details.params.client_id));
  if (!client) throw expired();
  const asked = String(details.params.scope ?? "")
    .split(" ")
    .filter((scope) => oauth.scopes.includes(scope));
  return { provider, details, client, offered: asked.length > 0 ? asked : [...oauth.scopes] };
}

async function interaction(provider: ReturnType<OAuthServer["provider"]>, req: Request, res: Response, uid: string) {
  try {
    const details = await provider.interactionDetails(req, res);
    if (details.uid !== uid) throw expired();
    return details;
  } catch (error) {
    if (error instanceof errors.SessionNotFound || error instanceof DomainError) throw expired();
    throw error;
  }
}

function expired(): DomainError {
  return new DomainError(
    ErrorCode.failedPrecondition,
    "This approval request has expired or was opened in another browser: start the connection again from your MCP client.",
  );
}

/** The host a person recognises the client by: its client id's when that is a URL (a metadata document), else its redirect's. */
function clientHost(clientId: string, redirectUri: unknown): string {
  for (const candidate of [clientId, redirectUri]) {
    if (typeof candidate !== "string") continue;
    try {
      return new URL(candidate).host;
    } catch {
      // not a URL: try the next
    }
  }
  return "";
}

/** Client registrations per address: 20 at once, then one every 3 minutes; at most 50,000 addresses remembered. */
function registrationLimit(): RequestHandler {
  const limiter = new RateLimiter({ burst: 20, perSecond: 1 / 180, maxKeys: 50_000 });
  return (req, res, next) => {
    const waitMs = limiter.take(req.socket.remoteAddress ?? "unknown");
    if (waitMs === 0) return next();
    res.setHeader("Retry-After", String(Math.ceil(waitMs / 1000)));
    next(
      new DomainError(ErrorCode.rateLimited, `Too many client registrations from this address; retry in ${Math.ceil(waitMs / 1000)} s.`, {
        retryAfterMs: waitMs,
      }),
    );
  };
}
