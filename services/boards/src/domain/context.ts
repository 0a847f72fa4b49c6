import type { Principal } from "@bancada/contracts";
import type { BoardsDb, BoardsTx } from "../db/client.js";
import { inSession } from "../db/session.js";

/**
 * What a use case needs: the database and who acts (the account, the person within it, the agent label,
 * the key's board allowlist). A person is (accountId, personId): the same person id in two accounts is
 * two people.
 */
export interface BoardsContext {
  db: BoardsDb;
  accountId: string;
  personId: string;
  agentId: string;
  allowedBoardIds: readonly string[] | null;
}

export function boardsContext(db: BoardsDb, principal: Principal): BoardsContext {
  return {
    db,
    accountId: principal.accountId,
    personId: principal.personId,
    agentId: principal.agentId,
    allowedBoardIds: principal.allowedBoardIds,
  };
}

/** Runs `work` in one transaction under the caller's row-level-security identity. */
export function session<T>(ctx: BoardsContext, work: (tx: BoardsTx) => Promise<T>): Promise<T> {
  return inSession(ctx.db, { accountId: ctx.accountId, personId: ctx.personId, allowedBoardIds: ctx.allowedBoardIds }, work);
}
