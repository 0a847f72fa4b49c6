/** The console's REST-only reads of a box (no tool serves them): a folder's entries, the box's jobs. */
import { z } from "zod";
import { boxPath, boxRef } from "./common.js";

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
