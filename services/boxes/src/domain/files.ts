/**
 * read_file / write_file: up to 1 MB, done inside the box (driver), so `..` and symlinks resolve
 * against the box's own root and never reach the host. Text that is valid UTF-8 comes back as utf8,
 * anything else as base64. Writes are atomic (temporary file + rename), with mode and parents.
 */
import { DomainError, ErrorCode, invalidArgument } from "@bancada/contracts";
import { awakeBox } from "./awake.js";
import type { BoxesContext } from "./context.js";
import { driverFailure } from "./driver-errors.js";
import { boxHandle } from "./find-box.js";
import { limits } from "./limits.js";
import { suspendedUnder, unlessSuspended, type Freeze } from "./suspensions.js";
import { decodePayload, encodeContent } from "./payload.js";
import { inBoxPath } from "./schemas/common.js";
import type { ReadFileResult, WriteFileInput } from "./schemas/exec.js";
import { jsonSize } from "./text-output.js";

export function readBoxFile(ctx: BoxesContext, input: { boxId: string; path: string }): Promise<ReadFileResult> {
  return ctx.accountCalls.run(ctx.accountId, "this read_file", () => readFile(ctx, input));
}

export function writeBoxFile(ctx: BoxesContext, input: WriteFileInput): Promise<{ path: string; size: number; mode: string }> {
  return ctx.accountCalls.run(ctx.accountId, "this write_file", () => writeFile(ctx, input));
}

async function readFile(ctx: BoxesContext, input: { boxId: string; path: string }): Promise<ReadFileResult> {
  const box = await awakeBox(ctx, input.boxId, "read_file");
  const path = inBoxPath(input.path);
  const read = await unlessSuspended(
    ctx,
    box,
    (freeze) => suspendedUnder(box, "read_file", freeze, "nothing was read"),
    () => ctx.driver.readFile(boxHandle(box), path, limits.fileBytes),
  ).catch((error: unknown) => driverFailure(ctx, box, error));
  if (read.kind === "missing") throw new DomainError(ErrorCode.notFound, `No file ${path} in the box.`, { path });
  if (read.kind === "directory") throw invalidArgument([{ path: "path", message: `${path} is a directory; read_file reads files` }]);
  if (read.kind === "special") throw invalidArgument([{ path: "path", message: `${path} is not a regular file (device, socket or pipe)` }]);
  if (read.kind === "kernel")
    throw invalidArgument([{ path: "path", message: `${path} is a kernel interface under /proc or /sys, not a file; read it with exec` }]);
  if (read.kind === "failed") throw new DomainError(ErrorCode.failedPrecondition, `Could not read ${path}: ${read.message}`, { path });
  if (read.kind === "too_large") {
    throw new DomainError(ErrorCode.payloadTooLarge, `${path} is larger than 1 MB; read it in parts with exec (e.g. head -c / tail -c).`, {
      issues: [{ path: "path", message: "the file is larger than 1 MB" }],
      maxBytes: limits.fileBytes,
    });
  }
  const encoded = encodeContent(read.data);
  if (jsonSize(encoded.content) > ctx.replyBudgetBytes) {
    throw new DomainError(
      ErrorCode.payloadTooLarge,
      `${path} (${read.data.length} bytes) is larger than this deployment's bus can carry in one answer; read it in parts with exec.`,
      {
        issues: [{ path: "path", message: "the answer would exceed the bus's message size" }],
        maxBytes: ctx.replyBudgetBytes,
      },
    );
  }
  return { path, ...encoded, size: read.data.length };
}

async function writeFile(ctx: BoxesContext, input: WriteFileInput): Promise<{ path: string; size: number; mode: string }> {
  const data = decodePayload(input.content, input.encoding, "content", limits.fileBytes);
  const box = await awakeBox(ctx, input.boxId, "write_file");
  const path = inBoxPath(input.path);
  if (path.endsWith("/")) throw invalidArgument([{ path: "path", message: "names a directory (ends with /); give a file path" }]);
  const mode = Number.parseInt(input.mode, 8);
  // A write the box's freeze interrupts may still land when it wakes (its bytes are in the pipe): the answer says so.
  const interrupted = (freeze: Freeze) => suspendedUnder(box, "write_file", freeze, `${path} may or may not be written once the box wakes`);
  const written = await unlessSuspended(ctx, box, interrupted, () =>
    ctx.driver.writeFile(boxHandle(box), { path, data, mode, parents: input.parents }),
  ).catch((error: unknown) => driverFailure(ctx, box, error));
  if (written.kind === "directory") throw invalidArgument([{ path: "path", message: `${path} is a directory` }]);
  if (written.kind === "missing_parent")
    throw new DomainError(ErrorCode.notFound, `The folder of ${path} does not exist (parents: false).`, { path });
  if (written.kind === "failed")
    throw new DomainError(ErrorCode.failedPrecondition, `Could not write ${path}: ${written.message}`, { path });
  return { path, size: data.length, mode: mode.toString(8).padStart(4, "0") };
}
