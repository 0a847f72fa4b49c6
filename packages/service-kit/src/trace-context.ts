/** W3C trace context (`traceparent: 00-<trace id>-<parent id>-<flags>`): the id that ties one call's log lines and spans together. */
import { randomFillSync } from "node:crypto";

const traceparentPattern = /^[\da-f]{2}-([\da-f]{32})-([\da-f]{16})-[\da-f]{2}$/;

/** The trace id of a well-formed traceparent (all-zero ids are invalid), else undefined. */
export function traceIdOf(traceparent: string | string[] | undefined): string | undefined {
  const match = typeof traceparent === "string" ? traceparentPattern.exec(traceparent.trim()) : null;
  if (!match || /^0+$/.test(match[1]!) || /^0+$/.test(match[2]!)) return undefined;
  return match[1];
}

/** Random bytes drawn 24 at a time from one buffer refilled every 170 traces (two randomBytes calls per call cost more). */
const pool = Buffer.alloc(24 * 170);
let offset = pool.length;

/** A traceparent for a call that arrived without one: a fresh trace, sampled. */
export function newTraceparent(): string {
  if (offset === pool.length) {
    randomFillSync(pool);
    offset = 0;
  }
  const traceId = pool.toString("hex", offset, offset + 16);
  const parentId = pool.toString("hex", offset + 16, offset + 24);
  offset += 24;
  return `00-${traceId}-${parentId}-01`;
}
