import { defineTool } from "@bancada/service-kit";
import type { DraftsDeps } from "../domain/context.js";
import { draftResult, submitDraftInput } from "../domain/schemas.js";
import { submitDraft } from "../domain/submit-draft.js";
import { draftsContext, writeAnnotations } from "./context.js";

export const submitContentDraftTool = (deps: DraftsDeps) =>
  defineTool({
    name: "sosoapi_submit_content_draft",
    title: "Submit a draft",
    description:
      "Hands a draft to the publishing pipeline and returns at once with state submitting. That is an acceptance, not a confirmation: " +
      "read the outcome with sosoapi_get_content_draft (state submitted, or back to draft with submit_error saying why, e.g. no account, " +
      "caption too long for X). Requires editor or above, expected_revision and a fresh request_id (a retry with it returns the same answer).",
    input: submitDraftInput,
    output: draftResult,
    annotations: writeAnnotations,
    scope: "drafts:write",
    profile: "full",
    handler: async (ctx, input) => ({ draft: await submitDraft(draftsContext(deps, ctx), input) }),
  });
