/** Identifiers and opaque cursors. Ids are prefixed (bx_, job_, snap_) so a box id never looks like a box name. */
import { randomBytes } from "node:crypto";

const alphabet = "abcdefghijklmnopqrstuvwxyz0123456789";

function randomText(length: number): string {
  const bytes = randomBytes(length);
  return Array.from(bytes, (byte) => alphabet[byte % alphabet.length]).join("");
}

export const newBoxId = () => `bx_${randomText(16)}`;
export const newJobId = () => `job_${randomText(16)}`;
export const newSnapshotId = () => `snap_${randomText(16)}`;
export const generatedBoxName = () => `box-${randomText(8)}`;

export interface ListCursor {
  createdAt: string;
  id: string;
}

export function encodeCursor(cursor: ListCursor): string {
  return Buffer.from(JSON.stringify([cursor.createdAt, cursor.id])).toString("base64url");
}

/** The instant and id of a cursor `encodeCursor` made; null for anything else, before it can reach a query. */
export function decodeCursor(text: string): ListCursor | null {
  try {
    const value = JSON.parse(Buffer.from(text, "base64url").toString("utf8")) as unknown;
    if (!Array.isArray(value) || value.length !== 2 || typeof value[0] !== "string" || typeof value[1] !== "string") return null;
    const [createdAt, id] = value as [string, string];
    // the instant exactly as toISOString wrote it, from 1970 on: `0000-01-01T00:00:00Z` reached PostgreSQL (no year 0)
    const at = new Date(createdAt);
    if (Number.isNaN(at.getTime()) || at.toISOString() !== createdAt || at.getUTCFullYear() < 1970) return null;
    if (!cursorId.test(id)) return null;
    return { createdAt, id };
  } catch {
    return null;
  }
}

/** The ids a list pages over (bx_…, snap_…): a prefix and the random part, nothing PostgreSQL could refuse. */
const cursorId = /^[a-z]{2,5}_[a-z0-9_-]{1,60}$/;
