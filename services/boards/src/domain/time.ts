/** Timestamps as the tools print them (docs/boards.md#tools): RFC 3339 in UTC, to the second ("2026-09-01T10:30:00Z"). */
export function timestamp(value: Date): string {
  return `${value.toISOString().slice(0, 19)}Z`;
}

export function optionalTimestamp(value: Date | null): string | null {
  return value === null ? null : timestamp(value);
}

export function floorToSecond(value: Date): Date {
  return new Date(Math.floor(value.getTime() / 1000) * 1000);
}
