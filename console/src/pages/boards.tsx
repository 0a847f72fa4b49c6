/** The boards the person can reach, each with the proposals waiting on it, and "New board". */
import { useState, type FormEvent, type ReactNode } from "react";
import { api, newRequestId } from "../api";
import type { Board } from "../boards-types";
import { t } from "../i18n";
import { pendingOn, useInboxCounts } from "../inbox-counts";
import { refusal, useSession } from "../session";
import { ErrorNote, Reason, Status, useAction, useLoad } from "../ui";

export function BoardsPage(): ReactNode {
  const session = useSession();
  const boards = useLoad(() => api<{ boards: Board[] }>("GET", "/v1/boards"), []);
  const { counts } = useInboxCounts();
  const [name, setName] = useState("");
  const create = useAction();
  const closed = refusal(session, "boards:write", true);

  async function submit(event: FormEvent) {
    event.preventDefault();
    const done = await create.run(async () => {
      const { board } = await api<{ board: Board }>("POST", "/v1/boards", { requestId: newRequestId(), name: name.trim() });
      setName("");
      window.location.hash = `#/boards/${board.id}`;
    });
    if (done) await boards.reload();
  }

  return (
    <section aria-labelledby="boards-title">
      <h1 id="boards-title">{t("boards.title")}</h1>
      <Status state={boards}>
        {({ boards: list }) =>
          list.length === 0 ? (
            <p>{t("boards.empty")}</p>
          ) : (
            <ul className="cards boards">
              {list.map((board) => (
                <li key={board.id} className="card">
                  <a href={`#/boards/${board.id}`}>{board.name}</a>
                  {board.description ? <p>{board.description}</p> : null}
                  {pendingOn(counts, board.id) > 0 ? (
                    <a className="pending" href="#/inbox">
                      {t("boards.pending", { count: pendingOn(counts, board.id) })}
                    </a>
                  ) : null}
                  <small>
                    {t("boards.yourRole", { role: t(`role.${board.role}`) })}
                    {board.archived_at ? ` · ${t("boards.archived")}` : ""}
                  </small>
                </li>
              ))}
            </ul>
          )
        }
      </Status>
      <form className="inline-form" onSubmit={(event) => void submit(event)} aria-labelledby="new-board-title">
        <h2 id="new-board-title">{t("boards.new")}</h2>
        <label htmlFor="board-name">{t("boards.name")}</label>
        <input
          id="board-name"
          required
          maxLength={100}
          value={name}
          disabled={closed !== null}
          aria-describedby={closed ? "new-board-reason" : undefined}
          onChange={(event) => setName(event.target.value)}
        />
        <button type="submit" disabled={closed !== null || create.busy}>
          {t("boards.create")}
        </button>
        <Reason reason={closed} id="new-board-reason" />
        <ErrorNote error={create.error} />
      </form>
    </section>
  );
}
