/** The tools' shapes and limits (docs/scripts.md#tools), shared by the MCP tools and the REST routes. */
import { z } from "zod";

export const limits = {
  titleMax: 160,
  textMax: 100_000,
  queryMax: 160,
  pageMax: 100,
  pageDefault: 20,
  offsetMax: 100_000,
  previewMax: 200,
} as const;

const scriptStatus = z.enum(["draft", "ready", "review", "completed"]);

/** PostgreSQL text cannot hold NUL; refusing it here turns a database error into a clear one. */
const noNul = (schema: z.ZodString) => schema.regex(/^[^\u0000]*$/, "must not contain NUL (\\u0000) characters");

const id = z.guid().describe("Script identifier (UUID).");
const revision = z.number().int().min(1).max(2_147_483_647).describe("The revision read with get_script.");
const title = noNul(z.string().min(1).max(limits.titleMax))
  .regex(/\S/, "must not be blank")
  .describe("Title, 1 to 160 characters, not only spaces.");
const text = noNul(z.string().max(limits.textMax)).describe("The full script text, up to 100,000 characters.");

export const listScriptsInput = z.strictObject({
  query: noNul(z.string().max(limits.queryMax)).optional().describe("Case-insensitive search in title and text, up to 160 characters."),
  status: scriptStatus.optional().describe("Only scripts with this status: draft, ready, review or completed."),
  trashed: z.boolean().optional().describe("true lists the trash instead of the active scripts."),
  limit: z.number().int().min(1).max(limits.pageMax).default(limits.pageDefault).describe("Items per page, 1 to 100 (default 20)."),
  offset: z.number().int().min(0).max(limits.offsetMax).default(0).describe("Start position, 0 to 100,000."),
});
export type ListScriptsInput = z.infer<typeof listScriptsInput>;

export const getScriptInput = z.strictObject({ id });

export const createScriptInput = z.strictObject({
  title,
  text,
  status: scriptStatus.default("draft").describe("draft (default), ready, review or completed."),
  idempotencyKey: z
    .guid()
    .optional()
    .describe("Optional UUID: a retry with the same key returns the first result instead of a second script."),
});
export type CreateScriptInput = z.infer<typeof createScriptInput>;

export const updateScriptInput = z.strictObject({
  id,
  revision: revision.describe(
    "The revision read with get_script. If it is not the current one, the call fails with conflict and error.details.current.",
  ),
  title: title.describe("New title, 1 to 160 characters."),
  text: text.describe("New full text, up to 100,000 characters."),
  status: scriptStatus.describe("New status."),
});
export type UpdateScriptInput = z.infer<typeof updateScriptInput>;

export const revisionedRef = z.strictObject({ id, revision: revision.describe("The script's current revision.") });
export type RevisionedRef = z.infer<typeof revisionedRef>;

export const scriptView = z.object({
  id: z.string(),
  title: z.string(),
  text: z.string(),
  status: scriptStatus,
  revision: z.number().int(),
  createdAt: z.string(),
  updatedAt: z.string(),
  deletedAt: z.string().nullable(),
  createdBy: z.string(),
  updatedBy: z.string(),
});
export type ScriptView = z.infer<typeof scriptView>;

const scriptListItem = scriptView.omit({ text: true }).extend({
  preview: z.string().describe("The first characters of the text (at most 200)."),
});
export type ScriptListItem = z.infer<typeof scriptListItem>;

export const scriptResult = z.object({ script: scriptView });
export const listScriptsResult = z.object({
  scripts: z.array(scriptListItem),
  hasMore: z.boolean(),
  nextOffset: z.number().int().nullable(),
});
export type ListScriptsResult = z.infer<typeof listScriptsResult>;

export const listChangesInput = z.strictObject({
  after: z.coerce.number().int().min(0).default(0),
  limit: z.coerce.number().int().min(1).max(1000).default(100),
});
