import { defineTool } from "@bancada/service-kit";
import type { DraftsDeps } from "../domain/context.js";
import { getDraft } from "../domain/get-draft.js";
import { draftResult, getDraftInput } from "../domain/schemas.js";
import { draftsContext, readAnnotations, untrusted } from "./context.js";

export const getContentDraftTool = (deps: DraftsDeps) =>
  defineTool({
    name: "sosoapi_get_content_draft",
    title: "Open a draft",
    description:
      "Reopens one draft of a workspace in full: caption, social accounts, asset metadata (never the bytes), revision, state and submit_error. " +
      "Requires viewer or above. After sosoapi_submit_content_draft, read the outcome here: state submitted, or draft with submit_error. " +
      untrusted,
    input: getDraftInput,
    output: draftResult,
    annotations: readAnnotations,
    scope: "drafts:read",
    profile: "core",
    handler: async (ctx, input) => ({ draft: await getDraft(draftsContext(deps, ctx), input) }),
  });
