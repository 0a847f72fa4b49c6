/**
 * The boards REST shapes the console reads, taken from the routes' declared answers (api-types.ts is generated from
 * GET /v1/openapi.json): a field the boards service stops answering fails the console's typecheck.
 */
import type { JsonAnswer } from "./api-answers";

export const matrix = ["urgent-important", "not-urgent-important", "urgent-not-important", "not-urgent-not-important"] as const;
export const colors = ["gray", "red", "orange", "yellow", "green", "teal", "blue", "purple", "pink"] as const;

type OnBoard = "/v1/boards/{boardId}";

export type Board = JsonAnswer<OnBoard, "get">["board"];
export type Quadrant = Board["quadrants"][number];
/** A board's tag, with the version a rename, recolour or delete sends back (a task's own tags carry none). */
export type Tag = JsonAnswer<`${OnBoard}/tags`, "get">["tags"][number];
export type Task = JsonAnswer<`${OnBoard}/tasks/{taskId}`, "get">["task"];
export type Proposal = JsonAnswer<`${OnBoard}/proposals/{proposalId}`, "get">["proposal"];
export type Suggestion = Proposal["suggestions"][number];
export type Member = JsonAnswer<`${OnBoard}/members`, "get">["members"][number];
export type ActivityEvent = JsonAnswer<`${OnBoard}/activity`, "get">["events"][number];

/** A task as a proposal's suggestions need it: its title and where it is now. */
export type TaskRef = Pick<Task, "id" | "title" | "quadrant" | "version">;

/** GET /v1/inbox: open proposals across the boards the person reviews, and the tasks they name. */
export type InboxPage = JsonAnswer<"/v1/inbox", "get">;
export type InboxCounts = JsonAnswer<"/v1/inbox/counts", "get">;

/** Everything the board page loads at once. */
export interface BoardData {
  board: Board;
  tasks: Task[];
  tags: Tag[];
  members: Member[];
  proposals: Proposal[];
  activity: { events: ActivityEvent[]; coverageStart: string };
}
