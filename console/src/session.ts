/** What the signed-in key may do (GET /v1/session), and why an area is closed to it. */
import { createContext, useContext } from "react";
import type { JsonAnswer } from "./api-answers";
import { t } from "./i18n";

/** The answers of GET /v1/session and GET /v1/keys, as the gateway declares them (api-types.ts is generated). */
export type Session = JsonAnswer<"/v1/session", "get">;
export type KeyView = JsonAnswer<"/v1/keys", "get">["keys"][number];

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
