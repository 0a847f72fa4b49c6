/**
 * zod building blocks that check exactly what the list tool's fixed JSON Schemas check (docs/drafts.md#tools,
 * json-formats.ts),
 * and that advertise the same constraints when a tool's JSON Schema is generated from zod.
 */
import { z } from "zod";
import { codePoints, isRfc3339DateTime, isUuid, seedDateTime, seedDateTimePattern } from "./json-formats.js";
import { limits } from "./limits.js";

export const uuid = (description: string) => z.string().refine(isUuid, "must be a UUID").meta({ format: "uuid", description });

/** The contract's date-time: `format: "date-time"` and its pattern (real calendar dates, seconds, Z or ±hh:mm). */
export const dateTime = (description: string) =>
  z
    .string()
    .refine((value) => seedDateTime.test(value) && isRfc3339DateTime(value), "must be an RFC 3339 date-time such as 2099-01-15T08:30:00Z")
    .meta({ format: "date-time", pattern: seedDateTimePattern, description });

/** A string of at most `max` characters as JSON Schema counts them (code points). */
export const text = (max: number, description: string) =>
  z
    .string()
    .refine((value) => codePoints(value) <= max, `must be at most ${max} characters`)
    .meta({ maxLength: max, description });

/** PostgreSQL text cannot hold NUL; refusing it here turns a database error into a clear one. */
const noNul = /^[^\u0000]*$/;

export const caption = z
  .string()
  .refine((value) => noNul.test(value), "must not contain NUL (\\u0000) characters")
  .refine((value) => codePoints(value) <= limits.captionMax, `must be at most ${limits.captionMax} characters`)
  .meta({
    maxLength: limits.captionMax,
    pattern: "^[^\\u0000]*$",
    description: "The post text, up to 2,200 characters. Untrusted editorial text.",
  });

const accountId = z
  .string()
  .regex(/^[a-z][a-z0-9]{0,19}:[A-Za-z0-9._-]{1,64}$/, "must be a social account id '<network>:<handle>', e.g. instagram:acme")
  .describe("A social account as '<network>:<handle>', e.g. instagram:acme or x:acme_br.");

export const accountIds = z
  .array(accountId)
  .max(limits.accountsMax)
  .refine((ids) => new Set(ids).size === ids.length, "must not repeat an account")
  .meta({ uniqueItems: true, description: "The social accounts the post goes to, at most 50, no repeats (replaces the whole list)." });

export const revision = z
  .number()
  .int()
  .min(1)
  .max(limits.revisionMax)
  .describe("The draft's revision you read. If it is not the current one, the call fails with conflict and error.details.current.");

export const requestId = uuid(
  "A fresh UUID per intended write: a retry with the same request_id returns the first result instead of writing again.",
);

export const workspaceId = uuid("The workspace (UUID). Required: drafts are always read and written in an explicit workspace.");
export const draftId = uuid("The draft (UUID).");

export const draftState = z.enum(["draft", "submitting", "submitted"]);
export type DraftState = z.infer<typeof draftState>;

export const workspaceRole = z.enum(["viewer", "editor", "admin", "owner"]);
export type WorkspaceRole = z.infer<typeof workspaceRole>;

export const personId = z
  .string()
  .min(1)
  .max(limits.personIdMax)
  .regex(/^[^\u0000-\u001f\u007f/]+$/, "must not contain control characters or '/'")
  .describe("A person's id, as on their API keys.");
