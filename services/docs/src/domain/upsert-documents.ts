/** REST batch upsert: validates and prepares every document first (nothing is written if one is bad), then writes the batch. */
import { DomainError, ErrorCode, invalidArgument } from "@bancada/contracts";
import type { DocsDb } from "../db/client.js";
import { prepareDocument, type PreparedDocument } from "./prepare-document.js";
import type { UpsertDocumentsInput } from "./schemas.js";
import { writeDocuments, type WriteOutcome } from "./write-documents.js";

export interface UpsertSummary {
  results: WriteOutcome[];
  created: number;
  updated: number;
  unchanged: number;
}

export async function upsertDocuments(db: DocsDb, input: UpsertDocumentsInput): Promise<UpsertSummary> {
  const prepared: PreparedDocument[] = input.documents.map((document, index) => {
    try {
      return prepareDocument(document);
    } catch (error) {
      throw withPrefix(error, `documents[${index}]`);
    }
  });
  const results = await writeDocuments(db, prepared);
  const count = (status: WriteOutcome["status"]) => results.filter((result) => result.status === status).length;
  return { results, created: count("created"), updated: count("updated"), unchanged: count("unchanged") };
}

/** Validation issues of one document, re-addressed to its place in the batch (documents[3].content). */
function withPrefix(error: unknown, prefix: string): unknown {
  const tooLarge = error instanceof DomainError && error.code === ErrorCode.payloadTooLarge;
  if (!(error instanceof DomainError) || (!tooLarge && error.code !== ErrorCode.invalidArgument)) return error;
  const issues = (error.details?.issues ?? []) as { path: string; message: string }[];
  return invalidArgument(
    issues.map((issue) => ({ path: `${prefix}.${issue.path}`, message: issue.message, ...(tooLarge ? { tooLarge } : {}) })),
  );
}
