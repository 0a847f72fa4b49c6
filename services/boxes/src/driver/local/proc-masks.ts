/**
 * /proc in a box is the box's own (its pid namespace), but some of its entries describe the host's kernel and
 * machine, not the box. Those a box has no use for are hidden: bubblewrap binds an empty read-only file (or folder)
 * over each (see sandbox.ts).
 */
import { existsSync } from "node:fs";
import { chmod, lstat, mkdir, readdir, rm, writeFile } from "node:fs/promises";
import path from "node:path";

/**
 * Host /proc entries hidden in every box, and why: each reveals the host, not the box, and no ordinary tool of a box
 * reads it (ps, top, free, uptime, nproc read stat, meminfo, loadavg, uptime, cpuinfo: those stay, with the host's
 * totals, as in any container). /proc/sys stays visible read-only: the box's own network sysctls and the kernel's
 * settings programs read (vm.overcommit_memory, kernel.pid_max, fs.file-max…); nothing in it can be written.
 */
export const hiddenProc = {
  files: [
    "cmdline", // the host kernel's boot parameters (may carry tokens, root device, console setup)
    "key-users", // keyring use per host uid: which host users exist and are active
    "keys", // keys the reader may view (keyctl is refused anyway: seccomp.ts)
    "timer_list", // every host timer, with host pids and process names
    "sched_debug", // every host task (older kernels; debugfs on newer ones)
    "interrupts", // the host's devices and per-CPU interrupt counts (a side channel on other tenants)
    "softirqs", // the same, per softirq
    "kallsyms", // the host kernel's symbols (addresses zeroed for the box, names and modules not)
    "modules", // the host kernel's loaded modules and versions
    "latency_stats", // host-wide latency records
    "timer_stats", // host-wide timer records (older kernels)
    "kcore", // the host's memory image (unreadable without privilege, hidden all the same)
    "config.gz", // the host kernel's build configuration
    "vmallocinfo", // kernel addresses (root-only, hidden all the same)
    "slabinfo", // kernel allocator state (root-only, hidden all the same)
  ],
  // ACPI tables, SCSI and sound devices, interrupt routing, PCI/USB buses, drivers (/proc/tty stays: ps reads it)
  folders: ["acpi", "scsi", "asound", "irq", "bus", "driver"],
} as const;

/** What hides the entries of hiddenProc this kernel has: an empty file and folder the box's uid can reach, read-only. */
export interface ProcMasks {
  file: string;
  folder: string;
  files: string[];
  folders: string[];
}

/**
 * Makes the empty file and folder (in the data folder, which every box's uid may cross: see box-disk.ts) and lists
 * the entries this host's /proc has (bubblewrap cannot mount over one that does not exist). Not /dev/null: binds
 * carry nodev, where a device cannot be opened.
 */
export async function prepareProcMasks(dataDir: string): Promise<ProcMasks> {
  const file = path.join(dataDir, "empty-file");
  const folder = path.join(dataDir, "empty-folder");
  // Kept when already right (another replica on this data folder may be starting a box with them).
  const fileInfo = await lstat(file).catch(() => null);
  if (!fileInfo?.isFile() || fileInfo.size !== 0 || fileInfo.uid !== 0) {
    await rm(file, { recursive: true, force: true });
    await writeFile(file, "", { mode: 0o444, flag: "wx" });
  }
  await chmod(file, 0o444);
  const folderInfo = await lstat(folder).catch(() => null);
  if (!folderInfo?.isDirectory() || folderInfo.uid !== 0 || (await readdir(folder)).length > 0) {
    await rm(folder, { recursive: true, force: true });
    await mkdir(folder, { mode: 0o555 });
  }
  await chmod(folder, 0o555);
  return {
    file,
    folder,
    files: hiddenProc.files.filter((name) => existsSync(`/proc/${name}`)),
    folders: hiddenProc.folders.filter((name) => existsSync(`/proc/${name}`)),
  };
}

export function maskArgs(masks: ProcMasks): string[] {
  return [
    ...masks.files.flatMap((name) => ["--ro-bind", masks.file, `/proc/${name}`]),
    ...masks.folders.flatMap((name) => ["--ro-bind", masks.folder, `/proc/${name}`]),
  ];
}
