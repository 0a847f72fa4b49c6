/** How the command's environment schema (cli/src/env.ts) and the services' own variables read a flag and a list. */
import { z } from "zod";

/** `1`/`true` on, `0`/`false`/empty/unset off. */
export const envFlag = z
  .enum(["1", "0", "true", "false", ""])
  .optional()
  .transform((value) => value === "1" || value === "true");

/** Comma-separated values, trimmed, empty ones dropped (unset: none). */
export const envList = z
  .string()
  .optional()
  .transform((value) =>
    (value ?? "")
      .split(",")
      .map((item) => item.trim())
      .filter(Boolean),
  );
