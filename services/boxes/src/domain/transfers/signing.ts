/**
 * Transfer URLs carry no API key: what they allow is in the URL itself, signed with HMAC-SHA256 under the
 * service's key. The signature covers the operation, the box and its account, the path, the mode (upload) or
 * archive flag (download) and the expiry, so changing any of them — or using the URL for another box — fails.
 */
import { createHmac, timingSafeEqual } from "node:crypto";

/** `move` and `snapshot`: a node reads another's disk bytes (node-transfer.ts); `variant` is the reading node. */
export type TransferOp = "upload" | "download" | "move" | "snapshot";

export interface TransferGrant {
  op: TransferOp;
  accountId: string;
  boxId: string;
  path: string;
  /** Upload: the octal mode. Download: "archive" or "file". */
  variant: string;
  /** Unix seconds. */
  expires: number;
}

export function signGrant(key: Buffer, grant: TransferGrant): string {
  const text = ["bancada-transfer-v1", grant.op, grant.accountId, grant.boxId, grant.path, grant.variant, String(grant.expires)].join("\n");
  return createHmac("sha256", key).update(text).digest("base64url");
}

export function signatureMatches(key: Buffer, grant: TransferGrant, signature: string): boolean {
  const expected = Buffer.from(signGrant(key, grant));
  const given = Buffer.from(signature);
  return given.length === expected.length && timingSafeEqual(given, expected);
}
