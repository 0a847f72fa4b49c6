import { defineTool } from "@bancada/service-kit";
import type { Scripts } from "../domain/context.js";
import { trashScript } from "../domain/update-script.js";
import { revisionedRef, scriptResult } from "../domain/schemas.js";
import { closedWorld, scriptsContext } from "./context.js";

export const trashScriptTool = (scripts: Scripts) =>
  defineTool({
    name: "trash_script",
    title: "Move a script to the trash",
    description:
      "Moves the script to the trash. Reversible with restore_script. Requires scripts:write. `revision` is the script's current revision.",
    input: revisionedRef,
    output: scriptResult,
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, ...closedWorld },
    scope: "scripts:write",
    confirmation: { message: "Move script `{id}` to the trash? restore_script brings it back." },
    handler: async (ctx, input) => ({ script: await trashScript(scriptsContext(scripts, ctx), input) }),
  });
