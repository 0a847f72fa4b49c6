/**
 * The JSON Schema checks the list tool's fixed schemas rely on (docs/drafts.md#tools), exactly as the gateway (Ajv 2020 + ajv-formats
 * "full") and MCP clients (Ajv draft-07 + ajv-formats) apply them: `format: "uuid"`, `format:
 * "date-time"`, the contract's date-time `pattern`, and `maxLength` counted in code points. The zod
 * schemas use these so that both sides accept the very same values; a test compares them.
 */

const uuidFormat = /^(?:urn:uuid:)?[0-9a-f]{8}-(?:[0-9a-f]{4}-){3}[0-9a-f]{12}$/i;

export function isUuid(value: string): boolean {
  return uuidFormat.test(value);
}

/** Lower case without the `urn:uuid:` prefix the format allows: the form stored and compared. */
export function canonicalUuid(value: string): string {
  return value.toLowerCase().replace(/^urn:uuid:/, "");
}

/** The contract's date-time pattern, verbatim (Ajv compiles patterns with the `u` flag). */
export const seedDateTimePattern =
  "^(?:(?:\\d\\d[2468][048]|\\d\\d[13579][26]|\\d\\d0[48]|[02468][048]00|[13579][26]00)-02-29|\\d{4}-(?:(?:0[13578]|1[02])-(?:0[1-9]|[12]\\d|3[01])|(?:0[469]|11)-(?:0[1-9]|[12]\\d|30)|(?:02)-(?:0[1-9]|1\\d|2[0-8])))T(?:(?:[01]\\d|2[0-3]):[0-5]\\d(?::[0-5]\\d(?:\\.\\d+)?)?(?:Z|([+-](?:[01]\\d|2[0-3]):[0-5]\\d)))$";

export const seedDateTime = new RegExp(seedDateTimePattern, "u");

const date = /^(\d\d\d\d)-(\d\d)-(\d\d)$/;
const time = /^(\d\d):(\d\d):(\d\d(?:\.\d+)?)(z|([+-])(\d\d)(?::?(\d\d))?)?$/i;
const daysInMonth = [0, 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/** RFC 3339 `date-time` as ajv-formats checks it: a time zone is required, 23:59:60 UTC (leap second) allowed. */
export function isRfc3339DateTime(value: string): boolean {
  const parts = value.split(/t|\s/i);
  return parts.length === 2 && isFullDate(parts[0]!) && isFullTime(parts[1]!);
}

function isFullDate(value: string): boolean {
  const match = date.exec(value);
  if (!match) return false;
  const year = Number(match[1]);
  const month = Number(match[2]);
  const day = Number(match[3]);
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  return month >= 1 && month <= 12 && day >= 1 && day <= (month === 2 && leap ? 29 : daysInMonth[month]!);
}

function isFullTime(value: string): boolean {
  const match = time.exec(value);
  if (!match) return false;
  const hour = Number(match[1]);
  const minute = Number(match[2]);
  const second = Number(match[3]);
  const sign = match[5] === "-" ? -1 : 1;
  const zoneHour = Number(match[6] ?? 0);
  const zoneMinute = Number(match[7] ?? 0);
  if (zoneHour > 23 || zoneMinute > 59 || !match[4]) return false;
  if (hour <= 23 && minute <= 59 && second < 60) return true;
  const utcMinute = minute - zoneMinute * sign;
  const utcHour = hour - zoneHour * sign - (utcMinute < 0 ? 1 : 0);
  return (utcHour === 23 || utcHour === -1) && (utcMinute === 59 || utcMinute === -1) && second < 61;
}

/** Length as JSON Schema counts it (`maxLength`): Unicode code points, not UTF-16 units. */
export function codePoints(value: string): number {
  let count = 0;
  for (const _ of value) count++;
  return count;
}

/** The first `max` code points of a text, never splitting a surrogate pair. */
export function firstCodePoints(value: string, max: number): string {
  if (value.length <= max) return value;
  let out = "";
  let count = 0;
  for (const char of value) {
    if (count === max) break;
    out += char;
    count++;
  }
  return out;
}
