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

export function decodeCursor(text: string): ListCursor | null {
  try {
    const value = JSON.parse(Buffer.from(text, "base64url").toString("utf8")) as unknown;
    if (!Array.isArray(value) || typeof value[0] !== "string" || typeof value[1] !== "string" || Number.isNaN(Date.parse(value[0])))
      return null;
    return { createdAt: value[0], id: value[1] };
  } catch {
    return null;
  }
}
