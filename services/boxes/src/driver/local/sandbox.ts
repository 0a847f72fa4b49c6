/**
 * Starts a box: one long-lived bubblewrap sandbox per box that holds its namespaces (user, mount, pid,
 * ipc, uts, net, cgroup). Its pid 1 is a small bash loop: pid 1 of a pid namespace ignores signals sent
 * from inside (a `kill -9 -1` in the box cannot take the box down) and bash reaps the orphans that
 * the kernel hands it. Commands enter these namespaces with nsenter (see command.ts).
 *
 * The box's user: each box has its own unprivileged host uid (BoxSpec.hostUid). The start chain joins the
 * box's cgroups as root (host programs only), then becomes that uid for good (setpriv) and makes the box's
 * user namespace (unshare: root inside is that uid outside, nothing else is mapped), where it forbids
 * further user namespaces (user.max_user_namespaces = 0) before bubblewrap makes the other namespaces.
 * Root in a box therefore owns nothing of the host: the host's sysctls, /usr and every other host file
 * are "others" to it; /proc/sys is read-only besides.
 *
 * The sandbox is started detached (own session) and WITHOUT --die-with-parent: it is not bound to the
 * service process, so a restarted service finds its boxes running (their pids are in `runtime`).
 * Everything the box sees: the host's /usr read-only (and the bin/lib links into it), the host's public CA
 * certificates and alternatives links read-only, a fresh /proc (its /proc/sys read-only) and /dev, its own
 * disk (/etc, /data/home, /var, /opt, /root, /tmp), a small /run tmpfs. Every capability is dropped, and the box's
 * seccomp filter (seccomp.ts) holds for its init and everything the init starts (bubblewrap --seccomp).
 *
 * /proc is the box's own (its pid namespace), but some of its files describe the host's kernel and machine, not the
 * box; those a box has no use for are hidden behind an empty read-only file (or folder), see proc-masks.ts.
 */
import { spawn } from "node:child_process";
import { open, writeFile, readFile } from "node:fs/promises";
import path from "node:path";
import type { BoxGroups } from "./cgroups.js";
import { procsFiles } from "./cgroups.js";
import { diskMounts, type BoxPaths } from "./box-disk.js";
import { maskArgs, type ProcMasks } from "./proc-masks.js";
import { pidNamespace, processRef, sendSignal, type ProcessRef } from "./procfs.js";

export interface LocalRuntime {
  root: string;
  hostname: string;
  bwrap: ProcessRef;
  /** The box's pid 1, as a host pid: the target of nsenter. */
  init: ProcessRef;
  pidNamespace: string;
  groups: BoxGroups;
  /** The box's host uid (and gid): root inside the box. */
  uid: number;
  /** A box started ahead by the warm pool: the pooled name its box-id file and groups carry (warm-box.ts). */
  sandboxId?: string;
}

export interface SandboxOptions {
  boxId: string;
  paths: BoxPaths;
  hostname: string;
  groups: BoxGroups;
  uid: number;
  usrLinks: { name: string; target: string | null }[];
  /** Host /etc entries mounted read-only into the box's /etc. */
  sharedEtc: string[];
  bwrapPath: string;
  /** The compiled seccomp filter (seccomp.ts). */
  seccomp: Buffer;
  masks: ProcMasks;
}

/** Writes its own pid into each cgroup.procs file given before `--`, then becomes the command after it. */
export const joinCgroupsScript = 'while [ "$1" != "--" ]; do printf "%s" "$$" > "$1" || exit 125; shift; done; shift; exec "$@"';

/** Run in the box's new user namespace, before bubblewrap: no process of the box may make another one. */
const userNamespaceScript = 'echo 0 > /proc/sys/user/max_user_namespaces || exit 125; exec "$@"';

/** Host programs only, as the box's uid from the first exec on; the new user namespace maps root to it. */
export function asBoxUser(uid: number): string[] {
  return [
    "/usr/bin/setpriv",
    `--reuid=${uid}`,
    `--regid=${uid}`,
    "--clear-groups",
    "--no-new-privs",
    "--",
    "/usr/bin/unshare",
    "--user",
    "--map-root-user",
    "--",
    "/bin/sh",
    "-c",
    userNamespaceScript,
    "bancada-userns",
  ];
}

const initScript = "trap '' TERM INT HUP QUIT USR1 USR2 PIPE; while :; do sleep infinity & wait \"$!\"; done";

const baseEnv = { PATH: "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin", HOME: "/data/home", LANG: "C.UTF-8" };

export async function startSandbox(options: SandboxOptions): Promise<LocalRuntime> {
  const { paths } = options;
  const logPath = path.join(paths.run, "bwrap.log");
  const log = await open(logPath, "w");
  const started: number[] = [];
  try {
    const chain = [...procsFiles(options.groups), "--", ...asBoxUser(options.uid), options.bwrapPath, ...bwrapArgs(options)];
    const child = spawn("/bin/sh", ["-c", joinCgroupsScript, "bancada-box", ...chain], {
      detached: true,
      // 3: bwrap's info; 4: the box id for /run/bancada/box-id; 5: the empty /etc/ld.so.preload; 6: the seccomp filter.
      stdio: ["ignore", log.fd, log.fd, "pipe", "pipe", "pipe", "pipe"],
      env: baseEnv,
    });
    child.unref();
    // a launcher that could not even start (out of descriptors: EMFILE) reports it as an event, later: without this
    // listener that event would end the service
    child.on("error", () => {});
    if (child.pid === undefined) throw new Error("its launcher could not start (the service may be out of file descriptors)");
    const inputs = child.stdio as unknown as NodeJS.WritableStream[];
    // a sandbox that fails before it reads its inputs resets them: that is its failure to report, not a crash
    for (const input of inputs.slice(4)) input.on("error", () => {});
    inputs[4]!.end(`${options.boxId}\n`);
    inputs[5]!.end();
    inputs[6]!.end(options.seccomp);
    if (child.pid) started.push(child.pid);
    const info = await readInfo(child.stdio[3] as NodeJS.ReadableStream, child);
    const childPid = Number(info["child-pid"]);
    started.push(childPid);
    await untilInitRuns(childPid);
    const [bwrap, init, namespace] = await Promise.all([processRef(child.pid!), processRef(childPid), pidNamespace(childPid)]);
    if (!bwrap || !init || !namespace) throw new Error("the sandbox exited right after it started");
    // The box's pid 1 and its bwrap parent must survive the box's own out-of-memory kills.
    await writeFile(`/proc/${childPid}/oom_score_adj`, "-1000").catch(() => {});
    await writeFile(`/proc/${bwrap.pid}/oom_score_adj`, "-1000").catch(() => {});
    const runtime: LocalRuntime = {
      root: paths.state,
      hostname: options.hostname,
      bwrap,
      init,
      pidNamespace: namespace,
      groups: options.groups,
      uid: options.uid,
    };
    await writeFile(path.join(paths.run, "runtime.json"), JSON.stringify(runtime));
    return runtime;
  } catch (error) {
    // Nothing half-started may stay behind: killing the sandbox's pid 1 ends its whole namespace.
    for (const pid of started.reverse()) sendSignal(pid, "SIGKILL");
    const detail = (await readFile(logPath, "utf8").catch(() => "")).trim();
    throw new Error(`bubblewrap could not start the box: ${detail || (error as Error).message}`, { cause: error });
  } finally {
    await log.close();
  }
}

// The user namespace is made before bubblewrap (asBoxUser), so bubblewrap makes only the others.
const isolation = ["--unshare-ipc", "--unshare-pid", "--unshare-net", "--unshare-uts", "--unshare-cgroup", "--cap-drop", "ALL"];

/**
 * The host's /usr read-only, the bin/lib links into it (or the directories themselves), a fresh /proc (/proc/sys
 * read-only, the host's entries of proc-masks.ts hidden) and /dev.
 */
function systemArgs(links: SandboxOptions["usrLinks"], masks: ProcMasks): string[] {
  const args = ["--ro-bind", "/usr", "/usr"];
  for (const link of links)
    args.push(...(link.target === null ? ["--ro-bind", `/${link.name}`, `/${link.name}`] : ["--symlink", link.target, `/${link.name}`]));
  return [...args, "--proc", "/proc", "--ro-bind", "/proc/sys", "/proc/sys", ...maskArgs(masks), "--dev", "/dev"];
}

function bwrapArgs(options: SandboxOptions): string[] {
  const { paths } = options;
  const args = [
    ...isolation,
    "--as-pid-1",
    "--new-session",
    "--hostname",
    options.hostname,
    ...systemArgs(options.usrLinks, options.masks),
  ];
  for (const [dir, target] of diskMounts) args.push("--bind", path.join(paths.disk, dir), target);
  for (const name of options.sharedEtc) args.push("--ro-bind", `/etc/${name}`, `/etc/${name}`);
  args.push("--size", String(64 * 1024 * 1024), "--tmpfs", "/run");
  // Read-only files the box cannot replace: its id (see command.ts), and an empty preload list (see host-loader.ts).
  args.push("--ro-bind-data", "4", "/run/bancada/box-id", "--ro-bind-data", "5", "/etc/ld.so.preload");
  args.push("--remount-ro", "/", "--chdir", "/data/home", "--info-fd", "3", "--seccomp", "6", "--", "/bin/bash", "-c", initScript);
  return args;
}

/**
 * A throw-away sandbox at start, made like a box's (as an unprivileged uid, binding a folder below the mount
 * folder, hiding /proc's host entries, under the seccomp filter): a machine that cannot make one (no user
 * namespaces, a folder on the way the box's user cannot cross, a filter the kernel refuses) is found now, not at
 * the first create_box.
 */
export async function probeSandbox(
  bwrapPath: string,
  links: SandboxOptions["usrLinks"],
  uid: number,
  mountDir: string,
  confinement: Pick<SandboxOptions, "seccomp" | "masks">,
): Promise<void> {
  const failure = await new Promise<string | null>((resolve) => {
    const sandbox = [...isolation, ...systemArgs(links, confinement.masks), "--ro-bind", mountDir, "/probe", "--seccomp", "3"];
    const args = [...asBoxUser(uid), bwrapPath, ...sandbox, "--", "/usr/bin/true"];
    const child = spawn(args[0]!, args.slice(1), { stdio: ["ignore", "ignore", "pipe", "pipe"], env: baseEnv });
    child.on("error", (error) => resolve(error.message));
    if (child.pid === undefined) return;
    const filter = child.stdio[3] as NodeJS.WritableStream;
    // bwrap failing before it reads the filter resets the pipe: its stderr says why, the reset says nothing
    filter.on("error", () => {});
    filter.end(confinement.seccomp);
    let stderr = "";
    child.stderr!.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
    child.on("close", (code) => resolve(code === 0 ? null : stderr.trim() || `exit ${code}`));
  });
  if (!failure) return;
  const crossing = /Can't find source path/.test(failure)
    ? ` (every folder above ${mountDir} must let other users cross it: chmod o+x)`
    : "";
  throw new Error(`bubblewrap cannot make a sandbox on this machine: ${failure}${crossing}`);
}

/**
 * bwrap reports the child's pid as soon as it exists, before the child has mounted the box's root: a
 * command entering it then would find a half-built filesystem. The box is ready once the child has
 * exec'd the init script.
 */
async function untilInitRuns(pid: number): Promise<void> {
  const until = Date.now() + 15_000;
  while (Date.now() < until) {
    const cmdline = await readFile(`/proc/${pid}/cmdline`, "utf8").catch(() => null);
    if (cmdline === null) throw new Error("the sandbox's init exited during start-up");
    // Before it execs the init, bwrap's child carries bwrap's own command line, which also holds the script:
    // only argv[0] tells that the mounts are done and the init runs.
    if (cmdline.startsWith("/bin/bash\0") && cmdline.includes(initScript)) return;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  throw new Error("the sandbox did not finish starting within 15 s");
}

/** bwrap writes one JSON object (child-pid and namespace ids) to --info-fd as soon as the sandbox's child exists. */
function readInfo(stream: NodeJS.ReadableStream, child: ReturnType<typeof spawn>): Promise<Record<string, unknown>> {
  return new Promise((resolve, reject) => {
    let text = "";
    const timer = setTimeout(() => fail(new Error("no answer from bwrap within 15 s")), 15_000);
    const fail = (error: Error) => {
      clearTimeout(timer);
      stream.removeAllListeners();
      (stream as unknown as { destroy(): void }).destroy();
      reject(error);
    };
    stream.on("data", (chunk: Buffer) => {
      text += chunk.toString("utf8");
      try {
        const info = JSON.parse(text) as Record<string, unknown>;
        clearTimeout(timer);
        stream.removeAllListeners();
        (stream as unknown as { destroy(): void }).destroy();
        resolve(info);
      } catch {
        // not complete yet
      }
    });
    stream.on("end", () => fail(new Error("bwrap exited before the sandbox ran")));
    child.on("error", fail);
  });
}
