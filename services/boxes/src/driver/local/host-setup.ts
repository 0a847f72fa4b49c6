/**
 * What the local driver finds out about this machine before it serves (createLocalDriver in local-driver.ts): the
 * programs a box needs, whether a sandbox can be made at all, the cgroups, disks and copy method on offer, and the
 * one-exec way into a box. It also ends what a previous service on this data folder left running.
 */
import { access, constants } from "node:fs/promises";
import path from "node:path";
import type { Logger } from "@bancada/service-kit";
import { hostOsVersion, prepareDataDir, usrLinks } from "./box-disk.js";
import { detectCgroups, type CgroupSupport } from "./cgroup-detect.js";
import { detectCopyMethod, type CopyMethod } from "./disk-copy.js";
import { detectDiskKind, type DiskKind } from "./disk-image.js";
import { removePoolLeftovers, type PoolSize } from "./disk-pool.js";
import { openDiskStore, type DiskStoreOptions } from "./disk-store.js";
import { buildEnterHelper, saveSeccompFilter } from "./enter-helper.js";
import { hostLoader, type HostLoader } from "./host-loader.js";
import { endLeftoverCommands } from "./leftovers.js";
import { prepareProcMasks, type ProcMasks } from "./proc-masks.js";
import { probeSandbox } from "./sandbox.js";
import { boxSeccompFilter } from "./seccomp.js";
import { endPooledSandbox } from "./warm-box.js";

export interface LocalDriverOptions {
  /** Where box disks live (default `.data/boxes`). */
  dataDir: string;
  log: Logger;
  /** Most processes one box may have at once (a fork bomb stops here). */
  pidsMax?: number;
  /** "none" ignores cgroups and uses signals only (machines without usable cgroups; tests of that path). */
  cgroups?: "auto" | "none";
  bwrapPath?: string;
  nsenterPath?: string;
  /** "directory" never uses disk images (machines without loop devices; tests of that path). */
  disks?: "auto" | "directory";
  /**
   * This machine's name among the service's replicas (default: the hostname). Boxes are recorded with it and each
   * replica acts only on its own node's boxes, so two replicas with separate data folders on one machine need two names.
   */
  node?: string;
  /** An unprivileged uid the start-up probe may run a throw-away sandbox as (default 100000). */
  probeUid?: number;
  /** "chain" never builds the one-exec helper (machines without a C compiler; tests of that path). */
  enter?: "auto" | "chain";
  /** false: no warm entries, every command joins the box's cgroups as it starts (benchmarks of that path). */
  warm?: boolean;
  /** The most of a job's output its log keeps, on the host (default 64 MiB); the rest is dropped and reported. */
  jobLogMaxBytes?: number;
  /** Where box images and snapshots live (disk-store.ts; default: an XFS store when the data folder cannot reflink). */
  store?: DiskStoreOptions;
  /** Image disks kept ready for create_box, per size (disk-pool.ts; default none). */
  pool?: PoolSize[];
  /**
   * Where the warm pool gets host uids for the boxes it starts ahead (create_box's own sequence). Without it the pool
   * holds disks only, and every create starts its sandbox.
   */
  hostUids?: () => Promise<number>;
  /** The enter helper built elsewhere (BOXES_ENTER_HELPER; enter-helper.ts), instead of building it here. */
  enterHelper?: string;
}

/** What the driver found out about this machine at start. */
export interface HostSetup {
  bwrapPath: string;
  nsenterPath: string;
  support: CgroupSupport;
  version: string;
  links: { name: string; target: string | null }[];
  disks: DiskKind;
  /** How disks are copied here (fork_box, snapshots), and why not by reflink when they are not. */
  copies: CopyMethod;
  copiesReason: string | null;
  loader: HostLoader;
  /** The one-exec way into a box (enter-helper.ts), or null: the chain of command.ts. */
  helper: string | null;
  /** The boxes' seccomp filter (seccomp.ts), and its file for the helper (null: the chain, which cannot load it). */
  seccomp: Buffer;
  filter: string | null;
  /** What hides /proc's host entries in a box (proc-masks.ts). */
  masks: ProcMasks;
}

/**
 * Checks the programs boxes need, probes a throw-away sandbox, finds the cgroups, disks and copy method this machine
 * offers, ends what a previous service left running, and builds the one-exec helper: what LocalDriver is made with.
 */
export async function setUpHost(options: LocalDriverOptions): Promise<HostSetup> {
  const bwrapPath = options.bwrapPath ?? "/usr/bin/bwrap";
  const nsenterPath = options.nsenterPath ?? "/usr/bin/nsenter";
  const tools = [
    ["bubblewrap (bwrap)", bwrapPath],
    ["nsenter (util-linux)", nsenterPath],
    ["setpriv (util-linux)", "/usr/bin/setpriv"],
    ["unshare (util-linux)", "/usr/bin/unshare"],
  ] as const;
  for (const [tool, file] of tools) {
    await access(file, constants.X_OK).catch(() => {
      throw new Error(`The local box driver needs ${tool} at ${file}: install it (Debian: apt-get install bubblewrap util-linux).`);
    });
  }
  await prepareDataDir(options.dataDir);
  const support: CgroupSupport = options.cgroups === "none" ? { tree: null, limits: {} } : await detectCgroups();
  const links = await usrLinks();
  const confinement = { seccomp: boxSeccompFilter(), masks: await prepareProcMasks(options.dataDir) };
  await probeSandbox(bwrapPath, links, options.probeUid ?? 100_000, path.join(options.dataDir, "mnt"), confinement);
  const disks =
    options.disks === "directory"
      ? { kind: "directory" as const, reason: "disk images turned off" }
      : await detectDiskKind(path.join(options.dataDir, "state"));
  if (disks.reason) options.log.warn({ reason: disks.reason }, "box disks are plain folders: dataGiB is not enforced");
  let storeReason: string | null = null;
  if (disks.kind === "image") {
    const canClone = async (dir: string) => (await detectCopyMethod(dir)) === "reflink";
    const store = await openDiskStore(options.dataDir, options.store ?? { mode: "auto" }, canClone);
    storeReason = store.reason;
    if (store.reason) options.log.warn({ reason: store.reason }, "fork_box and snapshots make sparse copies of box disks");
  }
  const copies = await detectCopyMethod(path.join(options.dataDir, "state"));
  const setup: HostSetup = {
    bwrapPath,
    nsenterPath,
    support,
    version: await hostOsVersion(),
    links,
    disks: disks.kind,
    copies,
    copiesReason: copies === "reflink" ? null : (storeReason ?? "the data folder's filesystem cannot reflink (BOXES_DISK_STORE=off)"),
    loader: await hostLoader("/usr/bin/setpriv"),
    helper: null,
    ...confinement,
    filter: null,
  };
  await endLeftoverCommands(options.dataDir, support, options.log);
  const pooled = await removePoolLeftovers(options.dataDir, (name, runDir) => endPooledSandbox(support, name, runDir));
  if (pooled) options.log.info({ disks: pooled }, "removed the warm pool's disks a previous service left");
  if (options.enter !== "chain") {
    const built = await buildEnterHelper(undefined, options.enterHelper);
    setup.helper = built.path;
    if (built.reason) options.log.warn({ reason: built.reason }, "commands enter boxes through the slower chain of programs");
  }
  // A prebuilt helper comes with an image whose root is read-only: its filter is kept in the data folder instead
  if (setup.helper)
    setup.filter = await saveSeccompFilter(setup.seccomp, options.enterHelper ? path.join(options.dataDir, "seccomp") : undefined);
  else options.log.warn("commands entered through the chain run without the boxes' seccomp filter (setpriv cannot load one)");
  options.log.info(
    {
      tree: support.tree?.version ?? null,
      limits: Object.keys(support.limits),
      disks: disks.kind,
      copies: setup.copies,
      enter: setup.helper ? "helper" : "chain",
    },
    "local box driver ready",
  );
  return setup;
}
