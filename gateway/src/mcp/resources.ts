/**
 * `resources/list`, `resources/templates/list` and `resources/read`, aggregated over every service's resource
 * families (service-kit define-resource.ts). What a caller sees is shaped by its key — a family needs its scope,
 * and each service lists only the caller's own things — so every answer carries `cacheScope: private` in
 * 2026-07-28. A read goes to the family whose template the URI matches, as a tool call goes to its service.
 */
import {
  ProtocolError,
  type ListResourcesResult,
  type ListResourceTemplatesResult,
  type ReadResourceResult,
} from "@modelcontextprotocol/server";
import { ErrorCode, matchUriTemplate, permits, templateVariables, type ErrorBody, type ListedResource } from "@bancada/contracts";
import type { CallOptions, CallRouter } from "../call-router.js";
import type { Catalog, CatalogResource } from "../catalog.js";
import type { Caller } from "./caller.js";
import { invalidParams } from "./request-shape.js";

/** Resource lists depend on the key: a client may keep one for a minute, for this caller alone. */
export const resourcesCacheHint = { ttlMs: 60_000, cacheScope: "private" } as const;

/** A page of `resources/list` asks at most this many families in turn for a non-empty page. */
const familiesPerPage = 8;

interface ListCursor {
  /** The family whose page comes next, and that family's own cursor. */
  family: string;
  cursor?: string;
}

export class ResourceAnswers {
  readonly #catalog: Catalog;
  readonly #router: CallRouter;

  constructor(catalog: Catalog, router: CallRouter) {
    this.#catalog = catalog;
    this.#router = router;
  }

  /** The families this caller may use. */
  families(caller: Caller): CatalogResource[] {
    return this.#catalog
      .resources()
      .filter(({ descriptor }) => permits({ scope: descriptor.scope, writes: false }, caller.principal, caller.transport));
  }

  /** One page: the next family's page of the caller's resources, skipping families with nothing to list. */
  async list(caller: Caller, cursor: string | undefined, options: CallOptions): Promise<ListResourcesResult> {
    const families = this.families(caller).filter(({ descriptor }) => descriptor.lists);
    const start = cursor === undefined ? { family: families[0]?.descriptor.name } : decodeCursor(cursor);
    let index = families.findIndex(({ descriptor }) => descriptor.name === start.family);
    if (cursor !== undefined && index < 0)
      throw new ProtocolError(invalidParams, "This cursor names no resource list of this key; list again without a cursor.");
    let familyCursor = "cursor" in start ? start.cursor : undefined;
    const resources: ListedResource[] = [];
    for (let asked = 0; index >= 0 && index < families.length && asked < familiesPerPage; asked++) {
      const family = families[index]!;
      const reply = await this.#router.relay(
        caller.principal,
        family.service,
        { kind: "resources", resource: family.descriptor.name, ...(familyCursor !== undefined ? { cursor: familyCursor } : {}) },
        `resources/list ${family.descriptor.name}`,
        options,
      );
      if (!reply.ok) throw asProtocolError(reply.error);
      const page = reply.result as { resources: ListedResource[]; nextCursor?: string };
      resources.push(...page.resources.map((resource) => withMime(resource, family)));
      if (page.nextCursor !== undefined)
        return { resources, nextCursor: encodeCursor({ family: family.descriptor.name, cursor: page.nextCursor }) };
      index++;
      familyCursor = undefined;
      if (resources.length > 0) break;
    }
    const next = families[index];
    return next && index < families.length ? { resources, nextCursor: encodeCursor({ family: next.descriptor.name }) } : { resources };
  }

  /** The families read by a URI with variables in it (a box's files), as templates. */
  templates(caller: Caller): ListResourceTemplatesResult {
    return {
      resourceTemplates: this.families(caller)
        .filter(({ descriptor }) => templateVariables(descriptor.uriTemplate).length > 0)
        .map(({ descriptor: { name, title, description, mimeType, uriTemplate } }) => ({
          uriTemplate,
          name,
          ...(title ? { title } : {}),
          description,
          ...(mimeType ? { mimeType } : {}),
        })),
    };
  }

  /** One resource, read by the service whose family the URI belongs to; -32602 with the URI when nobody serves it. */
  async read(caller: Caller, uri: string, options: CallOptions): Promise<ReadResourceResult> {
    for (const family of this.families(caller)) {
      const variables = matchUriTemplate(family.descriptor.uriTemplate, uri);
      if (!variables) continue;
      const reply = await this.#router.relay(
        caller.principal,
        family.service,
        { kind: "read", resource: family.descriptor.name, uri, variables },
        `resources/read ${family.descriptor.name}`,
        options,
      );
      if (!reply.ok) throw asProtocolError(reply.error, uri);
      return reply.result as ReadResourceResult;
    }
    throw resourceNotFound(uri);
  }
}

/** The family's MIME type on a listed resource that names none. */
function withMime(resource: ListedResource, family: CatalogResource): ListedResource {
  return resource.mimeType || !family.descriptor.mimeType ? resource : { ...resource, mimeType: family.descriptor.mimeType };
}

function resourceNotFound(uri: string, message?: string): ProtocolError {
  return new ProtocolError(
    invalidParams,
    message ?? `No resource at ${uri}; resources/list and resources/templates/list name what this key may read.`,
    {
      uri,
    },
  );
}

/**
 * A service's refusal as a JSON-RPC error: what the client got wrong (no such resource, a bad argument, a scope it
 * lacks) is -32602, a not-found naming the URI; the rest is -32603. The envelope travels as `data.error`.
 */
export function asProtocolError(error: ErrorBody, uri?: string): ProtocolError {
  if (error.code === ErrorCode.notFound && uri !== undefined) return new ProtocolError(invalidParams, error.message, { uri, error });
  const clientMistake =
    error.code === ErrorCode.notFound || error.code === ErrorCode.invalidArgument || error.code === ErrorCode.permissionDenied;
  return new ProtocolError(clientMistake ? invalidParams : -32603, error.message, { ...(uri !== undefined ? { uri } : {}), error });
}

function encodeCursor(cursor: ListCursor): string {
  return Buffer.from(JSON.stringify(cursor)).toString("base64url");
}

function decodeCursor(text: string): ListCursor {
  try {
    const parsed = JSON.parse(Buffer.from(text, "base64url").toString("utf8")) as Partial<ListCursor> | null;
    if (typeof parsed?.family === "string" && (parsed.cursor === undefined || typeof parsed.cursor === "string"))
      return parsed.cursor === undefined ? { family: parsed.family } : { family: parsed.family, cursor: parsed.cursor };
  } catch {
    // fall through to the refusal
  }
  throw new ProtocolError(invalidParams, "This is not a cursor of resources/list; pass back nextCursor as it came, or list without one.");
}
