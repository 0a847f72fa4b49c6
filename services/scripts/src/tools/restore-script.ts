import { defineTool } from "@bancada/service-kit";
import type { ScriptsDb } from "../db/client.js";
import { restoreScript } from "../domain/update-script.js";
import { revisionedRef, scriptResult } from "../domain/schemas.js";
import { closedWorld, scriptsContext } from "./context.js";

export const restoreScriptTool = (db: ScriptsDb) =>
  defineTool({
    name: "restore_script",
    title: "Restore a script from the trash",
    description: "Restores a script from the trash. Requires scripts:write. `revision` is the trashed script's current revision.",
    input: revisionedRef,
    output: scriptResult,
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, ...closedWorld },
    scope: "scripts:write",
    handler: async (ctx, input) => ({ script: await restoreScript(scriptsContext(db, ctx), input) }),
  });
