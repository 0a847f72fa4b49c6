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
