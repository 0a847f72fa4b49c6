/** The person's API keys: list (never a secret), create (the secret and an MCP client configuration shown once), revoke. */
import { useState, type FormEvent, type ReactNode } from "react";
import { api, signOut } from "../api";
import { formatDate, t } from "../i18n";
import { refusal, useSession, type KeyView } from "../session";
import { ErrorNote, HoldingHeaders, Reason, RevokeButton, ScopeChoice, Status, useAction, useLoad } from "../ui";
import { Grants } from "./grants";

interface Created {
  key: string;
  record: KeyView;
  mcpClientConfiguration: string;
  /** Present when the server knows how a local client starts it over stdio (the embedded mode). */
  mcpStdioConfiguration?: string;
}

export function KeysPage(): ReactNode {
  const session = useSession();
  const keys = useLoad(() => api<{ keys: KeyView[] }>("GET", "/v1/keys"), []);
  const closed = refusal(session, "keys:write", true);
  const [created, setCreated] = useState<Created | null>(null);
  const [confirming, setConfirming] = useState<string | null>(null);
  const revoke = useAction();

  async function revokeKey(key: KeyView) {
    const ok = await revoke.run(() => api("POST", `/v1/keys/${key.id}/revoke`));
    setConfirming(null);
    if (ok && key.current) return signOut("revoked");
    await keys.reload();
  }

  return (
    <section aria-labelledby="keys-title">
      <h1 id="keys-title">{t("keys.title")}</h1>
      <p>{t("keys.intro")}</p>
      {created ? <CreatedKey created={created} onDone={() => setCreated(null)} /> : null}
      <ErrorNote error={revoke.error} />
      <Status state={keys}>
        {({ keys: list }) => (
          <table className="keys stacked">
            <thead>
              <tr>
                <th scope="col">{t("keys.label")}</th>
                <th scope="col">{t("keys.prefix")}</th>
                <HoldingHeaders />
                <th scope="col">
                  <span className="visually-hidden">{t("keys.revoke", { label: "" })}</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {list.map((key) => (
                <tr key={key.id} data-key-id={key.id}>
                  <td data-label={t("keys.label")}>
                    {key.label} {key.current ? <span className="badge">{t("keys.current")}</span> : null}
                  </td>
                  <td data-label={t("keys.prefix")}>
                    <code>{key.prefix}…</code>
                  </td>
                  <td data-label={t("keys.scopes")}>{key.scopes.join(" ")}</td>
                  <td data-label={t("keys.allowWrites")}>{key.allowWrites ? t("yes") : t("no")}</td>
                  <td data-label={t("keys.boards")}>
                    {key.allowedBoardIds === null ? t("keys.allBoards") : key.allowedBoardIds.join(", ") || t("none")}
                  </td>
                  <td data-label={t("keys.created")}>{formatDate(key.createdAt)}</td>
                  <td data-label={t("keys.lastUsed")}>{formatDate(key.lastUsedAt)}</td>
                  <td data-label={t("keys.expires")}>{key.expiresAt ? formatDate(key.expiresAt) : t("never")}</td>
                  <td data-label={t("keys.state")}>{stateOf(key)}</td>
                  <td>
                    <RevokeButton
                      revoked={key.revokedAt !== null}
                      asking={confirming === key.id}
                      question={t("keys.revokeConfirm", { label: key.label })}
                      label={t("keys.revoke", { label: key.label })}
                      busy={revoke.busy}
                      disabled={closed !== null}
                      onAsk={() => setConfirming(key.id)}
                      onCancel={() => setConfirming(null)}
                      onRevoke={() => void revokeKey(key)}
                    />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </Status>
      <NewKey closed={closed} onCreated={(result) => void keys.reload().then(() => setCreated(result))} />
      <Grants closed={closed} />
      <p>
        <small>{t("keys.adminOnly")}</small>
      </p>
    </section>
  );
}

function stateOf(key: KeyView): string {
  if (key.revokedAt) return t("keys.revoked", { date: formatDate(key.revokedAt) });
  if (key.expiresAt && Date.parse(key.expiresAt) <= Date.now()) return t("keys.expired");
  return t("keys.active");
}

function CreatedKey({ created, onDone }: { created: Created; onDone: () => void }): ReactNode {
  return (
    <section className="created-key" aria-labelledby="created-key-title" role="region">
      <h2 id="created-key-title">{t("keys.created.title")}</h2>
      <p className="notice">{t("keys.created.once")}</p>
      <label htmlFor="created-secret">{t("keys.created.secret")}</label>
      <input id="created-secret" readOnly value={created.key} onFocus={(event) => event.target.select()} />
      <label htmlFor="created-config">{t("keys.created.config")}</label>
      <textarea id="created-config" readOnly rows={12} value={created.mcpClientConfiguration} onFocus={(event) => event.target.select()} />
      {created.mcpStdioConfiguration ? (
        <>
          <label htmlFor="created-stdio-config">{t("keys.created.stdioConfig")}</label>
          <textarea
            id="created-stdio-config"
            readOnly
            rows={14}
            value={created.mcpStdioConfiguration}
            onFocus={(event) => event.target.select()}
          />
        </>
      ) : null}
      <button type="button" onClick={onDone}>
        {t("keys.created.done")}
      </button>
    </section>
  );
}

function NewKey({ closed, onCreated }: { closed: string | null; onCreated: (created: Created) => void }): ReactNode {
  const session = useSession();
  const [label, setLabel] = useState("");
  const [chosen, setChosen] = useState<string[]>([]);
  const [writes, setWrites] = useState(false);
  const [expires, setExpires] = useState("");
  const create = useAction();
  async function submit(event: FormEvent) {
    event.preventDefault();
    await create.run(async () => {
      const result = await api<Created>("POST", "/v1/keys", {
        label: label.trim(),
        scopes: chosen,
        allowWrites: writes,
        allowedBoardIds: session.allowedBoardIds,
        expiresAt: expires ? new Date(`${expires}T23:59:59`).toISOString() : (session.key?.expiresAt ?? null),
      });
      setLabel("");
      setChosen([]);
      setWrites(false);
      setExpires("");
      onCreated(result);
    });
  }
  return (
    <form className="stack-form" onSubmit={(event) => void submit(event)} aria-labelledby="new-key-title">
      <h2 id="new-key-title">{t("keys.new")}</h2>
      <label htmlFor="key-label">{t("keys.label")}</label>
      <input id="key-label" required maxLength={200} value={label} disabled={closed !== null} onChange={(e) => setLabel(e.target.value)} />
      <fieldset disabled={closed !== null}>
        <legend>{t("keys.scopes")}</legend>
        <ScopeChoice scopes={session.allScopes} held={session.scopes} chosen={chosen} setChosen={setChosen} />
      </fieldset>
      <label className="check">
        <input
          type="checkbox"
          checked={writes}
          disabled={closed !== null || !session.allowWrites}
          onChange={(e) => setWrites(e.target.checked)}
        />{" "}
        {t("keys.allowWrites")}
      </label>
      <label htmlFor="key-expires">{t("keys.expiresAt")}</label>
      <input id="key-expires" type="date" value={expires} disabled={closed !== null} onChange={(e) => setExpires(e.target.value)} />
      <button type="submit" disabled={closed !== null || create.busy || chosen.length === 0}>
        {t("keys.create")}
      </button>
      <Reason reason={closed} />
      <ErrorNote error={create.error} />
    </form>
  );
}
