/** One board: the Eisenhower grid and the backlog, task actions, proposals to review, members, tags, activity. */
import { useState, type FormEvent, type ReactNode } from "react";
import { allPages, api, ApiError, newRequestId } from "../api";
import {
  colors,
  matrix,
  type ActivityEvent,
  type Board,
  type Member,
  type Proposal,
  type Quadrant,
  type Tag,
  type Task,
  type BoardData,
} from "../boards-types";
import { formatDate, formatDay, t } from "../i18n";
import { refusal, useSession } from "../session";
import { ErrorNote, Reason, Status, useAction, useLoad } from "../ui";
import { MembersPanel } from "../members";
import { eventSentence } from "../event-text";
import { quadrantSubtitle, quadrantTitle } from "../quadrant-title";
import { Proposals } from "./proposals";

async function loadBoard(boardId: string): Promise<BoardData> {
  const base = `/v1/boards/${encodeURIComponent(boardId)}`;
  const [{ board }, tasks, { tags }, { members }, proposals, activity] = await Promise.all([
    api<{ board: Board }>("GET", base),
    allPages<Task, "tasks">(`${base}/tasks`, "tasks"),
    api<{ tags: Tag[] }>("GET", `${base}/tags`),
    api<{ members: Member[] }>("GET", `${base}/members`),
    allPages<Proposal, "proposals">(`${base}/proposals`, "proposals", 4),
    api<{ events: ActivityEvent[]; coverageStart: string }>("GET", `${base}/activity`),
  ]);
  return { board, tasks, tags, members, proposals, activity };
}

export function BoardPage({ boardId }: { boardId: string }): ReactNode {
  const state = useLoad(() => loadBoard(boardId), [boardId]);
  return (
    <section aria-labelledby="board-title">
      <p>
        <a href="#/boards">← {t("board.back")}</a>
      </p>
      <Status state={state}>{(data) => <BoardView data={data} reload={state.reload} />}</Status>
    </section>
  );
}

function BoardView({ data, reload }: { data: BoardData; reload: () => Promise<void> }): ReactNode {
  const session = useSession();
  const { board, tasks } = data;
  const closed =
    refusal(session, "boards:write", true) ??
    (board.role === "viewer" ? t("board.viewerOnly") : board.archived_at ? t("board.archivedNote") : null);
  const active = tasks.filter((task) => task.status === "active" && !task.archived_at);
  const done = tasks.filter((task) => task.status !== "active" && !task.archived_at);
  const byQuadrant = (id: string) => active.filter((task) => task.quadrant === id);
  const taskAction = useAction();

  async function act(task: Task, action: string, extra: Record<string, unknown> = {}) {
    await taskAction.run(async () => {
      try {
        // "" edits the task itself (PATCH); any other action is a transition route
        await api(action ? "POST" : "PATCH", `/v1/boards/${board.id}/tasks/${task.id}${action ? `/${action}` : ""}`, {
          requestId: newRequestId(),
          expectedVersion: task.version,
          ...extra,
        });
      } catch (error) {
        if (error instanceof ApiError && error.code === "conflict") {
          throw new Error(
            t("task.conflict", { title: task.title, expected: task.version, current: String(error.details?.currentVersion ?? "?") }),
            { cause: error },
          );
        }
        throw error;
      } finally {
        await reload();
      }
    });
  }

  const card = (task: Task) => <TaskCard key={task.id} task={task} board={board} tags={data.tags} closed={closed} act={act} />;
  return (
    <>
      <h1 id="board-title">{board.name}</h1>
      {board.description ? <p>{board.description}</p> : null}
      <p>
        <small>
          {t("boards.yourRole", { role: t(`role.${board.role}`) })}
          {board.archived_at ? ` · ${t("boards.archived")}` : ""}
        </small>
      </p>
      <ErrorNote error={taskAction.error} />
      <Proposals data={data} closed={closed} reload={reload} />
      <h2 className="visually-hidden">{t("board.grid")}</h2>
      <div className="grid" role="group" aria-label={t("board.grid")}>
        {matrix.map((id) => {
          const quadrant = board.quadrants.find((q) => q.id === id);
          return (
            <section key={id} className={`quadrant color-${quadrant?.color ?? "gray"}`} aria-labelledby={`q-${id}`} data-quadrant={id}>
              <h3 id={`q-${id}`}>{quadrantTitle(board, id)}</h3>
              {quadrantSubtitle(board, id) ? <p className="subtitle">{quadrantSubtitle(board, id)}</p> : null}
              {quadrant && board.role === "owner" && !refusal(session, "boards:write", true) ? (
                <QuadrantEditor board={board} quadrant={quadrant} reload={reload} />
              ) : null}
              <TaskList tasks={byQuadrant(id)} card={card} />
            </section>
          );
        })}
      </div>
      <section className="quadrant backlog" aria-labelledby="q-backlog" data-quadrant="backlog">
        <h3 id="q-backlog">{t("board.backlog")}</h3>
        <p className="subtitle">{t("board.backlogSubtitle")}</p>
        <TaskList tasks={byQuadrant("backlog")} card={card} />
      </section>
      <NewTask data={data} closed={closed} reload={reload} />
      {done.length > 0 ? (
        <section aria-labelledby="closed-title" data-quadrant="closed">
          <h2 id="closed-title">{t("board.closed")}</h2>
          <TaskList tasks={done} card={card} />
        </section>
      ) : null}
      <div className="columns">
        <Members data={data} reload={reload} />
        <Tags data={data} closed={closed} reload={reload} />
      </div>
      <Activity data={data} />
    </>
  );
}

function TaskList({ tasks, card }: { tasks: Task[]; card: (task: Task) => ReactNode }): ReactNode {
  return tasks.length === 0 ? <p className="empty">{t("board.noTasks")}</p> : <ul className="tasks">{tasks.map(card)}</ul>;
}

function TaskCard({
  task,
  board,
  tags,
  closed,
  act,
}: {
  task: Task;
  board: Board;
  tags: Tag[];
  closed: string | null;
  act: (task: Task, action: string, extra?: Record<string, unknown>) => Promise<void>;
}): ReactNode {
  const [editing, setEditing] = useState(false);
  const targets = [...matrix, "backlog"].filter((id) => id !== task.quadrant);
  return (
    <li className={`task status-${task.status}`} data-task-id={task.id}>
      <span className="task-title">{task.title}</span> <small>#{task.task_number}</small>
      {task.status !== "active" ? <span className="badge">{t(`task.status.${task.status}`)}</span> : null}
      {task.due_date ? <span className="due">{t("task.due", { date: formatDay(task.due_date) })}</span> : null}
      {task.tags.length > 0 ? (
        <ul className="tags" aria-label={t("board.tagsField")}>
          {task.tags.map((tag) => (
            <li key={tag.id} className={`tag color-${tag.color}`}>
              {tag.name}
            </li>
          ))}
        </ul>
      ) : null}
      <details className="menu">
        <summary aria-label={t("task.actions", { title: task.title })} title={closed ?? undefined}>
          ⋯
        </summary>
        <div className="menu-items">
          {task.status === "active" ? (
            <>
              {targets.map((id) => (
                <button key={id} type="button" disabled={closed !== null} onClick={() => void act(task, "move", { quadrant: id })}>
                  {t("task.moveTo", { quadrant: quadrantTitle(board, id) })}
                </button>
              ))}
              <button type="button" disabled={closed !== null} onClick={() => void act(task, "complete")}>
                {t("task.complete")}
              </button>
              <button type="button" disabled={closed !== null} onClick={() => void act(task, "discard")}>
                {t("task.discard")}
              </button>
              <button type="button" disabled={closed !== null} onClick={() => setEditing(true)}>
                {t("task.edit")}
              </button>
            </>
          ) : (
            <button type="button" disabled={closed !== null} onClick={() => void act(task, "reopen")}>
              {t("task.reopen")}
            </button>
          )}
          <Reason reason={closed} />
        </div>
      </details>
      {editing ? <TaskEditor task={task} tags={tags} act={act} done={() => setEditing(false)} /> : null}
    </li>
  );
}

/** Title, due date (clearable: the app may remove it, MCP may not) and tags of one task, sent with its version. */
function TaskEditor({
  task,
  tags,
  act,
  done,
}: {
  task: Task;
  tags: Tag[];
  act: (task: Task, action: string, extra?: Record<string, unknown>) => Promise<void>;
  done: () => void;
}): ReactNode {
  const [title, setTitle] = useState(task.title);
  const [due, setDue] = useState(task.due_date ?? "");
  const [chosen, setChosen] = useState(task.tags.map((tag) => tag.id));
  const ids = `edit-${task.id}`;
  async function save(event: FormEvent) {
    event.preventDefault();
    await act(task, "", { title: title.trim(), dueDate: due || null, tagIds: chosen });
    done();
  }
  return (
    <form className="stack-form" onSubmit={(event) => void save(event)} aria-label={t("task.editFor", { title: task.title })}>
      <label htmlFor={`${ids}-title`}>{t("board.taskTitle")}</label>
      <input id={`${ids}-title`} required maxLength={200} value={title} onChange={(e) => setTitle(e.target.value)} />
      <label htmlFor={`${ids}-due`}>{t("board.dueDate")}</label>
      <input id={`${ids}-due`} type="date" value={due} onChange={(e) => setDue(e.target.value)} />
      {tags.length > 0 ? (
        <fieldset>
          <legend>{t("board.tagsField")}</legend>
          {tags.map((tag) => (
            <label key={tag.id} className="check">
              <input
                type="checkbox"
                checked={chosen.includes(tag.id)}
                onChange={(e) => setChosen((list) => (e.target.checked ? [...list, tag.id] : list.filter((id) => id !== tag.id)))}
              />{" "}
              {tag.name}
            </label>
          ))}
        </fieldset>
      ) : null}
      <button type="submit">{t("task.save")}</button>
      <button type="button" className="secondary" onClick={done}>
        {t("cancel")}
      </button>
    </form>
  );
}

/** An owner's renaming of a quadrant (title, subtitle, colour), or its reset; made against the board's version. */
function QuadrantEditor({ board, quadrant, reload }: { board: Board; quadrant: Quadrant; reload: () => Promise<void> }): ReactNode {
  // the form starts from what the grid shows (a default title in the interface's language)
  const [title, setTitle] = useState(quadrantTitle(board, quadrant.id));
  const [subtitle, setSubtitle] = useState(quadrantSubtitle(board, quadrant.id));
  const [color, setColor] = useState(quadrant.color);
  const change = useAction();
  const path = `/v1/boards/${board.id}/quadrants/${quadrant.id}`;
  const ids = `quadrant-${quadrant.id}`;
  async function save(event: FormEvent) {
    event.preventDefault();
    const form = event.currentTarget as HTMLFormElement;
    if (await change.run(() => api("PUT", path, { expectedVersion: board.version, title: title.trim(), subtitle, color }))) {
      form.closest("details")?.removeAttribute("open");
      await reload();
    }
  }
  return (
    <details className="customise">
      <summary aria-label={t("quadrant.customiseFor", { title: quadrantTitle(board, quadrant.id) })}>{t("quadrant.customise")}</summary>
      <form className="stack-form" onSubmit={(event) => void save(event)}>
        <label htmlFor={`${ids}-title`}>{t("quadrant.title")}</label>
        <input id={`${ids}-title`} required maxLength={40} value={title} onChange={(e) => setTitle(e.target.value)} />
        <label htmlFor={`${ids}-subtitle`}>{t("quadrant.subtitle")}</label>
        <input id={`${ids}-subtitle`} maxLength={80} value={subtitle} onChange={(e) => setSubtitle(e.target.value)} />
        <label htmlFor={`${ids}-color`}>{t("tags.color")}</label>
        <select id={`${ids}-color`} value={color} onChange={(e) => setColor(e.target.value)}>
          {colors.map((value) => (
            <option key={value} value={value}>
              {value}
            </option>
          ))}
        </select>
        <button type="submit" disabled={change.busy}>
          {t("quadrant.save")}
        </button>
        {quadrant.customized ? (
          <button
            type="button"
            className="secondary"
            disabled={change.busy}
            onClick={() => void change.run(() => api("DELETE", path, undefined, { "If-Match": `"${board.version}"` })).then(reload)}
          >
            {t("quadrant.reset")}
          </button>
        ) : null}
        <ErrorNote error={change.error} />
      </form>
    </details>
  );
}

function NewTask({ data, closed, reload }: { data: BoardData; closed: string | null; reload: () => Promise<void> }): ReactNode {
  const [title, setTitle] = useState("");
  const [quadrant, setQuadrant] = useState("backlog");
  const [due, setDue] = useState("");
  const [tagId, setTagId] = useState("");
  const create = useAction();
  async function submit(event: FormEvent) {
    event.preventDefault();
    const ok = await create.run(() =>
      api("POST", `/v1/boards/${data.board.id}/tasks`, {
        requestId: newRequestId(),
        title: title.trim(),
        quadrant,
        ...(due ? { dueDate: due } : {}),
        ...(tagId ? { tagIds: [tagId] } : {}),
      }),
    );
    if (ok) {
      setTitle("");
      setDue("");
      await reload();
    }
  }
  return (
    <form className="inline-form" onSubmit={(event) => void submit(event)} aria-labelledby="new-task-title">
      <h2 id="new-task-title">{t("board.newTask")}</h2>
      <label htmlFor="task-title">{t("board.taskTitle")}</label>
      <input id="task-title" required maxLength={200} value={title} disabled={closed !== null} onChange={(e) => setTitle(e.target.value)} />
      <label htmlFor="task-quadrant">{t("board.quadrant")}</label>
      <select id="task-quadrant" value={quadrant} disabled={closed !== null} onChange={(e) => setQuadrant(e.target.value)}>
        {[...matrix, "backlog"].map((id) => (
          <option key={id} value={id}>
            {quadrantTitle(data.board, id)}
          </option>
        ))}
      </select>
      <label htmlFor="task-due">{t("board.dueDate")}</label>
      <input id="task-due" type="date" value={due} disabled={closed !== null} onChange={(e) => setDue(e.target.value)} />
      {data.tags.length > 0 ? (
        <>
          <label htmlFor="task-tag">{t("board.tagsField")}</label>
          <select id="task-tag" value={tagId} disabled={closed !== null} onChange={(e) => setTagId(e.target.value)}>
            <option value="">{t("none")}</option>
            {data.tags.map((tag) => (
              <option key={tag.id} value={tag.id}>
                {tag.name}
              </option>
            ))}
          </select>
        </>
      ) : null}
      <button type="submit" disabled={closed !== null || create.busy}>
        {t("board.addTask")}
      </button>
      <Reason reason={closed} />
      <ErrorNote error={create.error} />
    </form>
  );
}

function Members({ data, reload }: { data: BoardData; reload: () => Promise<void> }): ReactNode {
  const session = useSession();
  const owner = data.board.role === "owner";
  const closed = refusal(session, "boards:write", true) ?? (owner ? null : t("board.ownerOnly"));
  const roles = ["owner", "editor", "viewer"] as const;
  return (
    <MembersPanel
      idPrefix=""
      base={`/v1/boards/${data.board.id}/members`}
      members={data.members}
      roles={roles}
      closed={closed}
      reload={reload}
    />
  );
}

function Tags({ data, closed, reload }: { data: BoardData; closed: string | null; reload: () => Promise<void> }): ReactNode {
  const [name, setName] = useState("");
  const [color, setColor] = useState<string>("teal");
  const create = useAction();
  async function submit(event: FormEvent) {
    event.preventDefault();
    if (await create.run(() => api("POST", `/v1/boards/${data.board.id}/tags`, { requestId: newRequestId(), name: name.trim(), color }))) {
      setName("");
      await reload();
    }
  }
  return (
    <section aria-labelledby="tags-title">
      <h2 id="tags-title">{t("tags.title")}</h2>
      {data.tags.length === 0 ? (
        <p className="empty">{t("tags.empty")}</p>
      ) : (
        <ul className="tag-list">
          {data.tags.map((tag) => (
            <TagRow key={tag.id} boardId={data.board.id} tag={tag} closed={closed} reload={reload} />
          ))}
        </ul>
      )}
      <form className="inline-form" onSubmit={(event) => void submit(event)} aria-label={t("tags.create")}>
        <label htmlFor="tag-name">{t("tags.name")}</label>
        <input id="tag-name" required maxLength={40} value={name} disabled={closed !== null} onChange={(e) => setName(e.target.value)} />
        <label htmlFor="tag-color">{t("tags.color")}</label>
        <select id="tag-color" value={color} disabled={closed !== null} onChange={(e) => setColor(e.target.value)}>
          {colors.map((value) => (
            <option key={value} value={value}>
              {value}
            </option>
          ))}
        </select>
        <button type="submit" disabled={closed !== null || create.busy}>
          {t("tags.create")}
        </button>
        <ErrorNote error={create.error} />
      </form>
    </section>
  );
}

/** One tag: rename or delete it, with the version read (deleting removes it from every task). */
function TagRow({
  boardId,
  tag,
  closed,
  reload,
}: {
  boardId: string;
  tag: Tag;
  closed: string | null;
  reload: () => Promise<void>;
}): ReactNode {
  const [name, setName] = useState(tag.name);
  const change = useAction();
  const path = `/v1/boards/${boardId}/tags/${tag.id}`;
  const version = { "If-Match": `"${tag.version ?? 0}"` };
  async function rename(event: FormEvent) {
    event.preventDefault();
    if (await change.run(() => api("PATCH", path, { name: name.trim() }, version))) await reload();
  }
  return (
    <li>
      <span className={`tag color-${tag.color}`}>{tag.name}</span>
      <form className="tag-edit" onSubmit={(event) => void rename(event)}>
        <input
          aria-label={t("tags.renameField", { name: tag.name })}
          required
          maxLength={40}
          value={name}
          disabled={closed !== null}
          onChange={(e) => setName(e.target.value)}
        />
        <button type="submit" className="secondary" disabled={closed !== null || change.busy || name.trim() === tag.name}>
          {t("tags.rename")}
        </button>
        <button
          type="button"
          className="link"
          disabled={closed !== null || change.busy}
          aria-label={t("tags.delete", { name: tag.name })}
          onClick={() => void change.run(() => api("DELETE", path, undefined, version)).then(reload)}
        >
          ✕
        </button>
      </form>
      <ErrorNote error={change.error} />
    </li>
  );
}

function Activity({ data }: { data: BoardData }): ReactNode {
  const { events, coverageStart } = data.activity;
  const titles = new Map(data.tasks.map((task) => [task.id, task.title]));
  return (
    <section aria-labelledby="activity-title">
      <h2 id="activity-title">{t("activity.title")}</h2>
      {events.length === 0 ? (
        <p className="empty">{t("activity.empty")}</p>
      ) : (
        <ol className="events">
          {events.map((event) => (
            <li key={event.id}>
              <time dateTime={event.created_at}>{formatDate(event.created_at)}</time>{" "}
              <span data-event={event.event_type}>{eventSentence(event, data.board, titles)}</span>
            </li>
          ))}
        </ol>
      )}
      <p>
        <small>{t("activity.since", { date: formatDate(coverageStart) })}</small>
      </p>
    </section>
  );
}
