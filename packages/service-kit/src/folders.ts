/**
 * `mkdir(folder, { recursive: true, mode })` gives `mode` to every folder it creates, the missing parents too: a
 * service making its private folder inside a fresh BANCADA_DATA_DIR closed the shared data folder itself (0700),
 * and the boxes' users, which must cross it to reach their disks, could no longer enter it. A service owns the
 * folder it asked for, not the folders above it.
 */
import { mkdir } from "node:fs/promises";
import path from "node:path";

/** Creates `folder` with `mode` (less the umask, as mkdir does) and its missing parents with the default mode. */
export async function makeOwnFolder(folder: string, mode: number): Promise<void> {
  await mkdir(path.dirname(path.resolve(folder)), { recursive: true });
  await mkdir(folder, { recursive: true, mode });
}
