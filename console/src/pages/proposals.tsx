/**
 * The review of an agent's proposals: each pending proposal's summary and suggestions (task, from → to, reason),
 * Apply or Reject per suggestion, close the summary or dismiss the whole proposal. Applying runs the REST route,
 * which moves the task only if it is still at the version the agent saw; otherwise the suggestion turns obsolete
 * and the page says so.
 */
import { useState, type ReactNode } from "react";
import { api } from "../api";
import type { BoardData, Proposal, Suggestion } from "../boards-types";
import { formatDate, t } from "../i18n";
import { quadrantTitle } from "../quadrant-title";
import { ErrorNote, Reason, useAction } from "../ui";

/** What this page learnt while reviewing: proposals reviewed here stay in view once closed, obsolete ones say why. */
interface Review {
  touched: Set<string>;
  touch: (proposalId: string) => void;
  /** The task's version when its suggestion turned obsolete here (null: could not read it). */
  obsolete: Record<string, number | null>;
  markObsolete: (suggestionId: string, current: number | null) => void;
}

export function Proposals({ data, closed, reload }: { data: BoardData; closed: string | null; reload: () => Promise<void> }): ReactNode {
  const [touched, setTouched] = useState<Set<string>>(() => new Set());
  const [obsolete, setObsolete] = useState<Record<string, number | null>>({});
  const review: Review = {
    touched,
    touch: (id) => setTouched((known) => new Set(known).add(id)),
    obsolete,
    markObsolete: (id, current) => setObsolete((known) => ({ ...known, [id]: current })),
  };
  const pending = data.proposals.filter((proposal) => proposal.closed_at === null || touched.has(proposal.id));
  const closedCount = data.proposals.length - pending.length;
  return (
    <section className="proposals" aria-labelledby="proposals-title">
      <h2 id="proposals-title">{t("proposals.title")}</h2>
      {pending.length === 0 ? <p className="empty">{t("proposals.empty")}</p> : null}
      {pending.map((proposal) => (
        <ProposalCard key={proposal.id} proposal={proposal} data={data} closed={closed} reload={reload} review={review} />
      ))}
      {closedCount > 0 ? (
        <p>
          <small>{t("proposals.closedCount", { count: closedCount })}</small>
        </p>
      ) : null}
    </section>
  );
}

function ProposalCard({
  proposal,
  data,
  closed,
  reload,
  review: known,
}: {
  proposal: Proposal;
  data: BoardData;
  closed: string | null;
  reload: () => Promise<void>;
  review: Review;
}): ReactNode {
  const review = useAction();
  const base = `/v1/boards/${data.board.id}/proposals/${proposal.id}`;
  const tasks = new Map(data.tasks.map((task) => [task.id, task]));
  const titleOf = (suggestion: Suggestion) => tasks.get(suggestion.task_id)?.title ?? t("proposals.unknownTask");

  async function decide(suggestion: Suggestion, action: "apply" | "reject") {
    known.touch(proposal.id);
    await review.run(async () => {
      try {
        const answer = await api<{ outcome: string }>("POST", `${base}/suggestions/${suggestion.id}/${action}`);
        if (answer.outcome === "obsolete") {
          const current = await api<{ task: { version: number } }>("GET", `/v1/boards/${data.board.id}/tasks/${suggestion.task_id}`).then(
            (result) => result.task.version,
            () => null,
          );
          known.markObsolete(suggestion.id, current);
        }
      } finally {
        await reload();
      }
    });
  }
  async function close(action: "close-summary" | "dismiss") {
    known.touch(proposal.id);
    await review.run(async () => {
      try {
        await api("POST", `${base}/${action}`);
      } finally {
        await reload();
      }
    });
  }

  const label = t("proposals.title");
  return (
    <article className="proposal" aria-label={`${label}: ${proposal.summary ?? proposal.id}`} data-proposal-id={proposal.id}>
      <p>
        <small>{t("proposals.by", { who: proposal.created_by ?? "?", date: formatDate(proposal.created_at) })}</small>
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
        <table className="suggestions">
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
              const why = suggestion.id in known.obsolete ? known.obsolete[suggestion.id] : undefined;
              return (
                <tr key={suggestion.id} className={`suggestion state-${suggestion.state}`} data-suggestion-id={suggestion.id}>
                  <td>{title}</td>
                  <td>
                    {/* once applied, the task's quadrant is the target: the origin is in the activity */}
                    {suggestion.state === "applied" || !task ? "" : `${quadrantTitle(data.board, task.quadrant)} `}→{" "}
                    {quadrantTitle(data.board, suggestion.quadrant)}
                  </td>
                  <td className="reason-text">{suggestion.reason}</td>
                  <td>
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
        <button type="button" className="secondary" disabled={closed !== null || review.busy} onClick={() => void close("dismiss")}>
          {t("proposals.dismiss")}
        </button>
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
