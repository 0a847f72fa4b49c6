/** The console: sign-in, then the areas the key may reach, routed by the URL's hash (#/boards/…). */
import { useCallback, useEffect, useState, type ReactNode } from "react";
import { api, onSignedOut, signOut, storedKey } from "./api";
import { t } from "./i18n";
import { consentUid } from "./consent-api";
import { InboxCountsProvider, useInboxCounts } from "./inbox-counts";
import { ActivityPage } from "./pages/activity";
import { BoardPage } from "./pages/board";
import { BoardsPage } from "./pages/boards";
import { BoxPage } from "./pages/box";
import { BoxesPage } from "./pages/boxes";
import { ConsentPage } from "./pages/consent";
import { DraftPage } from "./pages/draft";
import { DraftsPage, WorkspacePage } from "./pages/drafts";
import { InboxPage } from "./pages/inbox";
import { KeysPage } from "./pages/keys";
import { SignIn } from "./pages/sign-in";
import { SessionContext, refusal, type Session } from "./session";

type Area = { path: string; label: string; scope: string };

const areas = (): Area[] => [
  { path: "inbox", label: t("nav.inbox"), scope: "boards:read" },
  { path: "boards", label: t("nav.boards"), scope: "boards:read" },
  { path: "drafts", label: t("nav.drafts"), scope: "drafts:read" },
  { path: "boxes", label: t("nav.boxes"), scope: "boxes:read" },
  { path: "keys", label: t("nav.keys"), scope: "keys:read" },
  { path: "activity", label: t("nav.activity"), scope: "audit:read" },
];

function useHash(): string[] {
  const read = () =>
    window.location.hash
      .replace(/^#\/?/, "")
      .split("/")
      .filter(Boolean)
      .map((part) => decodeURIComponent(part));
  const [parts, setParts] = useState(read);
  useEffect(() => {
    const changed = () => setParts(read());
    window.addEventListener("hashchange", changed);
    return () => window.removeEventListener("hashchange", changed);
  }, []);
  return parts;
}

export function App(): ReactNode {
  // the OAuth consent page has a path of its own (/oauth/consent/<uid>): no navigation, its own sign-in
  const uid = consentUid();
  return uid ? <ConsentPage uid={uid} /> : <Console />;
}

function Console(): ReactNode {
  const [session, setSession] = useState<Session | null>(null);
  const [checking, setChecking] = useState(() => storedKey() !== null);
  const [notice, setNotice] = useState<string | null>(null);
  const route = useHash();

  const refresh = useCallback(async () => {
    if (!storedKey()) return setSession(null);
    try {
      setSession(await api<Session>("GET", "/v1/session"));
    } catch {
      // a 401 has signed out already (onSignedOut); anything else leaves the page as it is
    } finally {
      setChecking(false);
    }
  }, []);

  useEffect(
    () =>
      onSignedOut((reason) => {
        setSession(null);
        setNotice(reason === "revoked" ? t("signIn.revoked") : t("signIn.signedOut"));
      }),
    [],
  );
  // each navigation re-checks the key, so a revoked one signs out at the next step
  const routeKey = route.join("/");
  useEffect(() => {
    if (storedKey()) void refresh();
  }, [routeKey, refresh]);

  if (checking) return <p aria-live="polite">{t("loading")}</p>;
  if (!session)
    return (
      <SignIn
        notice={notice}
        onSignedIn={(next) => {
          setNotice(null);
          setSession(next);
          if (!window.location.hash) window.location.hash = "#/boards";
        }}
      />
    );

  const [area = "boards", id, sub] = route;
  return (
    <SessionContext.Provider value={session}>
      <InboxCountsProvider enabled={refusal(session, "boards:read") === null} refreshKey={routeKey}>
        <header className="top">
          <span className="brand">{t("appName")}</span>
          <nav aria-label={t("nav.main")}>
            <ul>
              {areas().map((entry) => {
                const reason = refusal(session, entry.scope);
                return (
                  <li key={entry.path}>
                    {reason ? (
                      <span className="nav-disabled" aria-disabled="true" title={reason}>
                        {entry.label} <small>({reason})</small>
                      </span>
                    ) : (
                      <a href={`#/${entry.path}`} aria-current={area === entry.path ? "page" : undefined}>
                        {entry.path === "inbox" ? <InboxLabel /> : entry.label}
                      </a>
                    )}
                  </li>
                );
              })}
            </ul>
          </nav>
          <span className="who">
            {t("signedInAs", { person: session.personId, account: session.accountId, key: session.key?.label ?? "" })}
          </span>
          <button type="button" onClick={() => signOut()}>
            {t("signOut")}
          </button>
        </header>
        <main>{page(session, area, id, sub)}</main>
      </InboxCountsProvider>
    </SessionContext.Provider>
  );
}

/** "Inbox", with the number of proposals waiting when there are any. */
function InboxLabel(): ReactNode {
  const { counts } = useInboxCounts();
  return counts && counts.total > 0 ? t("nav.inboxCount", { count: counts.total }) : t("nav.inbox");
}

function page(session: Session, area: string, id: string | undefined, sub: string | undefined): ReactNode {
  const closed = (scope: string) => {
    const reason = refusal(session, scope);
    return reason ? (
      <p className="reason" role="status">
        {reason}
      </p>
    ) : null;
  };
  switch (area) {
    case "inbox":
      return closed("boards:read") ?? <InboxPage />;
    case "drafts":
      if (id && sub) return closed("drafts:read") ?? <DraftPage key={`${id}/${sub}`} workspaceId={id} draftId={sub} />;
      return closed("drafts:read") ?? (id ? <WorkspacePage key={id} workspaceId={id} /> : <DraftsPage />);
    case "boxes":
      return closed("boxes:read") ?? (id ? <BoxPage key={id} boxId={id} /> : <BoxesPage />);
    case "keys":
      return closed("keys:read") ?? <KeysPage />;
    case "activity":
      return closed("audit:read") ?? <ActivityPage />;
    default:
      return closed("boards:read") ?? (id ? <BoardPage key={id} boardId={id} /> : <BoardsPage />);
  }
}
