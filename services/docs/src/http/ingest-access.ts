/**
 * Who may change the shared corpus over REST. The contract has one docs scope, docs:read, which every
 * reader holds; letting any key that may write change documentation everyone reads would let one
 * tenant deface it for all. So writes need docs:read, allowWrites, and an account the operator lists
 * as a publisher (DOCS_INGEST_ACCOUNTS). No tool ingests, so these routes declare their own access.
 * The CLI ingests with database access and needs no key.
 */
import type { Request } from "express";
import { DomainError, ErrorCode, restAccess } from "@bancada/contracts";
import { authorizedPrincipal } from "@bancada/service-kit";

export const ingesting = restAccess({ scope: "docs:read", writes: true });

export function requireIngestAccess(req: Request, ingestAccounts: readonly string[]): void {
  const principal = authorizedPrincipal(req, ingesting);
  if (!ingestAccounts.includes(principal.accountId)) {
    throw new DomainError(
      ErrorCode.permissionDenied,
      "This account may not change the shared documentation corpus: the operator lists publishing accounts in DOCS_INGEST_ACCOUNTS.",
      { accountId: principal.accountId },
    );
  }
}
