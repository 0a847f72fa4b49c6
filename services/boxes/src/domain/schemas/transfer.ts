/** get_upload_url and get_download_url: their inputs and the signed URL they answer with. */
import { z } from "zod";
import { boxPath, boxRef, isoDate } from "./common.js";

const octalMode = z
  .string()
  .regex(/^[0-7]{3,4}$/, "octal permissions such as 0644 or 755")
  .default("0644")
  .describe("Permissions in octal (default 0644).");

export const uploadUrlInput = z.strictObject({ boxId: boxRef, path: boxPath, mode: octalMode });
export type UploadUrlInput = z.infer<typeof uploadUrlInput>;

export const downloadUrlInput = z.strictObject({
  boxId: boxRef,
  path: boxPath,
  archive: z.boolean().default(false).describe("true to download a folder as tar.zst (up to 2 GB)."),
});
export type DownloadUrlInput = z.infer<typeof downloadUrlInput>;

export const transferUrlResult = z.object({
  url: z.string().describe("The signed URL; it carries no API key and works for 1 hour."),
  method: z.enum(["PUT", "GET"]),
  path: z.string().describe("The absolute path in the box."),
  expiresAt: isoDate,
  maxBytes: z.number().int().nullable().describe("The most bytes the URL accepts (uploads) or serves (folder archives); null: any size."),
  archive: z.boolean(),
  example: z.string().describe("A curl command that uses the URL."),
});
export type TransferUrlResult = z.infer<typeof transferUrlResult>;
