/** Sign-in: the key goes to sessionStorage only after the gateway accepted it, and the field is cleared at once. */
import { useState, type FormEvent, type ReactNode } from "react";
import { ApiError, sessionOf, storeKey } from "../api";
import { t } from "../i18n";
import type { Session } from "../session";

export function SignIn({ notice, onSignedIn }: { notice: string | null; onSignedIn: (session: Session) => void }): ReactNode {
  const [key, setKey] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    const given = key.trim();
    setKey("");
    setBusy(true);
    setError(null);
    try {
      const session = await sessionOf<Session>(given);
      storeKey(given);
      onSignedIn(session);
    } catch (caught) {
      setError(caught instanceof ApiError && caught.status === 401 ? t("signIn.invalid") : (caught as Error).message);
    } finally {
      setBusy(false);
    }
  }

  return (
    <main className="sign-in">
      <h1>{t("appName")}</h1>
      <form onSubmit={(event) => void submit(event)} aria-labelledby="sign-in-title">
        <h2 id="sign-in-title">{t("signIn.title")}</h2>
        <p>{t("signIn.intro")}</p>
        {notice ? (
          <p className="notice" role="status">
            {notice}
          </p>
        ) : null}
        <label htmlFor="api-key">{t("signIn.key")}</label>
        <input
          id="api-key"
          name="api-key"
          type="password"
          autoComplete="off"
          spellCheck={false}
          required
          aria-describedby="sign-in-where"
          value={key}
          onChange={(event) => setKey(event.target.value)}
        />
        <button type="submit" disabled={busy}>
          {t("signIn.submit")}
        </button>
        <p className="hint" id="sign-in-where">
          {t("signIn.where")}
        </p>
        {error ? (
          <p className="error" role="alert">
            {error}
          </p>
        ) : null}
      </form>
    </main>
  );
}
