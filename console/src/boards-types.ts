/** The boards REST shapes the console reads (snake_case, as the boards API answers). */
export const matrix = ["urgent-important", "not-urgent-important", "urgent-not-important", "not-urgent-not-important"] as const;
export const colors = ["gray", "red", "orange", "yellow", "green", "teal", "blue", "purple", "pink"] as const;

export interface Quadrant {
  id: string;
  title: string;
  subtitle: string;
  color: string;
  customized: boolean;
}

export interface Board {
  id: string;
  name: string;
  description: string | null;
  archived_at: string | null;
  created_at: string;
  quadrants: Quadrant[];
  role: "owner" | "editor" | "viewer";
  version: number;
}

export interface Tag {
  id: string;
  name: string;
  color: string;
  version?: number;
}

export interface Task {
  id: string;
  board_id: string;
  task_number: number;
  title: string;
  description: string | null;
  quadrant: string;
  status: "active" | "completed" | "discarded";
  assignee_id: string | null;
  due_date: string | null;
  tags: Tag[];
  version: number;
  archived_at?: string | null;
}

export interface Suggestion {
  id: string;
  task_id: string;
  version: number;
  quadrant: string;
  reason: string;
  state: "pending" | "applied" | "rejected" | "obsolete";
  /** Applied: the quadrant the task left (null otherwise). */
  from_quadrant: string | null;
  /** Obsolete and proposed again: the new proposal's id (null otherwise). */
  reproposed_as: string | null;
}

export interface Proposal {
  id: string;
  board_id: string;
  summary: string | null;
  summary_closed: boolean;
  suggestions: Suggestion[];
  closed_at: string | null;
  created_at: string;
  /** The person whose key submitted it, and that key's agent. */
  created_by: string;
  agent_id: string;
}

/** A task as a proposal's suggestions need it: its title and where it is now. */
export type TaskRef = Pick<Task, "id" | "title" | "quadrant" | "version">;

/** GET /v1/inbox: open proposals across the boards the person reviews, and the tasks they name. */
export interface InboxPage {
  proposals: Proposal[];
  tasks: (TaskRef & { board_id: string })[];
  nextCursor: string | null;
}

export interface InboxCounts {
  total: number;
  boards: { board_id: string; pending: number }[];
}

export interface Member {
  person_id: string;
  role: "owner" | "editor" | "viewer";
  created_at: string;
}

export interface ActivityEvent {
  id: string;
  actor_id: string;
  event_type: string;
  entity_type: string;
  entity_id: string;
  metadata: Record<string, unknown>;
  created_at: string;
}

/** Everything the board page loads at once. */
export interface BoardData {
  board: Board;
  tasks: Task[];
  tags: Tag[];
  members: Member[];
  proposals: Proposal[];
  activity: { events: ActivityEvent[]; coverageStart: string };
}
