import { defineTool } from "@bancada/service-kit";
import type { DocsDb } from "../db/client.js";
import { getDocuments } from "../domain/get-documents.js";
import { getDocumentsInput, getDocumentsResult } from "../domain/schemas.js";
import { readOnlyCorpus } from "./annotations.js";

export const getDocumentsTool = (db: DocsDb) =>
  defineTool({
    name: "get_documents",
    title: "Read documents",
    description:
      "Use this tool to retrieve the full content of one document or of up to 20 documents in a single call. Read-only. " +
      "Take the names from the parent field of search_documents results or from the references returned by answer_query " +
      "(format documents/{uri_without_scheme}, e.g. documents/docs.cloud.google.com/storage/docs/creating-buckets). " +
      "Documents come back in the order of names (repeats included), each with name, uri, title, description and content in Markdown. " +
      "An unknown name fails the call with not_found listing every missing name; documents too large to return together (over about 8 MB) " +
      "fail with payload_too_large and their sizes: ask for fewer at once. Cite the source documents you use in your final answer.",
    input: getDocumentsInput,
    output: getDocumentsResult,
    annotations: readOnlyCorpus,
    scope: "docs:read",
    profile: "core",
    handler: async (_ctx, input) => ({ documents: await getDocuments(db, input.names) }),
  });
