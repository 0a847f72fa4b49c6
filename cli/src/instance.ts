/**
 * The running `bancada start` of a data folder, for the MCP clients that start `bancada gateway --stdio` themselves:
 * `instance.json` in the folder names its process and MCP endpoint while it runs, so such a client's process carries
 * its messages there (a bridge) instead of running a second Bancada on the same database.
 */
import { readFile, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import type { StdioLaunch } from "@bancada/contracts";

interface Instance {
  pid: number;
  mcpUrl: string;
  /** Shown by a stdio bridge so the instance serves it as the stdio client it is (stdio-only tools included). */
  bridgeToken?: string;
}

const fileOf = (dataDir: string) => path.join(dataDir, "instance.json");

/** Records this process as the data folder's running instance; the returned function removes the record. */
export async function recordInstance(dataDir: string, mcpUrl: string, bridgeToken?: string): Promise<() => Promise<void>> {
  const file = fileOf(dataDir);
  // mode 600: only the data folder's owner (who may run `bancada gateway --stdio` on it anyway) reads the token
  await writeFile(file, `${JSON.stringify({ pid: process.pid, mcpUrl, ...(bridgeToken ? { bridgeToken } : {}) } satisfies Instance)}\n`, {
    mode: 0o600,
  });
  return async () => {
    // only this process's record: a later start on the same folder may have replaced it
    if ((await runningInstance(dataDir))?.pid === process.pid) await rm(file, { force: true });
  };
}

/** The data folder's running instance, when its process still lives. */
export async function runningInstance(dataDir: string): Promise<Instance | undefined> {
  let instance: Partial<Instance>;
  try {
    instance = JSON.parse(await readFile(fileOf(dataDir), "utf8")) as Partial<Instance>;
  } catch {
    return undefined;
  }
  if (typeof instance.pid !== "number" || typeof instance.mcpUrl !== "string") return undefined;
  try {
    process.kill(instance.pid, 0);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EPERM") return undefined;
  }
  return {
    pid: instance.pid,
    mcpUrl: instance.mcpUrl,
    ...(typeof instance.bridgeToken === "string" ? { bridgeToken: instance.bridgeToken } : {}),
  };
}

/** How an MCP client starts `bancada gateway --stdio` on the data folder `dataDir` (the embedded mode: nothing secret). */
export function stdioLaunchFor(dataDir: string): StdioLaunch {
  return {
    command: process.execPath,
    args: [path.join(import.meta.dirname, "../bin/bancada.mjs"), "gateway", "--stdio"],
    env: { BANCADA_DATA_DIR: dataDir },
  };
}
