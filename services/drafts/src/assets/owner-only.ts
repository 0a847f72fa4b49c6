/**
 * Asset bytes are a workspace's unpublished media: on the host only the service's own user may list or
 * read them. Folders are 0700 and blobs 0600 whatever the umask, and a store written before this rule
 * (folders 0755, blobs 0644) is tightened when the service starts.
 */
import { chmod, readdir } from "node:fs/promises";
import path from "node:path";
import { makeOwnFolder } from "@bancada/service-kit";

const folderMode = 0o700;
export const fileMode = 0o600;

/**
 * Creates `folder` owner-only, or makes an existing one so. Its missing parents get the default mode: the data
 * folder above is shared with the other services (the boxes' users must cross it).
 */
export async function ownerOnlyFolder(folder: string): Promise<void> {
  await makeOwnFolder(folder, folderMode);
  await chmod(folder, folderMode).catch((error: NodeJS.ErrnoException) => {
    throw error.code === "EPERM"
      ? new Error(
          `The assets folder ${folder} belongs to another user: give it to the user this service runs as (chown), so that it can keep it private.`,
        )
      : error;
  });
}

/** Makes every folder and file under `root` (one level of shards deep, as the blob store lays them out) owner-only. */
export async function tightenTree(root: string): Promise<void> {
  await ownerOnlyFolder(root);
  for (const entry of await readdir(root, { withFileTypes: true })) {
    const target = path.join(root, entry.name);
    if (entry.isDirectory()) await tightenTree(target);
    else if (entry.isFile()) await chmod(target, fileMode);
  }
}
