import { defineTool } from "@bancada/service-kit";
import type { DraftsDeps } from "../domain/context.js";
import { createDraft } from "../domain/create-draft.js";
import { createDraftInput, draftResult } from "../domain/schemas.js";
import { draftsContext, untrusted, writeAnnotations } from "./context.js";

export const createContentDraftTool = (deps: DraftsDeps) =>
  defineTool({
    name: "sosoapi_create_content_draft",
    title: "Start a draft",
    description:
      "Starts a shared draft in a workspace with an optional caption (up to 2,200 characters) and social accounts ('<network>:<handle>', at most 50). " +
      "Requires editor or above. Pass a fresh request_id (UUID): a retry with the same request_id returns the same draft. Publishes nothing. " +
      untrusted,
    input: createDraftInput,
    output: draftResult,
    annotations: writeAnnotations,
    scope: "drafts:write",
    profile: "full",
    handler: async (ctx, input) => ({ draft: await createDraft(draftsContext(deps, ctx), input) }),
  });
