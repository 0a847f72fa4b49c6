/**
 * Where a page starts. The cursor is the `{updated_at, id}` of the last draft seen (docs/drafts.md#behaviour): the next page
 * holds the drafts strictly after it in the order `updated_at DESC, id DESC`. Stored times have
 * millisecond precision, so a cursor time on the millisecond grid compares as a pair, and one between
 * two milliseconds as "at or before the millisecond below it" (no stored time can equal it). Times
 * outside what PostgreSQL parses (year 0000, ±23:59 offsets) are turned into an exact UTC instant here.
 */
import { Prisma } from "../db/generated/client.js";
import { canonicalUuid } from "./json-formats.js";
import type { KeysetCursor } from "./schemas.js";

/** `null`: the cursor lies before every possible draft, so the page is empty. */
export function keysetFilter(cursor: KeysetCursor): Prisma.Sql | null {
  const instant = parseInstant(cursor.updated_at);
  if (instant.epochMs < earliest) return null;
  const at = new Date(Math.min(instant.epochMs, latest)).toISOString();
  if (instant.onMillisecond && instant.epochMs <= latest) {
    return Prisma.sql`(updated_at, id) < (${at}::timestamptz, ${canonicalUuid(cursor.id)}::uuid)`;
  }
  return Prisma.sql`updated_at <= ${at}::timestamptz`;
}

/** The range where toISOString() writes a plain 4-digit year that PostgreSQL parses; no draft lies outside it. */
const earliest = Date.parse("0001-01-01T00:00:00.000Z");
const latest = Date.parse("9999-12-31T23:59:59.999Z");

/** The shape the contract's pattern and the date-time format leave: date, T, time with seconds, Z or ±hh:mm. */
const shape = /^(\d{4})-(\d\d)-(\d\d)T(\d\d):(\d\d):(\d\d)(?:\.(\d+))?(?:Z|([+-])(\d\d):(\d\d))$/;

function parseInstant(value: string): { epochMs: number; onMillisecond: boolean } {
  const match = shape.exec(value);
  if (!match) throw new Error(`unvalidated cursor time ${value}`);
  const [, year, month, day, hour, minute, second, fraction = "", sign, offsetHour, offsetMinute] = match;
  const date = new Date(0);
  date.setUTCFullYear(Number(year), Number(month) - 1, Number(day));
  date.setUTCHours(Number(hour), Number(minute), Number(second), Number(fraction.slice(0, 3).padEnd(3, "0")));
  const offsetMs = sign ? (sign === "-" ? -1 : 1) * (Number(offsetHour) * 60 + Number(offsetMinute)) * 60_000 : 0;
  return { epochMs: date.getTime() - offsetMs, onMillisecond: /^0*$/.test(fraction.slice(3)) };
}
