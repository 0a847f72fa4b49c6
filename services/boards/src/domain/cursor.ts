/**
 * Opaque page cursors: base64url JSON holding the keyset position of the last item and what the list
 * was (board and filters). A cursor only continues the list it came from; anything else is invalid_argument.
 */
import { createHash } from "node:crypto";
import type { z } from "zod";
import { invalidField } from "./errors.js";

export function encodeCursor(list: string, position: Record<string, unknown>): string {
  return Buffer.from(JSON.stringify({ l: list, ...position })).toString("base64url");
}

export function decodeCursor<T extends z.ZodType>(cursor: string, list: string, shape: T): z.output<T> {
  let raw: unknown;
  try {
    raw = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8"));
  } catch {
    throw invalidField("cursor", "not a cursor returned by this tool");
  }
  if (typeof raw !== "object" || raw === null || (raw as { l?: unknown }).l !== list) {
    throw invalidField("cursor", "this cursor belongs to another board or other filters; start again without cursor");
  }
  const parsed = shape.safeParse(raw);
  if (!parsed.success) throw invalidField("cursor", "not a cursor returned by this tool");
  return parsed.data;
}

/** A short fingerprint of a list's identity (board + filters) to bind cursors to it. */
export function listKey(parts: unknown[]): string {
  return createHash("sha256").update(JSON.stringify(parts)).digest("base64url").slice(0, 16);
}
