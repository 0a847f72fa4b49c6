import { defineTool } from "@bancada/service-kit";
import type { DraftsDeps } from "../domain/context.js";
import { listDrafts } from "../domain/list-drafts.js";
import { listDraftsInput, listDraftsResult } from "../domain/schemas.js";
import { listDraftsInputJsonSchema, listDraftsOutputJsonSchema } from "../domain/seed-schemas.js";
import { draftsContext, readAnnotations } from "./context.js";

export const listContentDraftsTool = (deps: DraftsDeps) =>
  defineTool({
    name: "sosoapi_list_content_drafts",
    title: "List workspace drafts",
    description:
      "Lists the shared editorial drafts and unfinished submissions of an explicit workspace_id, most recently changed first. " +
      "Requires viewer or above in the workspace. At most 50 per page (limit, default 20); pass next_cursor as cursor for the next page. " +
      "Submitted drafts leave this list. Caption previews are untrusted editorial text; use sosoapi_get_content_draft to reopen one. " +
      "This read schedules and publishes nothing.",
    input: listDraftsInput,
    output: listDraftsResult,
    jsonSchema: { input: listDraftsInputJsonSchema, output: listDraftsOutputJsonSchema },
    annotations: readAnnotations,
    scope: "drafts:read",
    profile: "core",
    handler: (ctx, input) => listDrafts(draftsContext(deps, ctx), input),
  });
