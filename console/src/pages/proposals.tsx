/**
 * The review of an agent's proposals: each pending proposal's sender (agent and person), summary and suggestions
 * (task, from → to, reason), Apply or Reject per suggestion or all at once, close the summary or dismiss the whole
 * proposal. Applying runs the REST route, which moves the task only if it is still at the version the agent saw;
 * otherwise the suggestion turns obsolete, the page says so, and "Propose again" makes a new proposal of it at the
 * task's current version. The board's page and the inbox share these cards.
 */
import { useState, type ReactNode } from "react";
import { api, newRequestId } from "../api";
import type { Board, BoardData, Proposal, Suggestion, TaskRef } from "../boards-types";
import { formatDate, t } from "../i18n";
import { useInboxCounts } from "../inbox-counts";
import { quadrantTitle } from "../quadrant-title";
import { ErrorNote, Reason, useAction } from "../ui";

/** What this page learnt while reviewing: proposals reviewed here stay in view once closed, obsolete ones say why. */
export interface Review {
  touched: Set<string>;
  touch: (proposalId: string) => void;
  /** The task's version when its suggestion turned obsolete here (null: could not read it). */
  obsolete: Record<string, number | null>;
  markObsolete: (suggestionId: string, current: number | null) => void;
}

export function useReview(): Review {
  const [touched, setTouched] = useState<Set<string>>(() => new Set());
  const [obsolete, setObsolete] = useState<Record<string, number | null>>({});
  return {
    touched,
    touch: (id) => setTouched((known) => new Set(known).add(id)),
    obsolete,
    markObsolete: (id, current) => setObsolete((known) => ({ ...known, [id]: current })),
  };
}

export function Proposals({ data, closed, reload }: { data: BoardData; closed: string | null; reload: () => Promise<void> }): ReactNode {
  const review = useReview();
  const pending = data.proposals.filter((proposal) => proposal.closed_at === null || review.touched.has(proposal.id));
  const closedCount = data.proposals.length - pending.length;
  return (
    <section className="proposals" aria-labelledby="proposals-title">
      <h2 id="proposals-title">{t("proposals.title")}</h2>
      {pending.length === 0 ? <p className="empty">{t("proposals.empty")}</p> : null}
      {pending.map((proposal) => (
        <ProposalCard
          key={proposal.id}
          proposal={proposal}
          board={data.board}
          tasks={data.tasks}
          closed={closed}
          reload={reload}
          review={review}
        />
      ))}
      {closedCount > 0 ? (
        <p>
          <small>{t("proposals.closedCount", { count: closedCount })}</small>
        </p>
      ) : null}
    </section>
  );
}

export function ProposalCard({
  proposal,
  board,
  tasks: known,
  closed,
  reload,
  review: seen,
  heading,
}: {
  proposal: Proposal;
  board: Board;
  tasks: TaskRef[];
  closed: string | null;
  reload: () => Promise<void>;
  review: Review;
  /** Shown above the sender line (the inbox names the board here). */
  heading?: ReactNode;
}): ReactNode {
  const review = useAction();
  const counts = useInboxCounts();
  const base = `/v1/boards/${board.id}/proposals/${proposal.id}`;
  const tasks = new Map(known.map((task) => [task.id, task]));
  const titleOf = (suggestion: Suggestion) => tasks.get(suggestion.task_id)?.title ?? t("proposals.unknownTask");
  const [reproposed, setReproposed] = useState<Set<string>>(() => new Set());

  /** Runs one review call, then reloads the page and the counts whatever came of it. */
  async function reviewing(call: () => Promise<void>) {
    seen.touch(proposal.id);
    await review.run(async () => {
      try {
        await call();
      } finally {
        await Promise.all([reload(), counts.refresh()]);
      }
    });
  }
  /** Obsolete suggestions learn the task's version now, to show both. */
  async function noteObsolete(suggestionIds: string[]) {
    for (const id of suggestionIds) {
      const suggestion = proposal.suggestions.find((candidate) => candidate.id === id);
      if (!suggestion) continue;
      const current = await api<{ task: { version: number } }>("GET", `/v1/boards/${board.id}/tasks/${suggestion.task_id}`).then(
        (result) => result.task.version,
        () => null,
      );
      seen.markObsolete(id, current);
    }
  }
  const decide = (suggestion: Suggestion, action: "apply" | "reject") =>
    reviewing(async () => {
      const answer = await api<{ outcome: string }>("POST", `${base}/suggestions/${suggestion.id}/${action}`);
      if (answer.outcome === "obsolete") await noteObsolete([suggestion.id]);
    });
  const decideAll = (action: "apply-all" | "reject-all") =>
    reviewing(async () => {
      const answer = await api<{ outcomes: Record<string, string> }>("POST", `${base}/${action}`);
      await noteObsolete(Object.keys(answer.outcomes).filter((id) => answer.outcomes[id] === "obsolete"));
    });
  const close = (action: "close-summary" | "dismiss") => reviewing(() => api("POST", `${base}/${action}`));
  const repropose = (suggestion: Suggestion) =>
    reviewing(async () => {
      await api("POST", `${base}/suggestions/${suggestion.id}/repropose`, { requestId: newRequestId() });
      setReproposed((done) => new Set(done).add(suggestion.id));
    });

  const label = t("proposals.title");
  const open = proposal.suggestions.filter((suggestion) => suggestion.state === "pending").length;
  return (
    <article className="proposal" aria-label={`${label}: ${proposal.summary ?? proposal.id}`} data-proposal-id={proposal.id}>
      {heading}
      <p>
        <small>
          {t("proposals.byAgent", { agent: proposal.agent_id, person: proposal.created_by, date: formatDate(proposal.created_at) })}
        </small>
      </p>
      {proposal.summary !== null ? (
        <div className="summary">
          <h3>{t("proposals.summary")}</h3>
          {/* shown as text, never as markup: React escapes it */}
          <p className="summary-text">{proposal.summary}</p>
          {proposal.summary_closed ? (
            <p>
              <small>{t("proposals.summaryClosed")}</small>
            </p>
          ) : (
            <button type="button" disabled={closed !== null || review.busy} onClick={() => void close("close-summary")}>
              {t("proposals.closeSummary")}
            </button>
          )}
        </div>
      ) : null}
      {proposal.suggestions.length > 0 ? (
        <table className="suggestions stacked">
          <caption>{t("proposals.suggestions")}</caption>
          <thead>
            <tr>
              <th scope="col">{t("proposals.task")}</th>
              <th scope="col">{t("proposals.change")}</th>
              <th scope="col">{t("proposals.reason")}</th>
              <th scope="col">{t("proposals.state")}</th>
              <th scope="col">
                <span className="visually-hidden">{t("proposals.apply")}</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {proposal.suggestions.map((suggestion) => {
              const task = tasks.get(suggestion.task_id);
              const title = titleOf(suggestion);
              const from = origin(suggestion, task);
              const why = suggestion.id in seen.obsolete ? seen.obsolete[suggestion.id] : undefined;
              return (
                <tr key={suggestion.id} className={`suggestion state-${suggestion.state}`} data-suggestion-id={suggestion.id}>
                  <td data-label={t("proposals.task")}>{title}</td>
                  <td data-label={t("proposals.change")}>
                    {/* once applied, the task's quadrant is the target: the origin is the one the service kept */}
                    {from ? `${quadrantTitle(board, from)} ` : ""}→ {quadrantTitle(board, suggestion.quadrant)}
                  </td>
                  <td className="reason-text" data-label={t("proposals.reason")}>
                    {suggestion.reason}
                  </td>
                  <td data-label={t("proposals.state")}>
                    <span className="badge">{t(`proposals.state.${suggestion.state}`)}</span>
                    {suggestion.state === "obsolete" ? (
                      <p className="conflict" role="status">
                        {t("proposals.obsolete", {
                          version: suggestion.version,
                          current: why ?? task?.version ?? "?",
                        })}
                      </p>
                    ) : null}
                  </td>
                  <td className="actions">
                    {suggestion.state === "obsolete" && !suggestion.reproposed_as && !reproposed.has(suggestion.id) ? (
                      <button
                        type="button"
                        className="secondary"
                        disabled={closed !== null || review.busy}
                        aria-label={t("proposals.reproposeFor", { task: title })}
                        onClick={() => void repropose(suggestion)}
                      >
                        {t("proposals.repropose")}
                      </button>
                    ) : null}
                    {suggestion.reproposed_as || reproposed.has(suggestion.id) ? (
                      <p className="note" role="status">
                        {t("proposals.reproposed")}
                      </p>
                    ) : null}
                    {suggestion.state === "pending" ? (
                      <>
                        <button
                          type="button"
                          disabled={closed !== null || review.busy}
                          aria-label={t("proposals.applyFor", { task: title })}
                          onClick={() => void decide(suggestion, "apply")}
                        >
                          {t("proposals.apply")}
                        </button>
                        <button
                          type="button"
                          className="secondary"
                          disabled={closed !== null || review.busy}
                          aria-label={t("proposals.rejectFor", { task: title })}
                          onClick={() => void decide(suggestion, "reject")}
                        >
                          {t("proposals.reject")}
                        </button>
                      </>
                    ) : null}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      ) : null}
      {proposal.closed_at === null ? (
        <div className="proposal-actions">
          {open > 0 ? (
            <>
              <button type="button" disabled={closed !== null || review.busy} onClick={() => void decideAll("apply-all")}>
                {t("proposals.applyAll")}
              </button>
              <button
                type="button"
                className="secondary"
                disabled={closed !== null || review.busy}
                onClick={() => void decideAll("reject-all")}
              >
                {t("proposals.rejectAll")}
              </button>
            </>
          ) : null}
          <button type="button" className="secondary" disabled={closed !== null || review.busy} onClick={() => void close("dismiss")}>
            {t("proposals.dismiss")}
          </button>
        </div>
      ) : (
        <p>
          <small>{t("proposals.closedAt", { date: formatDate(proposal.closed_at) })}</small>
        </p>
      )}
      <Reason reason={closed} />
      <ErrorNote error={review.error} />
    </article>
  );
}

/** Where the suggestion moves its task from: the origin kept once applied, else where the task is now. */
function origin(suggestion: Suggestion, task: TaskRef | undefined): string | null {
  if (suggestion.state === "applied") return suggestion.from_quadrant;
  return task?.quadrant ?? null;
}
