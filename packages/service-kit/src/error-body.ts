/** Turns anything thrown into the error body of docs/errors.md; unknown errors become `internal` with a correlation id. */
import { z } from "zod";
import { DomainError, ErrorCode, fromZodError, type ErrorBody } from "@bancada/contracts";
import type { Logger } from "./logger.js";

export function toErrorBody(error: unknown, log: Logger, correlationId: string): ErrorBody {
  if (error instanceof DomainError) return error.toBody();
  if (error instanceof z.ZodError) return fromZodError(error).toBody();
  log.error({ err: error, correlationId }, "unexpected error");
  return {
    code: ErrorCode.internal,
    message: `Internal error (correlation id ${correlationId}); it has been logged.`,
    details: { correlationId },
  };
}
