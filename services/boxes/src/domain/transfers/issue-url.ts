/**
 * get_upload_url / get_download_url: a URL signed for one box, one path and one hour. Nothing is checked in the
 * box yet (it may be asleep, and the file may not exist until the upload): the URL's use does that.
 */
import { DomainError, ErrorCode, invalidArgument } from "@bancada/contracts";
import type { BoxesContext } from "../context.js";
import { findBox } from "../find-box.js";
import { inBoxPath } from "../schemas/common.js";
import type { DownloadUrlInput, TransferUrlResult, UploadUrlInput } from "../schemas/transfer.js";
import { signGrant, type TransferGrant } from "./signing.js";
import { transferLimits } from "./settings.js";

export async function issueUploadUrl(ctx: BoxesContext, input: UploadUrlInput): Promise<TransferUrlResult> {
  const path = inBoxPath(input.path);
  if (path.endsWith("/")) throw invalidArgument([{ path: "path", message: "names a folder (ends with /); give the file's path" }]);
  const mode = Number.parseInt(input.mode, 8).toString(8).padStart(4, "0");
  const { url, expiresAt } = await signedUrl(ctx, input.boxId, "upload", path, mode);
  return {
    url,
    method: "PUT",
    path,
    expiresAt,
    maxBytes: ctx.transfers.maxUploadBytes,
    archive: false,
    example: `curl -fsS -X PUT -H 'Content-Type: application/octet-stream' --data-binary @file '${url}'`,
  };
}

export async function issueDownloadUrl(ctx: BoxesContext, input: DownloadUrlInput): Promise<TransferUrlResult> {
  const path = inBoxPath(input.path);
  const { url, expiresAt } = await signedUrl(ctx, input.boxId, "download", path, input.archive ? "archive" : "file");
  return {
    url,
    method: "GET",
    path,
    expiresAt,
    maxBytes: input.archive ? ctx.transfers.maxArchiveBytes : null,
    archive: input.archive,
    example: input.archive ? `curl -fsS '${url}' | tar --zstd -xf -` : `curl -fsS -o file '${url}'`,
  };
}

async function signedUrl(ctx: BoxesContext, ref: string, op: TransferGrant["op"], path: string, variant: string) {
  const box = await findBox(ctx, ref);
  if (box.state === "deleted" || box.state === "deleting")
    throw new DomainError(ErrorCode.failedPrecondition, `Box ${box.id} is ${box.state}; its files are gone.`, {
      boxId: box.id,
      state: box.state,
    });
  const expires = Math.floor(ctx.transfers.now() / 1000) + transferLimits.urlLifetimeSeconds;
  const grant: TransferGrant = { op, accountId: ctx.accountId, boxId: box.id, path, variant, expires };
  const query = new URLSearchParams({
    path,
    [op === "upload" ? "mode" : "archive"]: op === "upload" ? variant : String(variant === "archive"),
  });
  query.set("expires", String(expires));
  query.set("signature", signGrant(ctx.transfers.signingKey, grant));
  return { url: `${ctx.transfers.publicUrl}/boxes/transfers/${op}/${box.id}?${query}`, expiresAt: new Date(expires * 1000).toISOString() };
}
