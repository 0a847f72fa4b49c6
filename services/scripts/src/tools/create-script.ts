import { defineTool } from "@bancada/service-kit";
import type { Scripts } from "../domain/context.js";
import { createScript } from "../domain/create-script.js";
import { createScriptInput, scriptResult } from "../domain/schemas.js";
import { closedWorld, scriptsContext } from "./context.js";

export const createScriptTool = (scripts: Scripts) =>
  defineTool({
    name: "create_script",
    title: "Create a script",
    description:
      "Saves a new script in the library. Requires scripts:write. Write the text in the agent first, then save it here. " +
      "Pass an idempotencyKey (UUID) so that a retry returns the first result instead of creating a second script.",
    input: createScriptInput,
    output: scriptResult,
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, ...closedWorld },
    scope: "scripts:write",
    handler: async (ctx, input) => ({ script: await createScript(scriptsContext(scripts, ctx), input) }),
  });
