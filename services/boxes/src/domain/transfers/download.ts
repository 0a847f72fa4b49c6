/**
 * A signed download: a file of any size streamed as it is read in the box (with its length, and byte ranges),
 * or a folder streamed as tar.zst when its contents are within the archive limit (2 GB, measured in the box
 * before anything is sent; the stream is cut should the folder grow past it meanwhile).
 */
import { DomainError, ErrorCode, invalidArgument } from "@bancada/contracts";
import type { BoxRow } from "../../db/client.js";
import type { DownloadRequest, DownloadStream } from "../../driver/box-driver.js";
import type { BoxesContext } from "../context.js";
import { driverFailure } from "../driver-errors.js";
import { boxHandle } from "../find-box.js";
import { keepAwake } from "./open-transfer.js";

/** What is about to be sent: a file of `size` bytes, or a folder of `bytes` bytes as an archive. */
export type DownloadTarget = { kind: "file"; size: number } | { kind: "archive"; bytes: number };

export async function downloadTarget(ctx: BoxesContext, box: BoxRow, path: string, archive: boolean): Promise<DownloadTarget> {
  const info = await ctx.driver
    .inspectPath(boxHandle(box), path, { folderBytes: archive })
    .catch((error: unknown) => driverFailure(ctx, box, error));
  if (info.kind === "missing") throw new DomainError(ErrorCode.notFound, `No file or folder ${path} in the box.`, { path });
  if (info.kind === "special") throw invalidArgument([{ path: "path", message: `${path} is not a regular file or folder` }]);
  if (archive) {
    if (info.kind !== "directory")
      throw invalidArgument([{ path: "archive", message: `${path} is a file; ask get_download_url for it without archive` }]);
    const bytes = info.bytes ?? 0;
    if (bytes > ctx.transfers.maxArchiveBytes)
      throw new DomainError(
        ErrorCode.payloadTooLarge,
        `${path} holds ${bytes} bytes; folder archives are up to ${ctx.transfers.maxArchiveBytes} bytes (2 GB). ` +
          "Download its subfolders one by one, or pack it in the box (exec tar) and download the file.",
        { maxBytes: ctx.transfers.maxArchiveBytes, bytes },
      );
    return { kind: "archive", bytes };
  }
  if (info.kind === "directory")
    throw invalidArgument([{ path: "path", message: `${path} is a folder; ask get_download_url with archive: true` }]);
  return { kind: "file", size: info.size };
}

/** The download holds one of the account's places (account-calls.ts) until its stream ends. */
export async function streamDownload(ctx: BoxesContext, box: BoxRow, request: DownloadRequest): Promise<DownloadStream> {
  const leave = ctx.accountCalls.enter(ctx.accountId, "this download");
  const awake = keepAwake(ctx, box.id);
  try {
    const opened = await ctx.driver.download(boxHandle(box), request);
    // A box frozen under the download would stall it until resumed: the stream is cut instead (the client sees it end short).
    const done = () => {
      stopListening();
      awake();
      leave();
    };
    const stopListening = ctx.suspensions.listen(box.id, () => {
      opened.stream.destroy(new Error("the box was suspended"));
      done();
    });
    void opened.ended.finally(done);
    return opened;
  } catch (error) {
    awake();
    leave();
    return driverFailure(ctx, box, error);
  }
}
