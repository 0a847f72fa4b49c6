/**
 * Billing months in the America/Sao_Paulo time zone: a period "YYYY-MM" runs from local midnight of its first
 * day to local midnight of the next month's first day. The offset is read from the time-zone database at each
 * boundary, so a month that once began in daylight saving time is still cut at local midnight.
 */
export const billingTimeZone = "America/Sao_Paulo";

export interface BillingPeriod {
  /** "YYYY-MM" */
  period: string;
  start: Date;
  end: Date;
}

export function billingPeriod(period: string): BillingPeriod {
  const [year, month] = period.split("-").map(Number) as [number, number];
  const next = month === 12 ? { year: year + 1, month: 1 } : { year, month: month + 1 };
  return { period, start: localMidnight(year, month), end: localMidnight(next.year, next.month) };
}

/** The period holding `at` on São Paulo's calendar. */
export function periodAt(at: Date): string {
  const wall = wallClock(at);
  return `${String(wall.year).padStart(4, "0")}-${String(wall.month).padStart(2, "0")}`;
}

/** The instant of local midnight on the first day of the month. */
function localMidnight(year: number, month: number): Date {
  const naive = Date.UTC(year, month - 1, 1);
  let instant = naive - offsetMs(new Date(naive));
  // An offset that differs on either side of the boundary: judged again at the instant found.
  instant = naive - offsetMs(new Date(instant));
  return new Date(instant);
}

/** How far São Paulo's wall clock is ahead of UTC at `at` (negative: behind). */
function offsetMs(at: Date): number {
  const wall = wallClock(at);
  const asUtc = Date.UTC(wall.year, wall.month - 1, wall.day, wall.hour, wall.minute, wall.second);
  return asUtc - Math.floor(at.getTime() / 1000) * 1000;
}

const formatter = new Intl.DateTimeFormat("en-US", {
  timeZone: billingTimeZone,
  hourCycle: "h23",
  year: "numeric",
  month: "numeric",
  day: "numeric",
  hour: "numeric",
  minute: "numeric",
  second: "numeric",
});

function wallClock(at: Date) {
  const parts = Object.fromEntries(formatter.formatToParts(at).map((part) => [part.type, part.value]));
  return {
    year: Number(parts.year),
    month: Number(parts.month),
    day: Number(parts.day),
    hour: Number(parts.hour),
    minute: Number(parts.minute),
    second: Number(parts.second),
  };
}
