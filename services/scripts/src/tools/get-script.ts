import { defineTool } from "@bancada/service-kit";
import type { Scripts } from "../domain/context.js";
import { getScript } from "../domain/get-script.js";
import { getScriptInput, scriptResult } from "../domain/schemas.js";
import { closedWorld, scriptsContext } from "./context.js";

export const getScriptTool = (scripts: Scripts) =>
  defineTool({
    name: "get_script",
    title: "Read a script",
    description:
      "Reads one script, including revision and deletedAt; also finds scripts in the trash. Read-only. Returns { script } or the error not_found.",
    input: getScriptInput,
    output: scriptResult,
    annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, ...closedWorld },
    scope: "scripts:read",
    profile: "core",
    handler: async (ctx, input) => ({ script: await getScript(scriptsContext(scripts, ctx), input.id) }),
  });
