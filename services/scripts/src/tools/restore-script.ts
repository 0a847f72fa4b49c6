import { defineTool } from "@bancada/service-kit";
import type { Scripts } from "../domain/context.js";
import { restoreScript } from "../domain/update-script.js";
import { revisionedRef, scriptResult } from "../domain/schemas.js";
import { closedWorld, scriptsContext } from "./context.js";

export const restoreScriptTool = (scripts: Scripts) =>
  defineTool({
    name: "restore_script",
    title: "Restore a script from the trash",
    description: "Restores a script from the trash. Requires scripts:write. `revision` is the trashed script's current revision.",
    input: revisionedRef,
    output: scriptResult,
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, ...closedWorld },
    scope: "scripts:write",
    handler: async (ctx, input) => ({ script: await restoreScript(scriptsContext(scripts, ctx), input) }),
  });
