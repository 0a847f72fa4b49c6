import type { ScriptsDb } from "../db/client.js";

/** What a use case needs: the database and who acts. Every query is scoped by `accountId`. */
export interface ScriptsContext {
  db: ScriptsDb;
  accountId: string;
  personId: string;
}
