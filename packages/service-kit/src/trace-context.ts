/** W3C trace context (`traceparent: 00-<trace id>-<parent id>-<flags>`): the id that ties one call's log lines and spans together. */
import { randomBytes } from "node:crypto";

const traceparentPattern = /^[\da-f]{2}-([\da-f]{32})-([\da-f]{16})-[\da-f]{2}$/;

/** The trace id of a well-formed traceparent (all-zero ids are invalid), else undefined. */
export function traceIdOf(traceparent: string | string[] | undefined): string | undefined {
  const match = typeof traceparent === "string" ? traceparentPattern.exec(traceparent.trim()) : null;
  if (!match || /^0+$/.test(match[1]!) || /^0+$/.test(match[2]!)) return undefined;
  return match[1];
}

/** A traceparent for a call that arrived without one: a fresh trace, sampled. */
export function newTraceparent(): string {
  return `00-${randomBytes(16).toString("hex")}-${randomBytes(8).toString("hex")}-01`;
}
