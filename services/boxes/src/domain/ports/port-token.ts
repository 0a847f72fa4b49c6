/** A private port's access token: random, shown once; only its SHA-256 is stored and compared in constant time. */
import { createHash, randomBytes, timingSafeEqual } from "node:crypto";

export const newPortToken = () => `bxp_${randomBytes(24).toString("base64url")}`;
export const portTokenHash = (token: string) => createHash("sha256").update(token).digest("hex");

export function portTokenMatches(hash: string | null, token: string | undefined): boolean {
  if (!hash || !token) return false;
  const given = Buffer.from(portTokenHash(token), "hex");
  const kept = Buffer.from(hash, "hex");
  return given.length === kept.length && timingSafeEqual(given, kept);
}
