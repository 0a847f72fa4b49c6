/** The console's REST-only reads of a box (no tool serves them): a folder's entries, the box's jobs. */
import { z } from "zod";
import { boxPath, boxRef, isoDate } from "./common.js";
import { jobView } from "./exec.js";

export const listFolderInput = z.strictObject({
  boxId: boxRef,
  path: boxPath.default("/data/home"),
});
export type ListFolderInput = z.infer<typeof listFolderInput>;

export const listJobsInput = z.strictObject({
  boxId: boxRef,
  limit: z.number().int().min(1).max(100).default(50).describe("How many jobs, newest first (1–100, default 50)."),
});
export type ListJobsInput = z.infer<typeof listJobsInput>;

/** The query strings of the two routes (the box comes from the path), for the API document. */
export const listFolderQuery = listFolderInput.omit({ boxId: true });
export const listJobsQuery = listJobsInput.omit({ boxId: true });

export const listFolderResult = z.object({
  path: z.string().describe("The absolute folder listed."),
  entries: z.array(
    z.object({
      name: z.string(),
      type: z.enum(["file", "folder", "other"]).describe("What it leads to: a symbolic link has its target's type."),
      link: z.boolean().describe("true for a symbolic link."),
      size: z.number().int().describe("Bytes (of the link itself for a link)."),
      modifiedAt: isoDate,
    }),
  ),
  truncated: z.boolean().describe("true when the folder holds more than the 1,000 entries listed."),
});
export const listJobsResult = z.object({ jobs: z.array(jobView) });
