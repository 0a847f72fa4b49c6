/**
 * Result shapes of docs/boards.md#tools: snake_case fields, exactly the documented keys. The zod objects are not
 * strict, so the tool layer strips what only the app's REST API shows (a task's archived_at, the
 * caller's role and the board's version): one domain result, two audiences.
 */
import { z } from "zod";
import { matrixQuadrants, quadrantId } from "./quadrants.js";

export const taskStatus = z.enum(["active", "completed", "discarded"]);
export type TaskStatus = z.infer<typeof taskStatus>;
export const boardRole = z.enum(["owner", "editor", "viewer"]);
export type BoardRole = z.infer<typeof boardRole>;
const suggestionState = z.enum(["pending", "applied", "rejected", "obsolete"]);
export type SuggestionState = z.infer<typeof suggestionState>;

const tagView = z.object({ id: z.string(), name: z.string(), color: z.string() });
export type TagView = z.infer<typeof tagView>;
/** A tag as the app's REST API shows it: with the version a rename, recolour or delete must send back. */
const tagRecord = tagView.extend({ version: z.number().int() });
export type TagRecord = z.infer<typeof tagRecord>;

const taskView = z.object({
  id: z.string(),
  board_id: z.string(),
  task_number: z.number().int(),
  title: z.string(),
  description: z.string().nullable(),
  quadrant: quadrantId,
  status: taskStatus,
  assignee_id: z.string().nullable(),
  due_date: z.string().nullable(),
  tags: z.array(tagView),
  version: z.number().int(),
  created_at: z.string(),
  updated_at: z.string(),
});
/** The task as the domain and the REST API see it. */
const taskRecord = taskView.extend({ archived_at: z.string().nullable() });
export type TaskRecord = z.infer<typeof taskRecord>;

const quadrantView = z.object({
  id: z.enum(matrixQuadrants as [string, ...string[]]),
  title: z.string(),
  subtitle: z.string(),
  color: z.string(),
  customized: z.boolean(),
});
export type QuadrantView = z.infer<typeof quadrantView>;

const boardView = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string().nullable(),
  archived_at: z.string().nullable(),
  created_at: z.string(),
  quadrants: z.array(quadrantView),
});
/** The board as the REST API shows it: the caller's role on it and the version a change must send back. */
const boardRecord = boardView.extend({ role: boardRole, version: z.number().int() });
export type BoardRecord = z.infer<typeof boardRecord>;

const eventView = z.object({
  id: z.string(),
  board_id: z.string(),
  actor_id: z.string(),
  event_type: z.string(),
  entity_type: z.string(),
  entity_id: z.string(),
  metadata: z.record(z.string(), z.unknown()),
  created_at: z.string(),
});
export type EventView = z.infer<typeof eventView>;

const suggestionView = z.object({
  id: z.string(),
  task_id: z.string(),
  version: z.number().int(),
  quadrant: quadrantId,
  reason: z.string(),
  state: suggestionState,
});

const proposalView = z.object({
  id: z.string(),
  board_id: z.string(),
  summary: z.string().nullable(),
  summary_closed: z.boolean(),
  suggestions: z.array(suggestionView),
  closed_at: z.string().nullable(),
});
/**
 * The proposal as the app's REST API shows it: who submitted it (the person and the key's agent); for each applied
 * suggestion the quadrant its task left, for an obsolete one the proposal that proposed it again (null otherwise,
 * or once that activity has expired).
 */
const proposalRecord = proposalView.extend({
  suggestions: z.array(suggestionView.extend({ from_quadrant: z.string().nullable(), reproposed_as: z.string().nullable() })),
  created_at: z.string(),
  created_by: z.string(),
  agent_id: z.string(),
});
export type ProposalRecord = z.infer<typeof proposalRecord>;

/** A board member as the REST API lists them. */
const memberRecord = z.object({ person_id: z.string(), role: boardRole, created_at: z.string() });
export type MemberRecord = z.infer<typeof memberRecord>;

/** A task a listed inbox suggestion names, as it is now: enough to show "from → to" without reading each board. */
const inboxTask = taskView.pick({ id: true, board_id: true, task_number: true, title: true, quadrant: true, status: true, version: true });
export type InboxTask = z.infer<typeof inboxTask>;

export const taskResult = z.object({ task: taskView });
export type TaskResult = { task: TaskRecord };
export const listBoardsResult = z.object({ boards: z.array(boardView) });
export const listTasksResult = z.object({ tasks: z.array(taskView), nextCursor: z.string().nullable() });
export type ListTasksResult = { tasks: TaskRecord[]; nextCursor: string | null };
export const listTagsResult = z.object({ tags: z.array(tagView) });
export const activityResult = z.object({ events: z.array(eventView), nextCursor: z.string().nullable(), coverageStart: z.string() });
export type ActivityResult = z.infer<typeof activityResult>;
export const proposalResult = z.object({ proposal: proposalView });
export type ProposalResult = { proposal: ProposalRecord };
export const listProposalsResult = z.object({ proposals: z.array(proposalView), nextCursor: z.string().optional() });
export type ListProposalsResult = { proposals: ProposalRecord[]; nextCursor?: string };

/**
 * What the REST routes answer (their declared `response`, which the OpenAPI document and the console's generated
 * types are read from): the records above, with what only the app sees.
 */
export const restAnswers = {
  board: z.object({ board: boardRecord }),
  boards: z.object({ boards: z.array(boardRecord) }),
  task: z.object({ task: taskRecord }),
  tasks: z.object({ tasks: z.array(taskRecord), nextCursor: z.string().nullable() }),
  tag: z.object({ tag: tagRecord }),
  tags: z.object({ tags: z.array(tagRecord) }),
  member: z.object({ member: memberRecord }),
  members: z.object({ members: z.array(memberRecord) }),
  activity: activityResult,
  proposal: z.object({ proposal: proposalRecord }),
  proposals: z.object({ proposals: z.array(proposalRecord), nextCursor: z.string().optional() }),
  review: z.object({ proposal: proposalRecord, outcome: suggestionState }),
  reviewAll: z.object({ proposal: proposalRecord, outcomes: z.record(z.string(), suggestionState) }),
  inbox: z.object({ proposals: z.array(proposalRecord), tasks: z.array(inboxTask), nextCursor: z.string().nullable() }),
  inboxCounts: z.object({ total: z.number().int(), boards: z.array(z.object({ board_id: z.string(), pending: z.number().int() })) }),
};
export type InboxPage = z.infer<typeof restAnswers.inbox>;
export type InboxCounts = z.infer<typeof restAnswers.inboxCounts>;
