/** Drafts: the workspaces ("New workspace"), then one workspace's members and roles and its drafts with their state. */
import { useState, type FormEvent, type ReactNode } from "react";
import { api, newRequestId } from "../api";
import type { Draft, DraftItem, WorkspaceMember as Member, Workspace } from "../drafts-types";
import { formatDate, t } from "../i18n";
import { refusal, useSession } from "../session";
import { MembersPanel } from "../members";
import { ErrorNote, Reason, Status, useAction, useLoad } from "../ui";

export function DraftsPage(): ReactNode {
  const session = useSession();
  const workspaces = useLoad(() => api<{ workspaces: Workspace[] }>("GET", "/v1/workspaces"), []);
  const closed = refusal(session, "drafts:write", true);
  const [name, setName] = useState("");
  const create = useAction();
  async function submit(event: FormEvent) {
    event.preventDefault();
    const ok = await create.run(() => api("POST", "/v1/workspaces", { name: name.trim(), request_id: newRequestId() }));
    if (ok) {
      setName("");
      await workspaces.reload();
    }
  }
  return (
    <section aria-labelledby="drafts-title">
      <h1 id="drafts-title">{t("drafts.workspaces")}</h1>
      <Status state={workspaces}>
        {({ workspaces: list }) =>
          list.length === 0 ? (
            <p>{t("drafts.noWorkspaces")}</p>
          ) : (
            <ul className="cards">
              {list.map((workspace) => (
                <li key={workspace.id} className="card">
                  <a href={`#/drafts/${workspace.id}`}>{workspace.name}</a>
                  <small>{t("boards.yourRole", { role: t(`role.${workspace.role}`) })}</small>
                </li>
              ))}
            </ul>
          )
        }
      </Status>
      <form className="inline-form" onSubmit={(event) => void submit(event)} aria-labelledby="new-workspace-title">
        <h2 id="new-workspace-title">{t("drafts.newWorkspace")}</h2>
        <label htmlFor="workspace-name">{t("drafts.workspaceName")}</label>
        <input
          id="workspace-name"
          required
          maxLength={100}
          value={name}
          disabled={closed !== null}
          onChange={(e) => setName(e.target.value)}
        />
        <button type="submit" disabled={closed !== null || create.busy}>
          {t("drafts.create")}
        </button>
        <Reason reason={closed} />
        <ErrorNote error={create.error} />
      </form>
    </section>
  );
}

async function loadWorkspace(id: string) {
  const base = `/v1/workspaces/${encodeURIComponent(id)}`;
  const [{ workspace }, { members }, { drafts }] = await Promise.all([
    api<{ workspace: Workspace }>("GET", base),
    api<{ members: Member[] }>("GET", `${base}/members`),
    api<{ drafts: DraftItem[] }>("GET", `${base}/drafts?limit=50`),
  ]);
  // the list leaves out the submission result: read each draft in full (one page, at most 50)
  const full = await Promise.all(drafts.map((item) => api<{ draft: Draft }>("GET", `${base}/drafts/${item.id}`).then((r) => r.draft)));
  return { workspace, members, drafts, full: new Map(full.map((draft) => [draft.id, draft])) };
}

export function WorkspacePage({ workspaceId }: { workspaceId: string }): ReactNode {
  const state = useLoad(() => loadWorkspace(workspaceId), [workspaceId]);
  return (
    <section aria-labelledby="workspace-title">
      <p>
        <a href="#/drafts">← {t("drafts.back")}</a>
      </p>
      <Status state={state}>
        {(data) => (
          <>
            <h1 id="workspace-title">{data.workspace.name}</h1>
            <p>
              <small>{t("boards.yourRole", { role: t(`role.${data.workspace.role}`) })}</small>
            </p>
            <h2>{t("drafts.list")}</h2>
            <NewDraft workspace={data.workspace} />
            {data.drafts.length === 0 ? (
              <p className="empty">{t("drafts.empty")}</p>
            ) : (
              <table className="stacked">
                <thead>
                  <tr>
                    <th scope="col">{t("drafts.caption")}</th>
                    <th scope="col">{t("drafts.state")}</th>
                    <th scope="col">{t("drafts.revision")}</th>
                    <th scope="col">{t("drafts.updated")}</th>
                    <th scope="col">{t("drafts.result")}</th>
                  </tr>
                </thead>
                <tbody>
                  {data.drafts.map((draft) => (
                    <tr key={draft.id}>
                      <td data-label={t("drafts.caption")}>
                        <a href={`#/drafts/${encodeURIComponent(data.workspace.id)}/${encodeURIComponent(draft.id)}`}>
                          {draft.caption_preview.trim() || t("drafts.untitled")}
                        </a>
                        <br />
                        <small>{t("drafts.assets", { assets: draft.asset_count, accounts: draft.account_count })}</small>
                      </td>
                      <td data-label={t("drafts.state")}>
                        <span className="badge">{draft.state}</span>
                      </td>
                      <td data-label={t("drafts.revision")}>{draft.revision}</td>
                      <td data-label={t("drafts.updated")}>{formatDate(draft.updated_at)}</td>
                      <td data-label={t("drafts.result")}>{resultOf(data.full.get(draft.id))}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            )}
            <WorkspaceMembers workspace={data.workspace} members={data.members} reload={state.reload} />
          </>
        )}
      </Status>
    </section>
  );
}

/** "New draft": an empty draft, opened at once for editing. */
function NewDraft({ workspace }: { workspace: Workspace }): ReactNode {
  const session = useSession();
  const create = useAction();
  const closed = refusal(session, "drafts:write", true) ?? (workspace.role === "viewer" ? t("draft.viewerOnly") : null);
  async function make() {
    await create.run(async () => {
      const { draft } = await api<{ draft: { id: string } }>("POST", `/v1/workspaces/${encodeURIComponent(workspace.id)}/drafts`, {
        request_id: newRequestId(),
      });
      window.location.hash = `#/drafts/${encodeURIComponent(workspace.id)}/${encodeURIComponent(draft.id)}`;
    });
  }
  return (
    <div className="draft-new">
      <button type="button" disabled={closed !== null || create.busy} onClick={() => void make()}>
        {t("drafts.newDraft")}
      </button>
      <Reason reason={closed} />
      <ErrorNote error={create.error} />
    </div>
  );
}

function resultOf(draft: Draft | undefined): string {
  if (!draft) return "";
  if (draft.state === "submitted") return t("drafts.submittedAt", { date: formatDate(draft.submitted_at) });
  if (draft.state === "submitting") return t("drafts.pending");
  if (draft.submit_error) return t("drafts.failed", { error: draft.submit_error });
  return t("drafts.notSubmitted");
}

function WorkspaceMembers({
  workspace,
  members,
  reload,
}: {
  workspace: Workspace;
  members: Member[];
  reload: () => Promise<void>;
}): ReactNode {
  const session = useSession();
  const manager = workspace.role === "owner" || workspace.role === "admin";
  const closed = refusal(session, "drafts:write", true) ?? (manager ? null : t("board.ownerOnly"));
  const roles = ["owner", "admin", "editor", "viewer"] as const;
  return (
    <MembersPanel
      idPrefix="ws-"
      base={`/v1/workspaces/${workspace.id}/members`}
      members={members}
      roles={roles}
      closed={closed}
      reload={reload}
    />
  );
}
