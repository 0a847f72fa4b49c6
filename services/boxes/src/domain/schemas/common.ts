/** Field schemas shared by several tools: box references, commands, environments, paths. */
import { z } from "zod";
import { limits } from "../limits.js";

/** PostgreSQL text and the kernel's argv cannot hold NUL; refusing it here gives a clear error. */
export const noNul = (schema: z.ZodString) => schema.regex(/^[^\u0000]*$/, "must not contain NUL (\\u0000) characters");

export const boxNamePattern = /^[a-z0-9-]{1,40}$/;
export const boxIdPattern = /^bx_[a-z0-9]{1,40}$/;

export const boxRef = z
  .string()
  .min(1)
  .max(64)
  .regex(/^(bx_[a-z0-9]{1,40}|[a-z0-9-]{1,40})$/, "must be a box id (bx_…) or a box name (lowercase letters, digits and hyphens)")
  .describe("Id (bx_…) or name of the box.");

export const jobRef = z
  .string()
  .regex(/^job_[a-z0-9]{1,40}$/, "must be a job id (job_…)")
  .describe("Job id (job_…).");

export const waitFlag = (what: string) => z.boolean().default(true).describe(`Wait for ${what} (default true). false answers at once.`);

export const idempotencyKey = noNul(z.string().min(1).max(limits.idempotencyKeyMax)).describe(
  "Idempotency key: repeating the call with the same key and the same arguments returns the first result instead of acting again.",
);

export const cmd = noNul(z.string().min(1).max(limits.cmdMax)).describe("Command text, run with `bash -lc` (a login shell).");
export const argv = z
  .array(noNul(z.string().max(limits.argMax)))
  .min(1)
  .max(limits.argvItems)
  .describe("Command as an argument list, run without a shell (argv[0] is looked up in PATH).");

export const cwd = noNul(z.string().min(1).max(limits.pathMax)).describe(
  "Working directory (default /data/home); absolute, or relative to /data/home.",
);

export const env = z
  .record(
    z
      .string()
      .max(limits.envNameMax)
      .regex(/^[A-Za-z_][A-Za-z0-9_]*$/, "environment variable names are letters, digits and _, not starting with a digit"),
    noNul(z.string().max(limits.envValueMax)),
  )
  .describe("Extra environment variables (up to 100).");

export const boxPath = noNul(z.string().min(1).max(limits.pathMax)).describe("Path in the box (absolute, or relative to /data/home).");

/** Exactly one of cmd / argv, reported on the field that is wrong. */
export function oneCommand(
  value: { cmd?: string | undefined; argv?: string[] | undefined; env?: Record<string, string> | undefined },
  context: z.RefinementCtx,
): void {
  if (value.cmd !== undefined && value.argv !== undefined)
    context.addIssue({ code: "custom", path: ["argv"], message: "pass either cmd or argv, not both" });
  if (value.cmd === undefined && value.argv === undefined)
    context.addIssue({ code: "custom", path: ["cmd"], message: "pass cmd (text for bash -lc) or argv" });
  if (value.env && Object.keys(value.env).length > limits.envPairs) {
    context.addIssue({ code: "custom", path: ["env"], message: `at most ${limits.envPairs} variables` });
  }
}

/** Relative paths are relative to /data/home; the box itself resolves `..` and symlinks (within its own root). */
export function inBoxPath(path: string): string {
  return path.startsWith("/") ? path : `/data/home/${path}`;
}

export const isoDate = z.string().describe("ISO 8601 time.");
