/** What the signed-in key may do (GET /v1/session), and why an area is closed to it. */
import { createContext, useContext } from "react";
import { t } from "./i18n";

export interface KeyView {
  id: string;
  prefix: string;
  label: string;
  scopes: string[];
  allowWrites: boolean;
  allowedBoardIds: string[] | null;
  createdAt: string;
  lastUsedAt: string | null;
  expiresAt: string | null;
  revokedAt: string | null;
  current: boolean;
}

export interface Session {
  key: KeyView | null;
  accountId: string;
  personId: string;
  scopes: string[];
  allowWrites: boolean;
  allowedBoardIds: string[] | null;
  allScopes: string[];
}

export const SessionContext = createContext<Session | null>(null);

export function useSession(): Session {
  const session = useContext(SessionContext);
  if (!session) throw new Error("no session");
  return session;
}

/** Null when the key holds `scope` (and may write, for a write); else the reason, to show beside the disabled control. */
export function refusal(session: Session, scope: string, writes = false): string | null {
  if (!session.scopes.includes(scope)) return t("missingScope", { scope });
  if (writes && !session.allowWrites) return t("noWrites");
  return null;
}
