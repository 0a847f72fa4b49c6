/**
 * The OAuth consent page (/oauth/consent/<uid>): "<client> (<host>) wants to act for you in Bancada". The person
 * signs in with one of their keys (the console's sign-in, replaceable by another login later), picks what to grant
 * — scopes in plain words, writes, boards, an expiry — never more than that key holds, and approves or denies.
 */
import { useState, type FormEvent, type ReactNode } from "react";
import { ApiError, api, storedKey } from "../api";
import { answerConsent, consentDetails, type ConsentDetails } from "../consent-api";
import { hasLabel, t } from "../i18n";
import type { Board } from "../boards-types";
import type { Session } from "../session";
import { ErrorNote, ScopeChoice, Status, useAction, useLoad } from "../ui";
import { SignIn } from "./sign-in";

export function ConsentPage({ uid }: { uid: string }): ReactNode {
  const details = useLoad(() => consentDetails(uid), [uid]);
  const [session, setSession] = useState<Session | null>(null);
  const checked = useLoad(async () => (storedKey() ? api<Session>("GET", "/v1/session").catch(() => null) : null), []);
  const current = session ?? checked.data ?? null;
  const deny = useAction();

  async function denied() {
    await deny.run(async () => window.location.assign(await answerConsent(uid, "deny")));
  }

  return (
    <main className="consent">
      <h1>{t("appName")}</h1>
      <Status state={details}>
        {(asked) => (
          <section aria-labelledby="consent-title">
            <h2 id="consent-title">{t("consent.title", { client: asked.client.name, host: asked.client.host || asked.client.id })}</h2>
            <p>{t("consent.intro")}</p>
            {current ? (
              <ConsentForm uid={uid} asked={asked} session={current} onDeny={() => void denied()} />
            ) : checked.data === undefined ? (
              <p aria-live="polite">{t("loading")}</p>
            ) : (
              <>
                <SignIn notice={t("consent.signInFirst")} onSignedIn={setSession} />
                <button type="button" className="secondary" onClick={() => void denied()}>
                  {t("consent.deny")}
                </button>
              </>
            )}
            <ErrorNote error={deny.error} />
          </section>
        )}
      </Status>
    </main>
  );
}

function ConsentForm({
  uid,
  asked,
  session,
  onDeny,
}: {
  uid: string;
  asked: ConsentDetails;
  session: Session;
  onDeny: () => void;
}): ReactNode {
  const grantable = asked.requestedScopes.filter((scope) => session.scopes.includes(scope));
  const [chosen, setChosen] = useState<string[]>(grantable);
  const [writes, setWrites] = useState(false);
  const [onlySome, setOnlySome] = useState(session.allowedBoardIds !== null);
  const [boardIds, setBoardIds] = useState<string[]>([]);
  const [expires, setExpires] = useState(() => dayAfter(asked.defaultDays, session.key?.expiresAt ?? null));
  const boards = useLoad(
    async () => (session.scopes.includes("boards:read") ? (await api<{ boards: Board[] }>("GET", "/v1/boards")).boards : []),
    [],
  );
  const approve = useAction();

  async function submit(event: FormEvent) {
    event.preventDefault();
    await approve.run(async () => {
      const redirectTo = await answerConsent(uid, {
        scopes: chosen,
        allowWrites: writes,
        allowedBoardIds: onlySome ? boardIds : null,
        expiresAt: new Date(`${expires}T23:59:59`).toISOString(),
      });
      window.location.assign(redirectTo);
    });
  }

  const reachable = (boards.data ?? []).filter((board) => session.allowedBoardIds === null || session.allowedBoardIds.includes(board.id));
  return (
    <form className="stack-form" onSubmit={(event) => void submit(event)} aria-labelledby="consent-choose">
      <h3 id="consent-choose">{t("consent.choose")}</h3>
      <fieldset>
        <legend>{t("consent.scopes")}</legend>
        <ScopeChoice
          scopes={asked.requestedScopes}
          held={session.scopes}
          chosen={chosen}
          setChosen={setChosen}
          describe={(scope, held) => (
            <>
              {scopeLabel(scope)} <code>{scope}</code>
              {held ? null : <small> ({t("missingScope", { scope })})</small>}
            </>
          )}
        />
      </fieldset>
      <label className="check">
        <input type="checkbox" checked={writes} disabled={!session.allowWrites} onChange={(e) => setWrites(e.target.checked)} />{" "}
        {t("consent.allowWrites")}
        {session.allowWrites ? null : <small> ({t("noWrites")})</small>}
      </label>
      <fieldset>
        <legend>{t("consent.boards")}</legend>
        <label className="check">
          <input
            type="radio"
            name="boards"
            checked={!onlySome}
            disabled={session.allowedBoardIds !== null}
            onChange={() => setOnlySome(false)}
          />{" "}
          {t("consent.allBoards")}
        </label>
        <label className="check">
          <input type="radio" name="boards" checked={onlySome} onChange={() => setOnlySome(true)} /> {t("consent.someBoards")}
        </label>
        {onlySome
          ? reachable.map((board) => (
              <label key={board.id} className="check nested">
                <input
                  type="checkbox"
                  checked={boardIds.includes(board.id)}
                  onChange={(e) => setBoardIds((list) => (e.target.checked ? [...list, board.id] : list.filter((id) => id !== board.id)))}
                />{" "}
                {board.name}
              </label>
            ))
          : null}
      </fieldset>
      <label htmlFor="consent-expires">{t("consent.expires")}</label>
      <input id="consent-expires" type="date" required value={expires} onChange={(e) => setExpires(e.target.value)} />
      <div className="actions">
        <button type="submit" disabled={approve.busy || chosen.length === 0}>
          {t("consent.approve")}
        </button>{" "}
        <button type="button" className="secondary" onClick={onDeny}>
          {t("consent.deny")}
        </button>
      </div>
      <ApprovalError error={approve.error} />
    </form>
  );
}

/** The refusal, with each excess the server named on its own line. */
function ApprovalError({ error }: { error: unknown }): ReactNode {
  if (!error) return null;
  const issues = error instanceof ApiError ? ((error.details?.issues as { path: string; message: string }[] | undefined) ?? []) : [];
  return (
    <div className="error">
      <ErrorNote error={error} />
      {issues.length > 0 ? (
        <ul>
          {issues.map((issue) => (
            <li key={issue.path}>
              <code>{issue.path}</code>: {issue.message}
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}

function scopeLabel(scope: string): string {
  const key = `scope.${scope}`;
  return hasLabel(key) ? t(key) : scope;
}

/** yyyy-mm-dd `days` from today, no later than the key's own expiry. */
function dayAfter(days: number, keyExpiry: string | null): string {
  let at = Date.now() + days * 86_400_000;
  if (keyExpiry) at = Math.min(at, Date.parse(keyExpiry) - 86_400_000);
  return new Date(at).toISOString().slice(0, 10);
}
