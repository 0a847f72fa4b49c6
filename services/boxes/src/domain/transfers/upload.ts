/**
 * A signed upload: the request's bytes streamed into the box (bounded memory: the stream's backpressure reaches
 * the client), written as the box's user into a temporary file beside the target and renamed over it only once
 * every byte arrived within the limit. A second PUT of the same URL replaces the file the same way: each one is
 * atomic, the last to finish wins.
 */
import type { Readable } from "node:stream";
import { DomainError, ErrorCode, invalidArgument } from "@bancada/contracts";
import type { BoxRow } from "../../db/client.js";
import type { BoxesContext } from "../context.js";
import { driverFailure } from "../driver-errors.js";
import { boxHandle } from "../find-box.js";
import { suspendedUnder, unlessSuspended, type Freeze } from "../suspensions.js";
import { keepAwake } from "./open-transfer.js";

export interface UploadResult {
  path: string;
  size: number;
  mode: string;
}

export interface Upload {
  path: string;
  mode: string;
  source: Readable;
  declaredBytes: number | null;
}

/** The upload holds one of the account's places (account-calls.ts) while its bytes flow. */
export function receiveUpload(ctx: BoxesContext, box: BoxRow, upload: Upload): Promise<UploadResult> {
  return ctx.accountCalls.run(ctx.accountId, "this upload", () => receive(ctx, box, upload));
}

async function receive(ctx: BoxesContext, box: BoxRow, upload: Upload): Promise<UploadResult> {
  const max = ctx.transfers.maxUploadBytes;
  if (upload.declaredBytes !== null && upload.declaredBytes > max) throw tooLarge(upload.declaredBytes, max);
  const mode = Number.parseInt(upload.mode, 8);
  const awake = keepAwake(ctx, box.id);
  // A box frozen under the upload would hold it until someone resumes the box: it is refused at once instead
  // (the box's half of it, frozen too, removes its temporary file when the box wakes: box-transfers.ts).
  const interrupted = (freeze: Freeze) => suspendedUnder(box, "the upload", freeze, `nothing was written to ${upload.path}`);
  try {
    const outcome = await unlessSuspended(ctx, box, interrupted, (signal) =>
      ctx.driver.upload(boxHandle(box), { path: upload.path, mode, parents: true, source: upload.source, maxBytes: max, signal }),
    ).catch((error: unknown) => driverFailure(ctx, box, error));
    if (outcome.kind === "written") return { path: upload.path, size: outcome.size, mode: upload.mode.padStart(4, "0") };
    if (outcome.kind === "too_large") throw tooLarge(null, max);
    if (outcome.kind === "interrupted")
      throw invalidArgument([{ path: "body", message: `the upload broke off (${outcome.message}); nothing was written, send it again` }]);
    if (outcome.kind === "directory") throw invalidArgument([{ path: "path", message: `${upload.path} is a folder in the box` }]);
    if (outcome.kind === "missing_parent") throw new DomainError(ErrorCode.notFound, `The folder of ${upload.path} does not exist.`);
    throw new DomainError(ErrorCode.failedPrecondition, `Could not write ${upload.path}: ${outcome.message}; nothing was written.`, {
      path: upload.path,
    });
  } finally {
    awake();
  }
}

function tooLarge(bytes: number | null, max: number): DomainError {
  const size = bytes === null ? "more than that" : `${bytes} bytes`;
  return new DomainError(
    ErrorCode.payloadTooLarge,
    `Uploads are up to ${max} bytes (5 GB) and this one is ${size}; nothing was written. Split the file (e.g. split -b 4G) and upload the parts.`,
    { maxBytes: max },
  );
}
