/**
 * The one authorization rule: may this principal use this tool (or this route) from this surface? The
 * gateway applies it before a call crosses the bus and when it lists tools, the tool host again where the
 * data lives, and every REST route before it runs a use case, so the three can never disagree.
 */
import { DomainError, ErrorCode } from "./errors.js";
import type { Principal, Transport } from "./principal.js";
import { noScope, type Scope } from "./scopes.js";

/** The fields authorization reads of a tool: a service's declaration and the gateway's catalog descriptor both have them. */
export interface ToolAccess {
  readonly name: string;
  readonly scope: string;
  readonly annotations: { readonly readOnlyHint: boolean };
  readonly transports: readonly Transport[];
}

/** What a REST route or a prompt with no tool behind it declares for itself (made with `restAccess`). */
export interface RouteAccess {
  readonly scope: string;
  readonly writes: boolean;
}

export type Access = ToolAccess | RouteAccess;

/** An MCP transport, or the REST API (which answers in its own words: no tool names, `insufficient_scope`). */
export type Surface = Transport | "rest";

export type Authorization = { readonly allowed: true } | { readonly allowed: false; readonly error: DomainError };

const allowed: Authorization = Object.freeze({ allowed: true });

/** A REST route's own access, for routes no tool stands behind (human review, member management, ingestion). */
export function restAccess(access: { scope: Scope; writes: boolean }): RouteAccess {
  return Object.freeze({ scope: access.scope, writes: access.writes });
}

type Refusal = "scope" | "transport" | "writes";

/** The first rule the principal breaks, in the order callers have always been told: scope, transport, writes. */
function refusalOf(access: Access, principal: Principal, surface: Surface): Refusal | undefined {
  if (access.scope !== noScope && !principal.scopes.includes(access.scope)) return "scope";
  // tool transports are MCP transports; REST is its own surface and a tool's REST route serves it there
  if (surface !== "rest" && "transports" in access && !access.transports.includes(surface)) return "transport";
  const writes = "writes" in access ? access.writes : !access.annotations.readOnlyHint;
  if (writes && !principal.allowWrites) return "writes";
  return undefined;
}

/** Whether `principal` may use `access` from `surface`: the same rule as `authorize`, without building the refusal. */
export function permits(access: Access, principal: Principal, surface: Surface): boolean {
  return refusalOf(access, principal, surface) === undefined;
}

/** Allowed, or the `permission_denied` error to answer, worded for the surface that asked. */
export function authorize(access: Access, principal: Principal, surface: Surface): Authorization {
  const refusal = refusalOf(access, principal, surface);
  return refusal ? { allowed: false, error: refusalError(refusal, access, surface) } : allowed;
}

function refusalError(refusal: Refusal, access: Access, surface: Surface): DomainError {
  const { scope } = access;
  // MCP callers learn which tool asked for what; REST callers know their route and get the OAuth wording
  const tool = surface !== "rest" && "name" in access ? access : undefined;
  switch (refusal) {
    case "scope": {
      const message = tool ? `This API key lacks the scope ${scope} that ${tool.name} requires.` : `This API key lacks the scope ${scope}.`;
      return new DomainError(ErrorCode.permissionDenied, message, {
        requiredScope: scope,
        ...(surface === "rest" ? { error: "insufficient_scope" } : {}),
      });
    }
    case "transport": {
      // only a tool names transports (refusalOf), and only MCP surfaces check them
      const { name, transports } = access as ToolAccess;
      return new DomainError(ErrorCode.permissionDenied, `${name} is only available over ${transports.join(", ")}.`, {
        transports: [...transports],
      });
    }
    case "writes":
      // no requiredScope over REST: the scope is held, and a scope there would ask the client for a new token
      return tool
        ? new DomainError(ErrorCode.permissionDenied, `This API key may not write (allowWrites is off); ${tool.name} changes data.`, {
            requiredScope: scope,
            allowWrites: false,
          })
        : new DomainError(ErrorCode.permissionDenied, "This API key may not write (allowWrites is off).", { allowWrites: false });
  }
}
