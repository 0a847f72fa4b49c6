/**
 * What the console shows of a box besides its row: one folder's entries (listed inside the box, as read_file
 * reads, so `..` and symlinks resolve in the box) and the box's jobs, newest first. Both by the caller's account.
 */
import { DomainError, ErrorCode, invalidArgument } from "@bancada/contracts";
import { awakeBox } from "./awake.js";
import type { BoxesContext } from "./context.js";
import { driverFailure } from "./driver-errors.js";
import { boxHandle, findBox } from "./find-box.js";
import { refreshJob } from "./job-status.js";
import { toJobView } from "./job-view.js";
import { inBoxPath } from "./schemas/common.js";
import type { ListFolderInput, ListJobsInput } from "./schemas/browse.js";
import type { JobView } from "./schemas/exec.js";
import { suspendedUnder, unlessSuspended } from "./suspensions.js";
import type { FolderEntry } from "../driver/box-driver.js";

/** More entries than a person scrolls through; the answer says when the folder holds more. */
const folderEntriesMax = 1000;

export function listBoxFolder(
  ctx: BoxesContext,
  input: ListFolderInput,
): Promise<{ path: string; entries: FolderEntry[]; truncated: boolean }> {
  return ctx.accountCalls.run(ctx.accountId, "this folder listing", async () => {
    const box = await awakeBox(ctx, input.boxId, "list_folder");
    const path = inBoxPath(input.path).replace(/(.)\/+$/, "$1");
    const listed = await unlessSuspended(
      ctx,
      box,
      (freeze) => suspendedUnder(box, "list_folder", freeze, "nothing was listed"),
      () => ctx.driver.listFolder(boxHandle(box), path, folderEntriesMax + 1),
    ).catch((error: unknown) => driverFailure(ctx, box, error));
    if (listed.kind === "missing") throw new DomainError(ErrorCode.notFound, `No folder ${path} in the box.`, { path });
    if (listed.kind === "not_folder") throw invalidArgument([{ path: "path", message: `${path} is not a folder` }]);
    if (listed.kind === "kernel")
      throw invalidArgument([{ path: "path", message: `${path} is a kernel interface under /proc or /sys; list it with exec` }]);
    if (listed.kind === "failed")
      throw new DomainError(ErrorCode.failedPrecondition, `Could not list ${path}: ${listed.message}`, { path });
    const entries = listed.entries
      .slice(0, folderEntriesMax)
      .sort((a, b) => Number(b.type === "folder") - Number(a.type === "folder") || a.name.localeCompare(b.name));
    return { path, entries, truncated: listed.entries.length > folderEntriesMax };
  });
}

export async function listBoxJobs(ctx: BoxesContext, input: ListJobsInput): Promise<{ jobs: JobView[] }> {
  const box = await findBox(ctx, input.boxId);
  const rows = await ctx.db.job.findMany({
    where: { boxId: box.id, accountId: ctx.accountId },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: input.limit,
  });
  // a deleted box's jobs went with its files: their last recorded status stands
  const live = box.state !== "deleted" && box.state !== "deleting";
  const jobs = await Promise.all(rows.map((row) => (live ? refreshJob(ctx, box, row) : row)));
  return { jobs: jobs.map(toJobView) };
}
