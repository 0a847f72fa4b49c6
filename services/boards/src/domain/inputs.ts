/**
 * Tool arguments of docs/boards.md#tools (camelCase, strict: unknown fields are refused). The same schemas parse
 * the REST bodies, so MCP and the app can never disagree on a rule.
 */
import { z } from "zod";
import { limits } from "./limits.js";
import { color, matrixQuadrants, quadrantId } from "./quadrants.js";
import { boardRole, taskStatus } from "./views.js";

/** PostgreSQL text cannot hold NUL; refusing it here turns a database error into a clear one. */
const text = (max: number) =>
  z
    .string()
    .max(max)
    .regex(/^[^\u0000]*$/, "must not contain NUL (\\u0000) characters");
const nonBlank = (max: number) => text(max).regex(/\S/, "must not be blank");

const boardId = z.guid().describe("The board's id (UUID), as list_boards returns it.");
const taskId = z.guid().describe("The task's id (UUID).");
const requestId = z
  .guid()
  .describe(
    "A new UUID for each operation. Repeating it with the same arguments within 7 days returns the original result without writing again.",
  );
const expectedVersion = z
  .number()
  .int()
  .min(1)
  .max(2_147_483_647)
  .describe("The task's version you last read; if it changed since, the call fails with VERSION_CONFLICT.");
const cursor = z.string().min(1).max(limits.cursorMax).describe("nextCursor of the previous page; omit for the first page.");
const title = nonBlank(limits.titleMax).describe(`Task title, 1 to ${limits.titleMax} characters.`);
const description = text(limits.descriptionMax);
// the calendar has no year 0 (1 BC is followed by AD 1): PostgreSQL refuses 0000-… as out of range
const dueDate = z.iso
  .date()
  .refine((value) => !value.startsWith("0000-"), "must be in year 0001 or later")
  .describe("Due date, YYYY-MM-DD.");
const tagIds = z
  .array(z.guid())
  .max(limits.tagIdsMax)
  .refine((ids) => new Set(ids.map((id) => id.toLowerCase())).size === ids.length, "must not repeat a tag")
  .describe(`Ids of this board's tags (list_board_tags), at most ${limits.tagIdsMax}.`);

export const listBoardsInput = z.strictObject({});

export const listTasksInput = z.strictObject({
  boardId,
  quadrant: quadrantId.optional().describe("Only tasks in this quadrant (technical id)."),
  status: taskStatus.optional().describe("Only tasks with this status: active, completed or discarded. Omitted: all three."),
  tagIds: tagIds.optional().describe(`Only tasks carrying at least one of these tags (at most ${limits.tagIdsMax}; [] filters nothing).`),
  cursor: cursor.optional(),
});

export const boardRef = z.strictObject({ boardId });
export const pagedBoardRef = z.strictObject({ boardId, cursor: cursor.optional() });
export type PagedBoardRef = z.infer<typeof pagedBoardRef>;

export const createTaskInput = z.strictObject({
  requestId: requestId.describe(
    "A new UUID for this task: it becomes the task's id. Repeating it with the same arguments within 7 days returns the original task.",
  ),
  boardId,
  title,
  quadrant: quadrantId.default("backlog").describe("Technical quadrant id; default backlog. The task goes to the end of the quadrant."),
  description: description.optional().describe(`Description, up to ${limits.descriptionMax} characters.`),
  dueDate: dueDate.optional(),
  tagIds: tagIds.optional(),
});
export type CreateTaskInput = z.infer<typeof createTaskInput>;

export const updateTaskInput = z.strictObject({
  requestId,
  boardId,
  taskId,
  expectedVersion,
  title: title.describe("Title (required), 1 to 200 characters."),
  description: description.optional().describe('Omitted: unchanged. "" removes the description.'),
  dueDate: dueDate.optional().describe("Omitted: unchanged. The due date cannot be removed through MCP (use the app)."),
  tagIds: tagIds.optional().describe("Omitted: tags unchanged. [] removes every tag. Otherwise the task's complete tag list."),
});

export const moveTaskInput = z.strictObject({
  requestId,
  boardId,
  taskId,
  expectedVersion,
  quadrant: quadrantId.describe("Target quadrant (technical id)."),
  beforeId: z.guid().optional().describe("Place the task just before this task of the target quadrant; omitted: at the end."),
});
export type MoveTaskInput = z.infer<typeof moveTaskInput>;

export const taskTransitionInput = z.strictObject({ requestId, boardId, taskId, expectedVersion });
export type TaskTransitionInput = z.infer<typeof taskTransitionInput>;

export const reopenTaskInput = z.strictObject({
  requestId,
  boardId,
  taskId,
  expectedVersion,
  quadrant: quadrantId.optional().describe("Quadrant to reopen into (end of it); omitted: the task's current quadrant."),
});
export type ReopenTaskInput = z.infer<typeof reopenTaskInput>;

const suggestionInput = z.strictObject({
  taskId,
  version: z
    .number()
    .int()
    .min(1)
    .max(2_147_483_647)
    .describe("The task's version you read; a human applying a stale suggestion gets it marked obsolete."),
  quadrant: quadrantId.describe("Suggested quadrant (technical id)."),
  reason: nonBlank(limits.reasonMax).describe(`Why, up to ${limits.reasonMax} characters.`),
});

export const submitProposalInput = z
  .strictObject({
    requestId: requestId.describe(
      "A new UUID per proposal. The same requestId with the same content returns the same proposal while it exists.",
    ),
    boardId,
    summary: nonBlank(limits.summaryMax).optional().describe(`Summary for the reviewers, up to ${limits.summaryMax} characters.`),
    suggestions: z
      .array(suggestionInput)
      .max(limits.suggestionsMax)
      .default([])
      .describe(`Up to ${limits.suggestionsMax} quadrant changes, one per task.`),
  })
  .refine((input) => input.summary !== undefined || input.suggestions.length > 0, {
    message: "send a summary or at least one suggestion",
    path: ["summary"],
  })
  .refine((input) => new Set(input.suggestions.map((s) => s.taskId.toLowerCase())).size === input.suggestions.length, {
    message: "at most one suggestion per task",
    path: ["suggestions"],
  });
export type SubmitProposalInput = z.infer<typeof submitProposalInput>;

// ---- The app's REST API only (boards, quadrants, members, tags, task extras) ----

const personId = text(limits.personIdMax).min(1).regex(/\S/, "must not be blank").describe("A person's id.");

export const createBoardInput = z.strictObject({
  requestId: requestId.describe("A new UUID for this board: it becomes the board's id."),
  name: nonBlank(limits.boardNameMax),
  description: text(limits.boardDescriptionMax).optional(),
});
export type CreateBoardInput = z.infer<typeof createBoardInput>;

export const updateBoardInput = z.strictObject({
  boardId,
  expectedVersion,
  name: nonBlank(limits.boardNameMax).optional(),
  description: text(limits.boardDescriptionMax).nullable().optional().describe('null or "" removes it'),
});
export type UpdateBoardInput = z.infer<typeof updateBoardInput>;

export const boardVersionInput = z.strictObject({ boardId, expectedVersion });
export type BoardVersionInput = z.infer<typeof boardVersionInput>;

export const customizeQuadrantInput = z.strictObject({
  boardId,
  expectedVersion,
  quadrant: z.enum(matrixQuadrants as [string, ...string[]]),
  title: nonBlank(limits.quadrantTitleMax),
  subtitle: text(limits.quadrantSubtitleMax),
  color,
});
export type CustomizeQuadrantInput = z.infer<typeof customizeQuadrantInput>;
export const resetQuadrantInput = customizeQuadrantInput.pick({ boardId: true, expectedVersion: true, quadrant: true });
export type ResetQuadrantInput = z.infer<typeof resetQuadrantInput>;

export const setMemberInput = z.strictObject({ boardId, personId, role: boardRole });
export type SetMemberInput = z.infer<typeof setMemberInput>;
export const memberRef = z.strictObject({ boardId, personId });
export type MemberRef = z.infer<typeof memberRef>;

const tagName = nonBlank(limits.tagNameMax);
const tagColor = color;
export const createTagInput = z.strictObject({
  requestId: requestId.describe("Becomes the tag's id."),
  boardId,
  name: tagName,
  color: tagColor,
});
export type CreateTagInput = z.infer<typeof createTagInput>;
const tagId = z.guid().describe("The tag's id (UUID).");
const tagVersion = expectedVersion.describe("The tag's version you last read; if it changed since, the call fails with VERSION_CONFLICT.");
export const updateTagInput = z.strictObject({
  boardId,
  tagId,
  expectedVersion: tagVersion,
  name: tagName.optional(),
  color: tagColor.optional(),
});
export type UpdateTagInput = z.infer<typeof updateTagInput>;
export const tagVersionRef = z.strictObject({ boardId, tagId, expectedVersion: tagVersion });
export type TagVersionRef = z.infer<typeof tagVersionRef>;

export const restCreateTaskInput = createTaskInput.extend({ assigneeId: personId.nullable().optional() });
export const restUpdateTaskInput = z.strictObject({
  requestId,
  boardId,
  taskId,
  expectedVersion,
  title: title.optional(),
  description: description.optional(),
  dueDate: dueDate.nullable().optional().describe("null removes the due date"),
  tagIds: tagIds.optional(),
  assigneeId: personId.nullable().optional().describe("null removes the assignee"),
});
export const restListTasksInput = listTasksInput.extend({ archived: z.boolean().optional() });
export type RestListTasksInput = z.infer<typeof restListTasksInput>;
