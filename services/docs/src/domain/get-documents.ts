/**
 * get_documents: whole documents by name, in the order asked, repeats kept (docs/docs.md#tools). The corpus is
 * shared by every key with docs:read, so there is no per-account filter. Any unknown name fails the
 * call with not_found listing every missing name, so a caller can fix all of them at once. A reply too
 * large for the bus is payload_too_large with each document's size, so the caller can split the call.
 */
import { DomainError, ErrorCode } from "@bancada/contracts";
import type { DocsDb } from "../db/client.js";
import { encodedBytes, limits, type DocumentView } from "./schemas.js";

export async function getDocuments(db: DocsDb, names: string[]): Promise<DocumentView[]> {
  const unique = [...new Set(names)];
  const rows = await db.document.findMany({
    where: { name: { in: unique } },
    select: { name: true, uri: true, content: true, description: true, title: true },
  });
  const byName = new Map(rows.map((row) => [row.name, row]));
  const missing = unique.filter((name) => !byName.has(name));
  if (missing.length) {
    const shown = missing.slice(0, 5).join(", ") + (missing.length > 5 ? `, and ${missing.length - 5} more` : "");
    throw new DomainError(
      ErrorCode.notFound,
      `${missing.length === 1 ? "This document does" : `${missing.length} documents do`} not exist: ${shown}. ` +
        "Take names from search_documents (parent) or answer_query (references[].name).",
      { missing },
    );
  }
  const documents = names.map((name) => byName.get(name)!);
  refuseOversizedReply(documents);
  return documents;
}

/** Every document fits in a reply on its own (see limits.documentBytesMax); many large ones together may not. */
function refuseOversizedReply(documents: DocumentView[]): void {
  const sizes = documents.map((document) => ({ name: document.name, bytes: encodedBytes(document) }));
  const total = sizes.reduce((sum, size) => sum + size.bytes, 0);
  if (total <= limits.replyBytesMax) return;
  throw new DomainError(
    ErrorCode.payloadTooLarge,
    `These ${documents.length} documents hold ${total} bytes together, more than one reply carries (${limits.replyBytesMax}); ask for fewer names per call.`,
    { bytes: total, limitBytes: limits.replyBytesMax, sizes },
  );
}
