import { defineTool } from "@bancada/service-kit";
import type { DocsDb } from "../db/client.js";
import { searchDocuments } from "../domain/search-documents.js";
import { searchDocumentsInput, searchDocumentsResult } from "../domain/schemas.js";
import { readOnlyCorpus } from "./annotations.js";

export const searchDocumentsTool = (db: DocsDb) =>
  defineTool({
    name: "search_documents",
    title: "Search the documentation",
    description:
      "Searches the developer-documentation corpus and returns the best-matching section of each page, best first. Read-only. " +
      'Query syntax as in web search: words (all must match), "exact phrase", -excluded, a OR b; English and Portuguese both work, accents optional. ' +
      "A page's exact title finds that page first. If the words as typed match nothing, misspelt words are corrected to the corpus's closest words. " +
      "Each result has parent (the document name), id (the section), title, uri and content (heading path and an excerpt, matches in **bold**). " +
      "To read a whole page, pass parent to get_documents. More results: call again with pageToken = nextPageToken and the same query.",
    input: searchDocumentsInput,
    output: searchDocumentsResult,
    annotations: readOnlyCorpus,
    scope: "docs:read",
    profile: "core",
    handler: (_ctx, input) => searchDocuments(db, input),
  });
