import { defineTool } from "@bancada/service-kit";
import type { Scripts } from "../domain/context.js";
import { listScripts } from "../domain/list-scripts.js";
import { listScriptsInput, listScriptsResult } from "../domain/schemas.js";
import { closedWorld, scriptsContext } from "./context.js";

export const listScriptsTool = (scripts: Scripts) =>
  defineTool({
    name: "list_scripts",
    title: "List scripts",
    description:
      "Lists and searches the account's scripts, most recently changed first. Read-only. " +
      "`query` matches title and text, case-insensitively. Returns { scripts, hasMore, nextOffset }; items carry a preview, not the full text (use get_script). " +
      "For incremental sync, use the REST change feed.",
    input: listScriptsInput,
    output: listScriptsResult,
    annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, ...closedWorld },
    scope: "scripts:read",
    profile: "core",
    handler: (ctx, input) => listScripts(scriptsContext(scripts, ctx), input),
  });
