/** Turns what the driver reports into the caller's error; a box found gone is marked stopped, never left "running". */
import { DomainError, ErrorCode, invalidArgument } from "@bancada/contracts";
import type { BoxRow } from "../db/client.js";
import { DriverError } from "../driver/driver-error.js";
import type { BoxesRuntime } from "./context.js";
import { changeState } from "./transitions.js";

export const goneReason = "the box's processes ended unexpectedly (crash, out of memory or host restart); its disk is kept";

export async function driverFailure(rt: BoxesRuntime, box: BoxRow, error: unknown): Promise<never> {
  if (!(error instanceof DriverError)) throw error;
  if (error.kind === "cwd_missing") throw invalidArgument([{ path: "cwd", message: error.message }]);
  if (error.kind === "start_failed")
    throw new DomainError(ErrorCode.failedPrecondition, `The command could not start: ${error.message}`, { boxId: box.id });
  // Only a box known to be gone is marked stopped: an error looking at it leaves its state as it is.
  const liveness = await rt.driver.inspect({ id: box.id, runtime: box.runtime }).catch(() => null);
  if (liveness === "gone") {
    await changeState(rt, box.id, { state: "stopped", reason: goneReason, runtime: null, endOperation: false });
    throw new DomainError(ErrorCode.failedPrecondition, `The box stopped: ${goneReason}. resume_box starts it again.`, {
      boxId: box.id,
      state: "stopped",
    });
  }
  throw new DomainError(ErrorCode.failedPrecondition, `The box did not run the command: ${error.message}`, { boxId: box.id });
}
