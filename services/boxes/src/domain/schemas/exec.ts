/** Seed 001: exec, start_job, job_logs, job_wait, read_file, write_file. */
import { z } from "zod";
import { limits } from "../limits.js";
import { argv, boxPath, boxRef, cmd, cwd, env, idempotencyKey, isoDate, jobRef, noNul, oneCommand } from "./common.js";

const encoding = z.enum(["utf8", "base64"]);

export const execInput = z
  .strictObject({
    boxId: boxRef,
    cmd: cmd.optional(),
    argv: argv.optional(),
    cwd: cwd.optional(),
    env: env.optional(),
    timeoutSeconds: z
      .number()
      .int()
      .min(1)
      .max(limits.execTimeoutMax)
      .default(limits.execTimeoutDefault)
      .describe("Deadline in seconds (1–600, default 60)."),
    stdin: z.string().max(limits.base64Chars).optional().describe("Standard input (up to 1 MB)."),
    stdinEncoding: encoding.default("utf8").describe("utf8 (default) or base64."),
  })
  .superRefine(oneCommand);
export type ExecInput = z.infer<typeof execInput>;

export const execResult = z.object({
  stdout: z.string(),
  stderr: z.string(),
  exitCode: z.number().int().nullable().describe("null when the command was ended by a signal (see signal)."),
  signal: z.string().nullable(),
  timedOut: z.boolean().describe("true when the deadline passed and the command's whole process tree was killed."),
  oomKilled: z
    .boolean()
    .describe("true when the kernel's out-of-memory killer ended the command: the box reached its memory limit (memMiB)."),
  killReason: z.string().nullable().describe("Why the command was killed (memory limit, deadline), or null when it was not."),
  durationMs: z.number().int(),
  stdoutTruncated: z.boolean().describe("true when stdout was cut (at 1 MB); stdoutBytes is the full size."),
  stderrTruncated: z.boolean(),
  stdoutBytes: z.number().int(),
  stderrBytes: z.number().int(),
});
export type ExecResult = z.infer<typeof execResult>;

export const startJobInput = z
  .strictObject({
    boxId: boxRef,
    name: noNul(z.string().min(1).max(limits.jobNameMax)).optional().describe("Job name (optional)."),
    cmd: cmd.optional(),
    argv: argv.optional(),
    cwd: cwd.optional(),
    env: env.optional(),
    idempotencyKey: idempotencyKey.optional(),
  })
  .superRefine(oneCommand);
export type StartJobInput = z.infer<typeof startJobInput>;

const jobStatus = z.enum(["running", "succeeded", "failed", "killed"]);

export const jobView = z.object({
  id: z.string(),
  boxId: z.string(),
  name: z.string().nullable(),
  cmd: z.string().nullable(),
  argv: z.array(z.string()).nullable(),
  cwd: z.string(),
  envNames: z.array(z.string()).describe("Names of the extra environment variables (values are not kept)."),
  status: jobStatus,
  exitCode: z.number().int().nullable(),
  signal: z.string().nullable(),
  oomKilled: z.boolean().describe("true when the out-of-memory killer ended the job: the box reached its memory limit (memMiB)."),
  statusReason: z.string().nullable(),
  startedAt: isoDate,
  endedAt: isoDate.nullable(),
});
export type JobView = z.infer<typeof jobView>;
export const jobResult = z.object({ job: jobView });

export const jobLogsInput = z
  .strictObject({
    boxId: boxRef,
    jobId: jobRef,
    offset: z
      .number()
      .int()
      .min(0)
      .max(Number.MAX_SAFE_INTEGER)
      .optional()
      .describe("Byte to start from (nextOffset of the previous read)."),
    tail: z.number().int().min(1).max(limits.tailMax).optional().describe("Only the last N lines (1–10000)."),
  })
  .superRefine((value, context) => {
    if (value.offset !== undefined && value.tail !== undefined)
      context.addIssue({ code: "custom", path: ["tail"], message: "pass offset or tail, not both" });
  });
export type JobLogsInput = z.infer<typeof jobLogsInput>;

export const jobLogsResult = z.object({
  jobId: z.string(),
  status: jobStatus,
  data: z.string().describe("stdout and stderr interleaved, as UTF-8 text (invalid bytes shown as U+FFFD)."),
  offset: z.number().int().describe("Byte offset of the first byte of data."),
  nextOffset: z.number().int().describe("Pass as offset to continue where this read stopped."),
  size: z.number().int().describe("Bytes in the log so far."),
  hasMore: z.boolean().describe("true when the log already holds more bytes after nextOffset."),
  truncated: z
    .boolean()
    .describe("true when the job wrote more than its log keeps (64 MiB by default): the log holds the first bytes, the rest was dropped."),
});
export type JobLogsResult = z.infer<typeof jobLogsResult>;

export const jobWaitInput = z.strictObject({
  boxId: boxRef,
  jobId: jobRef,
  timeoutSeconds: z
    .number()
    .int()
    .min(1)
    .max(limits.jobWaitMax)
    .default(limits.jobWaitDefault)
    .describe("How long to wait (1–600 s, default 300)."),
});
export type JobWaitInput = z.infer<typeof jobWaitInput>;

export const readFileInput = z.strictObject({ boxId: boxRef, path: boxPath });
export const readFileResult = z.object({
  path: z.string().describe("The absolute path read."),
  content: z.string(),
  encoding,
  size: z.number().int(),
});
export type ReadFileResult = z.infer<typeof readFileResult>;

export const writeFileInput = z.strictObject({
  boxId: boxRef,
  path: boxPath,
  content: z.string().max(limits.base64Chars).describe("Content (UTF-8, or base64 with encoding: base64); up to 1 MB."),
  encoding: encoding.default("utf8").describe("utf8 (default) or base64."),
  mode: z
    .string()
    .regex(/^[0-7]{3,4}$/, "octal permissions such as 0644 or 755")
    .default("0644")
    .describe("Permissions in octal (default 0644)."),
  parents: z.boolean().default(true).describe("Create missing folders (default true)."),
});
export type WriteFileInput = z.infer<typeof writeFileInput>;
export const writeFileResult = z.object({ path: z.string(), size: z.number().int(), mode: z.string() });
