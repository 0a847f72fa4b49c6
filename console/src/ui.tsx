/** Small shared pieces: loading state, error notes, disabled-with-a-reason wrappers. */
import { useCallback, useEffect, useState, type ReactNode } from "react";
import { ApiError } from "./api";
import { t } from "./i18n";

export interface Loaded<T> {
  data: T | undefined;
  error: Error | undefined;
  loading: boolean;
  reload: () => Promise<void>;
}

/** Runs `load` now and on reload(); keeps the last data while reloading so the page does not flicker. */
export function useLoad<T>(load: () => Promise<T>, deps: unknown[]): Loaded<T> {
  const [data, setData] = useState<T>();
  const [error, setError] = useState<Error>();
  const [loading, setLoading] = useState(true);
  const run = useCallback(load, deps);
  const reload = useCallback(async () => {
    setLoading(true);
    try {
      setData(await run());
      setError(undefined);
    } catch (caught) {
      setError(caught as Error);
    } finally {
      setLoading(false);
    }
  }, [run]);
  useEffect(() => {
    void reload();
  }, [reload]);
  return { data, error, loading, reload };
}

export function ErrorNote({ error }: { error: unknown }): ReactNode {
  if (!error) return null;
  const message = error instanceof Error ? error.message : String(error);
  const code = error instanceof ApiError ? error.code : undefined;
  return (
    <p className="error" role="alert">
      {code ? <span className="code">{code}</span> : null} {message}
    </p>
  );
}

export function Status<T>({ state, children }: { state: Loaded<T>; children: (data: T) => ReactNode }): ReactNode {
  if (state.error && state.data === undefined)
    return (
      <div>
        <ErrorNote error={state.error} />
        <button type="button" onClick={() => void state.reload()}>
          {t("retry")}
        </button>
      </div>
    );
  if (state.data === undefined) return <p aria-live="polite">{t("loading")}</p>;
  return (
    <>
      {state.error ? <ErrorNote error={state.error} /> : null}
      {children(state.data)}
    </>
  );
}

/** A note saying why the controls next to it are disabled (none when `reason` is null). */
export function Reason({ reason, id }: { reason: string | null; id?: string }): ReactNode {
  return reason ? (
    <p className="reason" id={id}>
      {reason}
    </p>
  ) : null;
}

/** Runs an action, keeping its error for display; `busy` while it runs. */
export function useAction(): {
  busy: boolean;
  error: unknown;
  run: (action: () => Promise<unknown>) => Promise<boolean>;
  clear: () => void;
} {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>();
  const run = useCallback(async (action: () => Promise<unknown>) => {
    setBusy(true);
    setError(undefined);
    try {
      await action();
      return true;
    } catch (caught) {
      setError(caught);
      return false;
    } finally {
      setBusy(false);
    }
  }, []);
  return { busy, error, run, clear: () => setError(undefined) };
}

/** A row's revoke button that asks once before it acts (the question, then yes or cancel); nothing once revoked. */
/** The column headers a key and a grant share: what it may do and when it was made, used and ends (keys, grants). */
export function HoldingHeaders(): ReactNode {
  return (
    <>
      <th scope="col">{t("keys.scopes")}</th>
      <th scope="col">{t("keys.allowWrites")}</th>
      <th scope="col">{t("keys.boards")}</th>
      <th scope="col">{t("keys.created")}</th>
      <th scope="col">{t("keys.lastUsed")}</th>
      <th scope="col">{t("keys.expires")}</th>
      <th scope="col">{t("keys.state")}</th>
    </>
  );
}

export function RevokeButton(props: {
  revoked: boolean;
  asking: boolean;
  question: string;
  label: string;
  busy: boolean;
  disabled: boolean;
  onAsk: () => void;
  onCancel: () => void;
  onRevoke: () => void;
}): ReactNode {
  if (props.revoked) return null;
  if (!props.asking)
    return (
      <button type="button" className="secondary" disabled={props.disabled} onClick={props.onAsk}>
        {props.label}
      </button>
    );
  return (
    <span role="group" aria-label={props.question}>
      {props.question}{" "}
      <button type="button" className="danger" disabled={props.busy} onClick={props.onRevoke}>
        {t("keys.revokeYes")}
      </button>{" "}
      <button type="button" className="secondary" onClick={props.onCancel}>
        {t("cancel")}
      </button>
    </span>
  );
}

/** The scopes a new key or grant may hold, one checkbox each; a scope the signed-in key lacks is shown, not offered. */
export function ScopeChoice(props: {
  scopes: readonly string[];
  held: readonly string[];
  chosen: string[];
  setChosen: (change: (list: string[]) => string[]) => void;
  /** What follows the checkbox (default: the scope's name). */
  describe?: (scope: string, held: boolean) => ReactNode;
}): ReactNode {
  return props.scopes.map((scope) => {
    const held = props.held.includes(scope);
    return (
      <label key={scope} className="check" title={held ? undefined : t("missingScope", { scope })}>
        <input
          type="checkbox"
          value={scope}
          disabled={!held}
          checked={props.chosen.includes(scope)}
          onChange={(e) => props.setChosen((list) => (e.target.checked ? [...list, scope] : list.filter((s) => s !== scope)))}
        />{" "}
        {props.describe ? props.describe(scope, held) : scope}
      </label>
    );
  });
}
