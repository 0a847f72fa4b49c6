/**
 * The inbox: every open proposal on the boards the person reviews (GET /v1/inbox, newest first), each naming its
 * board and the agent that sent it, reviewed with the same cards as a board's page. A proposal reviewed here stays
 * in view once it closes (read back by id), so the outcome of Apply all or a re-proposal can be seen.
 */
import { useRef, type ReactNode } from "react";
import { api } from "../api";
import type { Board, InboxPage as InboxAnswer, Proposal, TaskRef } from "../boards-types";
import { t } from "../i18n";
import { refusal, useSession } from "../session";
import { Status, useLoad } from "../ui";
import { ProposalCard, useReview } from "./proposals";

/** At most this many pages of 50 are read at once: an inbox longer than that is worked from the newest. */
const maxPages = 10;

interface Loaded {
  boards: Map<string, Board>;
  proposals: Proposal[];
  tasks: TaskRef[];
}

async function readInbox(): Promise<{ proposals: Proposal[]; tasks: TaskRef[] }> {
  const proposals: Proposal[] = [];
  const tasks: TaskRef[] = [];
  let cursor: string | null = null;
  for (let page = 0; page < maxPages; page++) {
    const answer: InboxAnswer = await api<InboxAnswer>("GET", cursor ? `/v1/inbox?cursor=${encodeURIComponent(cursor)}` : "/v1/inbox");
    proposals.push(...answer.proposals);
    tasks.push(...answer.tasks);
    cursor = answer.nextCursor;
    if (!cursor) break;
  }
  return { proposals, tasks };
}

/** A proposal closed by a review here, read back with its tasks as they are now. */
async function readClosed(proposal: Proposal): Promise<{ proposal: Proposal; tasks: TaskRef[] } | null> {
  const base = `/v1/boards/${proposal.board_id}`;
  try {
    const { proposal: now } = await api<{ proposal: Proposal }>("GET", `${base}/proposals/${proposal.id}`);
    const tasks = await Promise.all(
      now.suggestions.map((suggestion) =>
        api<{ task: TaskRef }>("GET", `${base}/tasks/${suggestion.task_id}`).then(
          (answer) => answer.task,
          () => null,
        ),
      ),
    );
    return { proposal: now, tasks: tasks.filter((task): task is TaskRef => task !== null) };
  } catch {
    return null; // gone meanwhile (the board deleted, access removed): it leaves the page
  }
}

export function InboxPage(): ReactNode {
  const session = useSession();
  const review = useReview();
  // the reviewed proposals, by id, as last shown: read again by id when the inbox no longer lists them
  const shown = useRef(new Map<string, Proposal>());
  const touched = useRef(review.touched);
  touched.current = review.touched;

  const inbox = useLoad(async (): Promise<Loaded> => {
    const [{ boards }, open] = await Promise.all([api<{ boards: Board[] }>("GET", "/v1/boards"), readInbox()]);
    const listed = new Set(open.proposals.map((proposal) => proposal.id));
    const reviewed = [...touched.current].filter((id) => !listed.has(id)).map((id) => shown.current.get(id));
    const closed = await Promise.all(reviewed.map((proposal) => (proposal ? readClosed(proposal) : null)));
    const proposals = [...open.proposals];
    const tasks = [...open.tasks];
    for (const kept of closed) {
      if (!kept) continue;
      proposals.push(kept.proposal);
      tasks.push(...kept.tasks);
    }
    // a stable sort by the second shown: the open ones keep the API's order (finer than a second), the kept ones join them
    proposals.sort((a, b) => b.created_at.localeCompare(a.created_at));
    shown.current = new Map(proposals.map((proposal) => [proposal.id, proposal]));
    return { boards: new Map(boards.map((board) => [board.id, board])), proposals, tasks };
  }, []);
  const writes = refusal(session, "boards:write", true);

  return (
    <section aria-labelledby="inbox-title" className="inbox">
      <h1 id="inbox-title">{t("inbox.title")}</h1>
      <p>{t("inbox.intro")}</p>
      <Status state={inbox}>
        {({ boards, proposals, tasks }) =>
          proposals.length === 0 ? (
            <p className="empty">{t("inbox.empty")}</p>
          ) : (
            <div className="proposals">
              {proposals.map((proposal) => {
                const board = boards.get(proposal.board_id);
                if (!board) return null; // a board that left the list between the two reads
                return (
                  <ProposalCard
                    key={proposal.id}
                    proposal={proposal}
                    board={board}
                    tasks={tasks}
                    closed={writes}
                    reload={inbox.reload}
                    review={review}
                    heading={
                      <h2 className="proposal-board">
                        <a href={`#/boards/${board.id}`}>{t("inbox.onBoard", { board: board.name })}</a>
                      </h2>
                    }
                  />
                );
              })}
            </div>
          )
        }
      </Status>
    </section>
  );
}
