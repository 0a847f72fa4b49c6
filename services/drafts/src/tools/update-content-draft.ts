import { defineTool } from "@bancada/service-kit";
import type { DraftsDeps } from "../domain/context.js";
import { draftResult, updateDraftInput } from "../domain/schemas.js";
import { updateDraft } from "../domain/update-draft.js";
import { draftsContext, untrusted, writeAnnotations } from "./context.js";

export const updateContentDraftTool = (deps: DraftsDeps) =>
  defineTool({
    name: "sosoapi_update_content_draft",
    title: "Edit a draft",
    description:
      "Changes a draft's caption, its social accounts (the whole list) and/or takes assets off it. Requires editor or above and the draft in state draft. " +
      "expected_revision must be the revision you read; if someone changed the draft since, the call fails with conflict and the current draft in " +
      "error.details.current: merge, keeping the other person's changes, then retry. request_id makes a retry safe. " +
      untrusted,
    input: updateDraftInput,
    output: draftResult,
    annotations: { ...writeAnnotations, destructiveHint: true },
    scope: "drafts:write",
    profile: "full",
    handler: async (ctx, input) => ({ draft: await updateDraft(draftsContext(deps, ctx), input) }),
  });
