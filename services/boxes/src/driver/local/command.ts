/**
 * How a command enters a running box. Where the machine has a C compiler, one exec: the helper
 * (native/bancada-enter.c, built by enter-helper.ts) joins the cgroups, namespaces and root, drops every
 * privilege and execs the command; the steps are those of the chain below, in one process. exec, read_file and
 * write_file find it already started and in the box's cgroups (a warm entry: warmLaunch, warm-entries.ts).
 * Otherwise the chain of execs, each one small:
 *   sh (host)   writes its pid into the box's cgroups (and the command's own group), then execs
 *   nsenter     (host program, host root) joins the box's mount, uts, ipc, net, pid and cgroup namespaces,
 *               then its user namespace, its root and its working directory, and becomes root OF THAT
 *               namespace — the box's unprivileged host uid — before it execs anything: nothing of the
 *               box's files is ever run or loaded with host privileges
 *   setpriv     run by the host's dynamic loader with its cache off and an empty, read-only
 *               /etc/ld.so.preload (host-loader.ts), so the box cannot inject code while capabilities
 *               (of the box's user namespace only) are still held; drops every one of them for good
 *               (bounding set, inheritable, ambient) + no_new_privs
 *   bash (box)  closes every inherited descriptor above 3 (but the kept ones), changes to the working
 *               directory, reports "started" on fd 3, then execs
 *   bash -lc CMD, or the argv as given (no shell).
 * Measured on this machine the chain costs a few process starts over a bare `bash -lc` (bench/exec.ts).
 */
import path from "node:path";
import { joinCgroupsScript, type LocalRuntime } from "./sandbox.js";
import { procsFiles } from "./cgroups.js";
import { loaderArgs, type HostLoader } from "./host-loader.js";
import type { CommandSpec } from "../box-driver.js";

const boxPath = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin";

// The identity check guards against a reused pid: if the box's pid 1 were gone and its pid taken by a
// host process, nsenter would enter the host; the box-id file exists only inside that box, read-only.
// The caller's environment crosses the host part of the chain under prefixed names (see launch) and is
// put back here, once every privilege is gone; names are identifiers (validated), so eval only sees names.
// Then every descriptor above 3 but the kept ones ($1) is closed: nsenter and setpriv pass on whatever the service
// inherited from its launcher without close-on-exec (bash, not sh: dash cannot name a descriptor above 9).
const inBoxScript =
  'keep=" 0 1 2 3 $1 "; shift; for fd in /proc/$$/fd/*; do fd=${fd##*/}; case $keep in *" $fd "*) ;; *) [ -e "/proc/$$/fd/$fd" ] && exec {fd}>&-;; esac; done; unset keep fd; ' +
  'read -r id </run/bancada/box-id 2>/dev/null; [ "$id" = "$1" ] || { echo "bancada: the box is not running" >&2; exit 125; }; shift; ' +
  'cd -- "$1" 2>/dev/null || { printf "bancada: the working directory %s does not exist in the box\\n" "$1" >&2; exit 126; }; ' +
  'shift; __bancada_n=$1; shift; while [ "$__bancada_n" -gt 0 ]; do eval "export $1=\\"\\${BANCADA_ENV_$1}\\"; unset BANCADA_ENV_$1"; shift; __bancada_n=$((__bancada_n - 1)); done; unset __bancada_n; ' +
  'printf 1 2>/dev/null >&3; exec "$@" 3>&-';

export interface Launch {
  file: string;
  args: string[];
  env: Record<string, string>;
}

export interface LaunchOptions {
  boxId: string;
  runtime: LocalRuntime;
  /** The command's own group in the freeze/kill hierarchy. */
  group: string | undefined;
  nsenterPath: string;
  loader: HostLoader;
  /** The one-exec helper, or null: the chain. */
  helper: string | null;
  /** The box's seccomp filter as a file the helper loads (enter-helper.ts), or null: none (the chain cannot load one). */
  filter: string | null;
  /** Descriptors above 2 the program reads or writes (an upload's fd 4); every other one is closed before it runs. */
  keepFds?: number[];
}

/** The helper's options: the filter to install and the descriptors to keep, before the exec. */
function helperOptions(options: LaunchOptions): string[] {
  return [...(options.filter ? [`--seccomp=${options.filter}`] : []), ...(options.keepFds ?? []).map((fd) => `--keep-fd=${fd}`)];
}

export function launch(options: LaunchOptions, spec: CommandSpec): Launch {
  return launchProgram(options, spec.cwd, programOf(spec), spec.env);
}

/** What a command runs: `bash -lc` for text, else its argv as given (no shell). */
export function programOf(spec: CommandSpec): string[] {
  return "cmd" in spec.command ? ["/bin/bash", "-lc", spec.command.cmd] : spec.command.argv;
}

/**
 * A warm entry of the helper (warm-entries.ts): started with the box's base environment only, it joins the box's
 * limit groups at once and waits on fd 4 for its one command (warmRequest), which it starts straight into the
 * command's own cgroup v2 group. With a v1 freeze/kill hierarchy it joins the command's group itself, ahead too.
 */
export function warmLaunch(options: LaunchOptions & { helper: string }): Launch {
  const { runtime, group } = options;
  const tree = runtime.groups.tree;
  const into = tree?.version === 2 && group ? path.join(tree.path, group) : "";
  const join = into ? procsFiles({ tree: null, limits: runtime.groups.limits }) : procsFiles(runtime.groups, group);
  const target = [String(runtime.init.pid), runtime.init.startTime, options.boxId, into];
  return { file: options.helper, args: [...helperOptions(options), "--warm", ...target, ...join], env: boxEnv(runtime.hostname) };
}

/**
 * What a warm entry reads on fd 4: the working directory, the caller's variables (NAME=value, put on top of the
 * base environment only once every privilege is gone) and the program, each ended by a NUL byte. A NUL inside a
 * field would shift the ones after it, so none may hold one (the kernel could not pass it to a program anyway).
 */
export function warmRequest(cwd: string, program: string[], extra: Record<string, string> = {}): Buffer {
  const environment = Object.entries(extra).map(([name, value]) => `${name}=${value}`);
  const fields = [cwd, String(environment.length), ...environment, ...program];
  if (fields.some((field) => field.includes("\0")))
    throw new TypeError("a command, its working directory and its environment may not hold NUL bytes");
  return Buffer.from(fields.map((field) => `${field}\0`).join(""), "utf8");
}

/**
 * A command with the box's base environment plus `extra`. The host programs of the chain (sh, nsenter, both
 * host root) must never see the caller's variables as themselves — LD_PRELOAD=<a file the box wrote> would
 * load it as host root — so those travel as BANCADA_ENV_<name> and only the names go on the command line.
 */
export function launchProgram(options: LaunchOptions, cwd: string, program: string[], extra: Record<string, string> = {}): Launch {
  const { runtime } = options;
  const names = Object.keys(extra);
  const env = { ...boxEnv(runtime.hostname), ...Object.fromEntries(names.map((name) => [`BANCADA_ENV_${name}`, extra[name]!])) };
  if (options.helper) {
    const target = [String(runtime.init.pid), runtime.init.startTime, options.boxId, cwd];
    return {
      file: options.helper,
      args: [...helperOptions(options), ...target, ...procsFiles(runtime.groups, options.group), "--", ...program],
      env,
    };
  }
  // --wd: the box's own working directory; without it nsenter would keep the service's, a host folder outside the box's root.
  const enter = [
    options.nsenterPath,
    `--target=${runtime.init.pid}`,
    "--user",
    "--mount",
    "--uts",
    "--ipc",
    "--net",
    "--pid",
    "--cgroup",
    "--root",
    "--wd",
    "--setuid=0",
    "--setgid=0",
    "--",
  ];
  const drop = [
    ...loaderArgs(options.loader, "/usr/bin/setpriv"),
    "--no-new-privs",
    "--bounding-set=-all",
    "--inh-caps=-all",
    "--ambient-caps=-all",
    "--",
  ];
  const keep = (options.keepFds ?? []).join(" ");
  const inBox = ["/bin/bash", "-c", inBoxScript, "bancada", keep, options.boxId, cwd, String(names.length), ...names, ...program];
  return {
    file: "/bin/sh",
    args: ["-c", joinCgroupsScript, "bancada-join", ...procsFiles(runtime.groups, options.group), "--", ...enter, ...drop, ...inBox],
    env,
  };
}

/** What every command starts with; the caller's `env` is added on top. Nothing of the service's own environment. */
function boxEnv(hostname: string): Record<string, string> {
  return { PATH: boxPath, HOME: "/data/home", USER: "root", LOGNAME: "root", SHELL: "/bin/bash", LANG: "C.UTF-8", HOSTNAME: hostname };
}
