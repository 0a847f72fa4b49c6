import { defineTool } from "@bancada/service-kit";
import type { Scripts } from "../domain/context.js";
import { updateScript } from "../domain/update-script.js";
import { scriptResult, updateScriptInput } from "../domain/schemas.js";
import { closedWorld, scriptsContext } from "./context.js";

export const updateScriptTool = (scripts: Scripts) =>
  defineTool({
    name: "update_script",
    title: "Replace a script",
    description:
      "Replaces title, text and status of an active script. Marked destructive because it overwrites the text. Requires scripts:write. " +
      "`revision` must be the one read with get_script; otherwise the call fails with conflict and the saved version in error.details.current: re-read it and preserve the user's changes.",
    input: updateScriptInput,
    output: scriptResult,
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, ...closedWorld },
    scope: "scripts:write",
    handler: async (ctx, input) => ({ script: await updateScript(scriptsContext(scripts, ctx), input) }),
  });
