import type { BoxRow } from "../db/client.js";
import type { BoxesRuntime } from "./context.js";
import { finishJob } from "./job-status.js";

/** Jobs still marked running when their box stops or is deleted: recorded with how they ended, or as killed. */
export async function endRunningJobs(rt: BoxesRuntime, box: Pick<BoxRow, "id" | "runtime">, reason: string): Promise<void> {
  const jobs = await rt.db.job.findMany({ where: { boxId: box.id, status: "running" } });
  for (const job of jobs) {
    const probe = await rt.driver.probeJob({ id: box.id, runtime: box.runtime }, job.id, job.runtime).catch(() => null);
    await finishJob(rt, job.id, probe && probe.state === "exited" ? probe : { state: "lost", reason });
  }
}
