/**
 * A family of MCP resources a service serves (`bancada://scripts/{id}`): declared once, beside the tools, with how
 * to list the caller's resources, read one and complete the template's variables. The gateway aggregates the
 * families of every service and relays `resources/list`, `resources/read` and `completion/complete` here with the
 * caller's principal, as it does tool calls: every handler reads only what that principal may see.
 */
import type { ListedResource, ResourceContents, ResourceDescriptor, ToolScope } from "@bancada/contracts";
import type { ToolContext } from "./define-tool.js";

/** One page of a family's resources; `nextCursor` is the family's own (opaque to the gateway and the client). */
export interface ResourcePage {
  resources: ListedResource[];
  nextCursor?: string;
}

/** Values offered for one variable or argument, best first; `total`/`hasMore` when there are more than shown. */
export interface Completion {
  values: string[];
  total?: number;
  hasMore?: boolean;
}

/** Completes one variable (or prompt argument) from what the person typed and the other values already chosen. */
export type Completer = (ctx: ToolContext, value: string, context: Record<string, string>) => Promise<Completion>;

export interface ResourceDefinition {
  /** Unique across every service, like a tool name. */
  name: string;
  uriTemplate: string;
  title?: string;
  description: string;
  mimeType?: string;
  scope: ToolScope;
  /** The caller's resources of this family, a page at a time; absent when the family is only read by URI (a box file). */
  list?: (ctx: ToolContext, cursor: string | undefined) => Promise<ResourcePage>;
  /** One resource, by its URI and the template's variables; `not_found` when the caller has no such resource. */
  read: (ctx: ToolContext, uri: string, variables: Record<string, string>) => Promise<ResourceContents[]>;
  /** Completers by template variable. */
  complete?: Record<string, Completer>;
}

/** At most this many values go back in one completion (MCP's own cap). */
export const maxCompletionValues = 100;

export function defineResource(definition: ResourceDefinition): ResourceDefinition {
  return definition;
}

export function describeResource(resource: ResourceDefinition): ResourceDescriptor {
  return {
    name: resource.name,
    uriTemplate: resource.uriTemplate,
    ...(resource.title ? { title: resource.title } : {}),
    description: resource.description,
    ...(resource.mimeType ? { mimeType: resource.mimeType } : {}),
    scope: resource.scope,
    lists: resource.list !== undefined,
    completes: Object.keys(resource.complete ?? {}),
  };
}
