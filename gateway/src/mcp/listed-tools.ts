/**
 * The tools/list answer for one kind of access, built once per catalog version: keys with the same scopes,
 * writes flag, transport and view see the same list, so the filter and the descriptor copies are not
 * redone on every request (building the answer costs nothing; the SDK's per-request work around it does).
 */
import type { Tool } from "@modelcontextprotocol/server";
import type { Catalog, CatalogTool } from "../catalog.js";
import { isListed } from "../visibility.js";
import type { Caller } from "./caller.js";

export class ListedTools {
  readonly #catalog: Catalog;
  readonly #outputSchemas: boolean;
  #builtFrom: readonly CatalogTool[] | undefined;
  readonly #byAccess = new Map<string, Tool[]>();

  constructor(catalog: Catalog, outputSchemas: boolean) {
    this.#catalog = catalog;
    this.#outputSchemas = outputSchemas;
  }

  for(caller: Caller, modern = false): Tool[] {
    const tools = this.#catalog.tools();
    if (tools !== this.#builtFrom) {
      this.#byAccess.clear();
      this.#builtFrom = tools;
    }
    const { principal, transport, view } = caller;
    const key = `${modern ? "m" : "l"}|${transport}|${view}|${principal.allowWrites}|${principal.scopes.join(" ")}`;
    let listed = this.#byAccess.get(key);
    if (!listed) {
      const seen = { ...principal, profile: view === "core" ? ("core" as const) : ("full" as const) };
      listed = tools
        .filter((tool) => isListed(tool.descriptor, seen, transport))
        .map(({ descriptor }) => mcpTool(descriptor, this.#outputSchemas, !modern));
      if (this.#byAccess.size > 1_000) this.#byAccess.clear();
      this.#byAccess.set(key, listed);
    }
    return listed;
  }
}

function mcpTool(descriptor: CatalogTool["descriptor"], outputSchemas: boolean, taskSupport = false): Tool {
  return {
    name: descriptor.name,
    ...(descriptor.title ? { title: descriptor.title } : {}),
    description: descriptor.description,
    inputSchema: descriptor.inputSchema as Tool["inputSchema"],
    ...(outputSchemas && descriptor.outputSchema ? { outputSchema: descriptor.outputSchema as Tool["outputSchema"] } : {}),
    annotations: descriptor.annotations,
    ...(taskSupport && descriptor.taskSupport ? { execution: { taskSupport: descriptor.taskSupport } } : {}),
  };
}
