/**
 * The closed set of error codes (docs/errors.md) and the one error type every layer throws.
 * Adapters map a DomainError to their transport: HTTP status, MCP `isError` result, bus reply.
 */
import { z } from "zod";

export const ErrorCode = {
  invalidArgument: "invalid_argument",
  unauthenticated: "unauthenticated",
  permissionDenied: "permission_denied",
  notFound: "not_found",
  conflict: "conflict",
  idempotencyConflict: "idempotency_conflict",
  failedPrecondition: "failed_precondition",
  payloadTooLarge: "payload_too_large",
  rateLimited: "rate_limited",
  unavailable: "unavailable",
  deadlineExceeded: "deadline_exceeded",
  internal: "internal",
} as const;
export type ErrorCode = (typeof ErrorCode)[keyof typeof ErrorCode];

export const errorCodes = Object.values(ErrorCode) as [ErrorCode, ...ErrorCode[]];

export const httpStatusOf: Record<ErrorCode, number> = {
  invalid_argument: 400,
  unauthenticated: 401,
  permission_denied: 403,
  not_found: 404,
  conflict: 409,
  idempotency_conflict: 409,
  failed_precondition: 409,
  payload_too_large: 413,
  rate_limited: 429,
  unavailable: 503,
  deadline_exceeded: 504,
  internal: 500,
};

export const errorBody = z.object({
  code: z.enum(errorCodes),
  message: z.string(),
  details: z.record(z.string(), z.unknown()).optional(),
});
export type ErrorBody = z.infer<typeof errorBody>;

/** `{ "error": { code, message, details? } }`: the REST body and the tool error result alike. */
export const errorEnvelope = z.object({ error: errorBody });
export type ErrorEnvelope = z.infer<typeof errorEnvelope>;

export class DomainError extends Error {
  readonly code: ErrorCode;
  readonly details: Record<string, unknown> | undefined;

  constructor(code: ErrorCode, message: string, details?: Record<string, unknown>) {
    super(message);
    this.name = "DomainError";
    this.code = code;
    this.details = details;
  }

  toBody(): ErrorBody {
    return this.details === undefined
      ? { code: this.code, message: this.message }
      : { code: this.code, message: this.message, details: this.details };
  }

  static fromBody(body: ErrorBody): DomainError {
    return new DomainError(body.code, body.message, body.details);
  }
}

export interface ValidationIssue {
  path: string;
  message: string;
  /** The value is over a size limit (a text of 100,000 characters or more, a file): `payload_too_large`. */
  tooLarge?: boolean;
}

/** From this length on, a string limit is a size limit: a 100,000-character text is payload_too_large (docs/errors.md#the-codes). */
export const sizeLimitThreshold = 100_000;

/**
 * Issues as `{ path: "a.b[0]", message }`; the message names the field so a caller can fix the call.
 * When every issue is a size limit, the code is `payload_too_large`, else `invalid_argument`.
 */
export function invalidArgument(issues: ValidationIssue[]): DomainError {
  const summary = issues
    .slice(0, 5)
    .map((i) => (i.path ? `${i.path}: ${i.message}` : i.message))
    .join("; ");
  const tooLarge = issues.length > 0 && issues.every((issue) => issue.tooLarge);
  const plain = issues.map(({ path, message }) => ({ path, message }));
  return tooLarge
    ? new DomainError(ErrorCode.payloadTooLarge, `Too large: ${summary}`, { issues: plain })
    : new DomainError(ErrorCode.invalidArgument, `Invalid arguments: ${summary}`, { issues: plain });
}

export function fromZodError(error: z.ZodError): DomainError {
  return invalidArgument(
    error.issues.map((issue) => ({
      path: formatPath(issue.path),
      message: describeIssue(issue),
      ...(issue.code === "too_big" && issue.origin === "string" && Number(issue.maximum) >= sizeLimitThreshold ? { tooLarge: true } : {}),
    })),
  );
}

function describeIssue(issue: z.core.$ZodIssue): string {
  if (issue.code === "unrecognized_keys") return `unknown field(s) ${issue.keys.map((k) => `'${k}'`).join(", ")}`;
  // zod says "Invalid input: expected string, received undefined" for a field left out: say it is missing
  if (issue.code === "invalid_type" && issue.message.endsWith("received undefined")) return `missing (expected ${issue.expected})`;
  return issue.message;
}

export function formatPath(path: readonly PropertyKey[]): string {
  let out = "";
  for (const part of path) {
    if (typeof part === "number") out += `[${part}]`;
    else out += out ? `.${String(part)}` : String(part);
  }
  return out;
}
