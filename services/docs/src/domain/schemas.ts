/** The tools' shapes and limits (docs/docs.md), shared by the MCP tools and the REST routes. */
import { z } from "zod";
import { maxReplyBytes } from "@bancada/service-kit";

export const limits = {
  queryMax: 1_000,
  pageSizeMax: 50,
  pageSizeDefault: 10,
  pageTokenMax: 512,
  namesMax: 20,
  nameMax: 2_048,
  uriMax: 2_000,
  titleMax: 500,
  descriptionMax: 2_000,
  /** A document's text, 1 MiB like a file (docs/docs.md#errors); over it: payload_too_large. */
  contentMax: 1_048_576,
  batchMax: 100,
  /**
   * One get_documents reply, JSON-encoded: the tool host's answer limit less room for the envelope. Any one
   * document (≤ 1 MiB of text, at most 6 bytes a character once escaped) fits; twenty large ones may not.
   */
  replyBytesMax: maxReplyBytes - 64 * 1024,
} as const;

/** The size of a value as it travels: UTF-8 bytes of its JSON. */
export function encodedBytes(value: unknown): number {
  return Buffer.byteLength(JSON.stringify(value), "utf8");
}

/**
 * Control characters other than tab and line breaks say the text is not a query but garbage or an attack.
 * These checks are refinements, not JSON-Schema patterns, so that the caller gets the sentence below
 * (from the service) rather than the gateway's "must match pattern …".
 */
const controlCharacter = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/;
const noControl = (schema: z.ZodString) =>
  schema.refine((value) => !controlCharacter.test(value), "must not contain control characters (tab and line breaks are fine)");

const query = noControl(z.string().min(1).max(limits.queryMax)).refine((value) => /\S/.test(value), "must contain at least one word");

const documentName = noControl(z.string().max(limits.nameMax))
  .refine(
    (value) => /^documents\/\S+$/.test(value),
    "must be a document name: documents/{uri without scheme}, e.g. documents/docs.example.com/guide/start",
  )
  .describe("A document name as returned in `parent` by search_documents or in `references[].name` by answer_query.");

export const searchDocumentsInput = z.strictObject({
  query: query.describe(
    'What to look for, 1 to 1,000 characters, in English or Portuguese. Web-search syntax: "exact phrase", -excluded, a OR b. ' +
      "A misspelt word is corrected to the closest word of the corpus when nothing matches as typed.",
  ),
  pageSize: z
    .number()
    .int()
    .min(1)
    .max(limits.pageSizeMax)
    .default(limits.pageSizeDefault)
    .describe("Results per page, 1 to 50 (default 10)."),
  pageToken: noControl(z.string().min(1).max(limits.pageTokenMax))
    .optional()
    .describe("The nextPageToken of the previous page, with the same query, for the next page."),
});
export type SearchDocumentsInput = z.infer<typeof searchDocumentsInput>;

const searchResult = z.object({
  parent: z.string().describe("The document's name: pass it to get_documents for the whole page."),
  id: z.string().describe("The matching chunk (section) of the document."),
  title: z.string(),
  uri: z.string(),
  content: z.string().describe("The section's heading path and a highlighted excerpt (**matches** in bold)."),
});
export type SearchResult = z.infer<typeof searchResult>;

export const searchDocumentsResult = z.object({
  results: z.array(searchResult),
  nextPageToken: z.string().optional().describe("Present when more results exist: pass it as pageToken with the same query."),
});
export type SearchDocumentsResult = z.infer<typeof searchDocumentsResult>;

export const getDocumentsInput = z.strictObject({
  names: z
    .array(documentName)
    .min(1)
    .max(limits.namesMax)
    .describe("1 to 20 document names (documents/{uri_without_scheme}); the documents come back in this order, repeats included."),
});

const documentView = z.object({
  name: z.string().describe("documents/{uri_without_scheme}"),
  uri: z.string(),
  content: z.string().describe("The document in Markdown."),
  description: z.string(),
  title: z.string(),
});
export type DocumentView = z.infer<typeof documentView>;

export const getDocumentsResult = z.object({ documents: z.array(documentView) });

export const answerQueryInput = z.strictObject({
  query: query.describe("A question about the documentation, 1 to 1,000 characters, in English or Portuguese."),
});
export type AnswerQueryInput = z.infer<typeof answerQueryInput>;

const reference = z.object({
  name: z.string().describe("The cited document's name: pass it to get_documents."),
  uri: z.string(),
  title: z.string(),
  excerpt: z.string().describe("The passage the answer quotes from this document."),
});
export type Reference = z.infer<typeof reference>;

export const answerQueryResult = z.object({
  answer: z
    .string()
    .describe("Sentences quoted from the documentation; each quote ends with [n], the number of its entry in references (1-based)."),
  references: z.array(reference).describe("The cited documents; empty when nothing relevant was found."),
});
export type AnswerQueryResult = z.infer<typeof answerQueryResult>;

/** REST ingestion: one document as a publisher sends it. Title and description default to what the content says. */
const documentUpsert = z.strictObject({
  uri: noControl(z.string().min(1).max(limits.uriMax)).describe("The page's http(s) URI; its name is documents/{uri without scheme}."),
  content: z
    .string()
    .max(limits.contentMax)
    .regex(/^[^\u0000]*$/, "must not contain NUL (\\u0000) characters")
    .describe("The page in Markdown (or HTML with format: html), front matter allowed, up to 1,048,576 characters."),
  format: z.enum(["markdown", "html"]).default("markdown"),
  title: noControl(z.string().min(1).max(limits.titleMax)).optional(),
  description: noControl(z.string().max(limits.descriptionMax)).optional(),
});

export const upsertDocumentsInput = z.strictObject({
  documents: z.array(documentUpsert).min(1).max(limits.batchMax),
});
export type UpsertDocumentsInput = z.infer<typeof upsertDocumentsInput>;

export const deleteDocumentsInput = z.strictObject({
  names: z.array(documentName).min(1).max(limits.batchMax),
});
