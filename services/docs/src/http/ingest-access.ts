/**
 * Who may change the shared corpus over REST. The contract has one docs scope, docs:read, which every
 * reader holds; letting any key that may write change documentation everyone reads would let one
 * tenant deface it for all. So writes need docs:read, allowWrites, and an account the operator lists
 * as a publisher (DOCS_INGEST_ACCOUNTS). The CLI ingests with database access and needs no key.
 */
import { DomainError, ErrorCode, type Principal } from "@bancada/contracts";
import { requireScope } from "@bancada/service-kit";

export function requireIngestAccess(principal: Principal, ingestAccounts: readonly string[]): void {
  requireScope(principal, "docs:read", true);
  if (!ingestAccounts.includes(principal.accountId)) {
    throw new DomainError(
      ErrorCode.permissionDenied,
      "This account may not change the shared documentation corpus: the operator lists publishing accounts in DOCS_INGEST_ACCOUNTS.",
      { accountId: principal.accountId },
    );
  }
}
