/**
 * One draft: its caption, social accounts and assets (image previews), edited through the drafts REST routes at the
 * revision the page read, and its submission, followed until the queue's worker ends it. A stale revision is a
 * conflict: the page says so, keeps the person's edits on screen and saves nothing until they load the current one.
 */
import { useEffect, useState, type FormEvent, type ReactNode } from "react";
import { ApiError, api, dataUrlOf, newRequestId } from "../api";
import type { Asset, Draft, WorkspaceRole as Role } from "../drafts-types";
import { formatDate, t } from "../i18n";
import { refusal, useSession } from "../session";
import { ErrorNote, Reason, Status, useAction, useLoad } from "../ui";

/** The networks the publishing pipeline knows (services/drafts' networks.ts); an account id is '<network>:<handle>'. */
const networks = ["instagram", "facebook", "threads", "x", "linkedin", "tiktok", "youtube"] as const;
const captionMax = 2_200;
/**
 * How a submission in the queue is read again: after 1 s (the worker usually takes it within a poll or two), then
 * half as long again each time up to every 10 s, so a page left open on a stuck queue does not poll once a second.
 */
const poll = { firstMs: 1_000, factor: 1.5, maxMs: 10_000 };

async function loadDraft(workspaceId: string, draftId: string) {
  const base = `/v1/workspaces/${encodeURIComponent(workspaceId)}`;
  const [{ workspace }, { draft }] = await Promise.all([
    api<{ workspace: { name: string; role: Role } }>("GET", base),
    api<{ draft: Draft }>("GET", `${base}/drafts/${encodeURIComponent(draftId)}`),
  ]);
  return { workspace, draft };
}

export function DraftPage({ workspaceId, draftId }: { workspaceId: string; draftId: string }): ReactNode {
  const state = useLoad(() => loadDraft(workspaceId, draftId), [workspaceId, draftId]);
  const submitting = state.data?.draft.state === "submitting";
  const { reload } = state;
  // while the queue holds the submission, read the draft again until the worker ends it
  useEffect(() => {
    if (!submitting) return;
    let wait = poll.firstMs;
    let timer: ReturnType<typeof setTimeout>;
    const next = () => {
      timer = setTimeout(() => {
        void reload();
        wait = Math.min(wait * poll.factor, poll.maxMs);
        next();
      }, wait);
    };
    next();
    return () => clearTimeout(timer);
  }, [submitting, reload]);
  return (
    <section aria-labelledby="draft-title">
      <p>
        <a href={`#/drafts/${encodeURIComponent(workspaceId)}`}>← {t("draft.back")}</a>
      </p>
      <Status state={state}>
        {({ workspace, draft }) => (
          <>
            <h1 id="draft-title">
              {t("draft.title", { workspace: workspace.name })} <span className="badge">{t(`draft.state.${draft.state}`)}</span>
            </h1>
            <p>
              <small>{t("draft.revisionLine", { revision: draft.revision, date: formatDate(draft.updated_at) })}</small>
            </p>
            <Submission draft={draft} />
            <DraftEditor key={draft.revision} draft={draft} role={workspace.role} reload={reload} />
            <Assets draft={draft} />
          </>
        )}
      </Status>
    </section>
  );
}

/** The submission's state in a sentence; announced as it changes. */
function Submission({ draft }: { draft: Draft }): ReactNode {
  let sentence: string;
  if (draft.state === "submitted") sentence = t("draft.submitted", { date: formatDate(draft.submitted_at) });
  else if (draft.state === "submitting") sentence = t("draft.inQueue");
  else if (draft.submit_error) sentence = t("draft.submitFailed", { error: draft.submit_error });
  else sentence = t("draft.notSubmitted");
  const className = draft.state === "draft" && draft.submit_error ? "submission submission-failed" : `submission submission-${draft.state}`;
  return (
    <p className={className} role="status" aria-live="polite">
      {sentence}
    </p>
  );
}

function DraftEditor({ draft, role, reload }: { draft: Draft; role: Role; reload: () => Promise<void> }): ReactNode {
  const session = useSession();
  const [caption, setCaption] = useState(draft.caption);
  const [accounts, setAccounts] = useState(draft.account_ids);
  const [removing, setRemoving] = useState<string[]>([]);
  const [network, setNetwork] = useState<string>(networks[0]);
  const [handle, setHandle] = useState("");
  const [badHandle, setBadHandle] = useState(false);
  const [conflict, setConflict] = useState<{ expected: number; current: number } | null>(null);
  const save = useAction();
  const submit = useAction();
  const upload = useAction();
  const [file, setFile] = useState<File | null>(null);

  const closed =
    refusal(session, "drafts:write", true) ??
    (role === "viewer" ? t("draft.viewerOnly") : draft.state === "draft" ? null : t(`draft.locked.${draft.state}`));
  const dirty = caption !== draft.caption || accounts.join("\n") !== draft.account_ids.join("\n") || removing.length > 0;
  const base = `/v1/workspaces/${encodeURIComponent(draft.workspace_id)}/drafts/${encodeURIComponent(draft.id)}`;
  const busy = save.busy || submit.busy || upload.busy;

  /** Runs a write at the revision this form was opened on; a conflict keeps the edits and says what happened. */
  async function write(action: ReturnType<typeof useAction>, call: () => Promise<unknown>) {
    setConflict(null);
    await action.run(async () => {
      try {
        await call();
      } catch (error) {
        if (error instanceof ApiError && error.code === "conflict") {
          const current = (error.details?.current as { revision?: number } | undefined)?.revision ?? Number.NaN;
          setConflict({ expected: draft.revision, current });
          return;
        }
        throw error;
      }
      await reload();
    });
  }

  function addAccount(event: { preventDefault(): void }) {
    event.preventDefault();
    const name = handle.trim().replace(/^@/, "");
    // the service's rule for a handle, checked here so the mistake shows beside the field, not at save
    if (!/^[A-Za-z0-9._-]{1,64}$/.test(name)) return setBadHandle(true);
    const id = `${network}:${name}`;
    if (!accounts.includes(id)) setAccounts([...accounts, id]);
    setHandle("");
    setBadHandle(false);
  }

  async function onSave(event: FormEvent) {
    event.preventDefault();
    await write(save, () =>
      api("PATCH", base, {
        expected_revision: draft.revision,
        request_id: newRequestId(),
        caption,
        account_ids: accounts,
        ...(removing.length > 0 ? { remove_asset_ids: removing } : {}),
      }),
    );
  }

  if (closed !== null) return <DraftContent draft={draft} reason={closed} />;
  return (
    <>
      <form className="stack-form draft-form" aria-labelledby="draft-edit-title" onSubmit={(event) => void onSave(event)}>
        <h2 id="draft-edit-title">{t("draft.edit")}</h2>
        <label htmlFor="draft-caption">{t("draft.caption")}</label>
        <textarea
          id="draft-caption"
          rows={6}
          maxLength={captionMax}
          value={caption}

          aria-describedby="draft-caption-count"
          onChange={(event) => setCaption(event.target.value)}
        />
        <small id="draft-caption-count">{t("draft.captionCount", { count: [...caption].length, max: captionMax })}</small>
        <h3>{t("draft.accounts")}</h3>
        {accounts.length === 0 ? (
          <p className="empty">{t("draft.noAccounts")}</p>
        ) : (
          <ul className="draft-accounts">
            {accounts.map((id) => (
              <li key={id}>
                <code>{id}</code>
                <button
                  type="button"
                  className="link"

                  aria-label={t("draft.removeAccount", { account: id })}
                  onClick={() => setAccounts(accounts.filter((other) => other !== id))}
                >
                  ×
                </button>
              </li>
            ))}
          </ul>
        )}
        <div className="draft-add-account">
          <label htmlFor="draft-network">{t("draft.network")}</label>
          <select id="draft-network" value={network} onChange={(event) => setNetwork(event.target.value)}>
            {networks.map((name) => (
              <option key={name} value={name}>
                {name}
              </option>
            ))}
          </select>
          <label htmlFor="draft-handle">{t("draft.handle")}</label>
          <input
            id="draft-handle"
            value={handle}
            maxLength={65}
            aria-invalid={badHandle}
            aria-describedby={badHandle ? "draft-handle-error" : undefined}

            onChange={(event) => setHandle(event.target.value)}
            onKeyDown={(event) => {
              if (event.key === "Enter") addAccount(event);
            }}
          />
          <button type="button" className="secondary" disabled={!handle.trim()} onClick={addAccount}>
            {t("draft.addAccount")}
          </button>
          {badHandle ? (
            <p className="error" id="draft-handle-error" role="alert">
              {t("draft.badHandle")}
            </p>
          ) : null}
        </div>
        {draft.assets.length > 0 ? (
          <fieldset>
            <legend>{t("draft.removeAssets")}</legend>
            {draft.assets.map((asset) => (
              <label key={asset.id} className="check">
                <input
                  type="checkbox"
                  checked={removing.includes(asset.id)}
                  onChange={(event) =>
                    setRemoving(event.target.checked ? [...removing, asset.id] : removing.filter((id) => id !== asset.id))
                  }
                />
                {t("draft.removeAsset", { filename: asset.filename })}
              </label>
            ))}
          </fieldset>
        ) : null}
        <div className="draft-buttons">
          <button type="submit" disabled={busy || !dirty}>
            {t("draft.save")}
          </button>
          <button
            type="button"
            disabled={busy || dirty}
            aria-describedby={dirty ? "draft-save-first" : undefined}
            onClick={() =>
              void write(submit, () => api("POST", `${base}/submit`, { expected_revision: draft.revision, request_id: newRequestId() }))
            }
          >
            {t("draft.submit")}
          </button>
        </div>
        {dirty ? <Reason id="draft-save-first" reason={t("draft.saveFirst")} /> : null}
        {conflict ? (
          <div className="conflict" role="alert">
            <p>{t("draft.conflict", { expected: conflict.expected, current: conflict.current })}</p>
            <button type="button" className="secondary" onClick={() => void reload()}>
              {t("draft.loadCurrent")}
            </button>
          </div>
        ) : null}
        <ErrorNote error={save.error ?? submit.error} />
      </form>
      <form
        className="inline-form draft-upload"
        aria-labelledby="draft-upload-title"
        onSubmit={(event) => {
          event.preventDefault();
          if (file)
            void write(upload, () =>
              api("POST", `${base}/assets?filename=${encodeURIComponent(file.name)}`, file, {
                "If-Match": `"${draft.revision}"`,
                "Idempotency-Key": newRequestId(),
              }),
            );
        }}
      >
        <h2 id="draft-upload-title">{t("draft.upload")}</h2>
        <label htmlFor="draft-file">{t("draft.file")}</label>
        <input
          id="draft-file"
          type="file"
          accept="image/jpeg,image/png,image/gif,image/webp,video/mp4,video/quicktime"
          disabled={dirty}
          onChange={(event) => setFile(event.target.files?.[0] ?? null)}
        />
        <button type="submit" disabled={dirty || busy || !file}>
          {t("draft.uploadButton")}
        </button>
        {dirty ? <Reason reason={t("draft.saveFirst")} /> : null}
        <ErrorNote error={upload.error} />
      </form>
    </>
  );
}

/** The caption and accounts as they stand, for a draft this person cannot change now (and why). */
function DraftContent({ draft, reason }: { draft: Draft; reason: string }): ReactNode {
  return (
    <section className="stack-form" aria-labelledby="draft-content-title">
      <h2 id="draft-content-title">{t("draft.content")}</h2>
      <h3>{t("draft.caption")}</h3>
      <p className="draft-caption">{draft.caption || t("drafts.untitled")}</p>
      <h3>{t("draft.accounts")}</h3>
      {draft.account_ids.length === 0 ? (
        <p className="empty">{t("draft.noAccountsYet")}</p>
      ) : (
        <ul className="draft-accounts">
          {draft.account_ids.map((id) => (
            <li key={id}>
              <code>{id}</code>
            </li>
          ))}
        </ul>
      )}
      <Reason reason={reason} />
    </section>
  );
}

function Assets({ draft }: { draft: Draft }): ReactNode {
  return (
    <section aria-labelledby="draft-assets-title">
      <h2 id="draft-assets-title">{t("draft.assets")}</h2>
      {draft.assets.length === 0 ? (
        <p className="empty">{t("draft.noAssets")}</p>
      ) : (
        <ul className="draft-assets">
          {draft.assets.map((asset) => (
            <li key={asset.id}>
              {asset.mime.startsWith("image/") ? <Preview asset={asset} /> : <span className="draft-video">{t("draft.video")}</span>}
              <span>
                {asset.filename}
                <br />
                <small>{t("draft.assetLine", { mime: asset.mime, size: sizeOf(asset.bytes) })}</small>
              </span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

/** An image asset, read with the key (an <img> cannot send it) and shown from a data: URL. */
function Preview({ asset }: { asset: Asset }): ReactNode {
  const [src, setSrc] = useState<string | null>(null);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    let live = true;
    dataUrlOf(asset.content_path).then(
      (url) => live && setSrc(url),
      () => live && setFailed(true),
    );
    return () => {
      live = false;
    };
  }, [asset.content_path]);
  if (failed) return <span className="draft-video">{t("draft.noPreview")}</span>;
  return src ? (
    <img src={src} alt={t("draft.previewOf", { filename: asset.filename })} />
  ) : (
    <span aria-hidden="true" className="draft-video" />
  );
}

function sizeOf(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KiB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
}
