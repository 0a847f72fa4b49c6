/**
 * Every query of a request runs in one transaction that first tells PostgreSQL who is asking:
 * the account (the tenant), the person within it, the key's board allowlist, and the restricted role `bancada_boards_app`. From then on
 * the row-level security policies of the init migration decide which rows exist; a query that
 * forgets its board filter still cannot reach another board. The settings are transaction-local
 * (`true`), so a pooled connection never carries them into the next request.
 */
import type { BoardsDb, BoardsTx } from "./client.js";

const appRole = "bancada_boards_app";
const systemRole = "bancada_boards_system";

export interface SessionIdentity {
  /** The tenant: a person id means a person only together with it. */
  accountId: string;
  personId: string;
  /** null: every board the person is a member of. */
  allowedBoardIds: readonly string[] | null;
}

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The `app.allowed_boards` setting: `*` or the comma-separated ids (an id that is no UUID can match no board). */
function allowedBoardsSetting(allowed: readonly string[] | null): string {
  if (allowed === null) return "*";
  return allowed
    .filter((id) => uuidPattern.test(id))
    .map((id) => id.toLowerCase())
    .join(",");
}

export async function inSession<T>(db: BoardsDb, who: SessionIdentity, work: (tx: BoardsTx) => Promise<T>): Promise<T> {
  return db.$transaction(
    async (tx) => {
      await tx.$executeRaw`SELECT set_config('app.account_id', ${who.accountId}, true),
                                  set_config('app.person_id', ${who.personId}, true),
                                  set_config('app.allowed_boards', ${allowedBoardsSetting(who.allowedBoardIds)}, true),
                                  set_config('role', ${appRole}, true)`;
      return work(tx);
    },
    { maxWait: 10_000, timeout: 30_000 },
  );
}

/** Maintenance work (expiry jobs) as the system role, which sees every row of the tables it may clean. */
export async function asSystem<T>(db: BoardsDb, work: (tx: BoardsTx) => Promise<T>): Promise<T> {
  return db.$transaction(
    async (tx) => {
      await tx.$executeRaw`SELECT set_config('role', ${systemRole}, true)`;
      return work(tx);
    },
    { maxWait: 10_000, timeout: 120_000 },
  );
}
