/**
 * What host disk admission (domain/disk-space.ts) needs to know of this machine: the free space of the data
 * folder's filesystem, and what each box's disk takes on it now. An image is sparse: it takes only the blocks
 * written (st_blocks), and may grow to its dataGiB. A plain-folder disk (no loop devices) is not measured (a walk
 * of its tree would cost more than the admission is worth): it counts as holding nothing, so it is taken to owe
 * its whole dataGiB — the cautious side.
 */
import { stat, statfs } from "node:fs/promises";
import path from "node:path";
import type { DiskSpace } from "../box-driver.js";
import { boxPaths } from "./box-disk.js";
import type { DiskKind } from "./disk-image.js";

export async function diskSpace(dataDir: string, kind: DiskKind, boxIds: string[]): Promise<DiskSpace> {
  // With the XFS store (disk-store.ts) images are on it, and it on the data folder: the smaller free space counts.
  const free = async (dir: string) => statfs(dir).then((fs) => fs.bavail * fs.bsize);
  const freeBytes = Math.min(await free(dataDir), await free(path.join(dataDir, "state")).catch(() => Infinity));
  const heldBytes = new Map<string, number>();
  if (kind === "image") {
    const held = await Promise.all(
      boxIds.map((id) =>
        stat(boxPaths(dataDir, id).image).then(
          (s) => s.blocks * 512,
          () => 0,
        ),
      ),
    );
    boxIds.forEach((id, i) => heldBytes.set(id, held[i]!));
  }
  return { freeBytes, heldBytes };
}
