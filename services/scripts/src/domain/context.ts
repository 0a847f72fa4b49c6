import type { ScriptsDb } from "../db/client.js";

/** What a use case needs: the database and who acts. Every query is scoped by `accountId`. */
export interface ScriptsContext {
  db: ScriptsDb;
  accountId: string;
  personId: string;
  /** Told after a script's change is committed (its MCP resource changed: clients subscribed to it are notified). */
  changed?: (accountId: string, scriptId: string) => void;
}

/** What the service's tools, resources and routes are made with: the database, and who hears of a changed script. */
export interface Scripts {
  db: ScriptsDb;
  changed: (accountId: string, scriptId: string) => void;
}
