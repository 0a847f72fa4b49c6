/**
 * The seccomp filter every process of a box runs under: a classic-BPF program (struct sock_filter[]) built here,
 * handed to bubblewrap (`--seccomp FD`, for the box's init and all it starts) and to the enter helper
 * (native/bancada-enter.c `--seccomp=FILE`, for every command entered later: those are not the init's children).
 *
 * A deny list, not an allow list: a box is a general-purpose Linux machine (compilers, debuggers, language
 * runtimes), so every system call runs except the ones container runtimes' default profiles refuse to an
 * unprivileged container (Docker's, plus io_uring, which it refuses since 2023). Each is refused with EPERM, as if
 * the box lacked the privilege, which it does: the filter is the second wall behind the dropped capabilities and
 * the box's own user namespace. Arguments are looked at where a call is fine in one use and not in another:
 *   socket, socketpair  only AF_UNIX, AF_INET, AF_INET6, and AF_NETLINK for NETLINK_ROUTE (ip, and glibc's
 *                       getaddrinfo with AI_ADDRCONFIG, list the box's own interfaces through it) and
 *                       NETLINK_SOCK_DIAG (ss); AF_VSOCK reaches the host's hypervisor sockets, AF_PACKET and the
 *                       other families serve nothing on a box's loopback-only network
 *   clone, unshare      not with a namespace flag (clone3 answers ENOSYS: its flags sit in memory a filter cannot
 *                       read, and the C library then falls back to clone)
 *   personality         only the values Docker allows (Linux, 32-bit, UNAME26 and the query)
 * ptrace, process_vm_readv/writev and kcmp stay allowed, as in Docker on kernels ≥ 4.8: a box's pid namespace holds
 * only its own processes (strace and gdb work), and the host's helpers that enter it are never dumpable there.
 * Any other architecture (a 32-bit program) is killed, and on x86-64 the x32 numbers answer ENOSYS: the list names
 * 64-bit numbers only.
 */

type Arch = "x64" | "arm64";

const auditArch: Record<Arch, number> = { x64: 0xc000003e, arm64: 0xc00000b7 };

/** The calls refused outright, with their numbers on x86-64 and aarch64 (null: no such call there). */
const denied: Record<string, [number | null, number | null]> = {
  // kernel keyrings: shared by every user of the host kernel
  add_key: [248, 217],
  request_key: [249, 218],
  keyctl: [250, 219],
  // kernel attack surface a box does not need
  io_uring_setup: [425, 425],
  io_uring_enter: [426, 426],
  io_uring_register: [427, 427],
  userfaultfd: [323, 282],
  bpf: [321, 280],
  perf_event_open: [298, 241],
  fanotify_init: [300, 262],
  lookup_dcookie: [212, 18],
  // the host's kernel, modules and machine
  kexec_load: [246, 104],
  kexec_file_load: [320, 294],
  init_module: [175, 105],
  finit_module: [313, 273],
  delete_module: [176, 106],
  create_module: [174, null],
  get_kernel_syms: [177, null],
  query_module: [178, null],
  reboot: [169, 142],
  swapon: [167, 224],
  swapoff: [168, 225],
  acct: [163, 89],
  syslog: [103, 116],
  settimeofday: [164, 170],
  clock_settime: [227, 112],
  clock_adjtime: [305, 266],
  ioperm: [173, null],
  iopl: [172, null],
  vhangup: [153, 58],
  sethostname: [170, 161],
  setdomainname: [171, 162],
  // mounts and namespaces (refused already for lack of privilege)
  mount: [165, 40],
  umount2: [166, 39],
  pivot_root: [155, 41],
  open_tree: [428, 428],
  move_mount: [429, 429],
  fsopen: [430, 430],
  fsconfig: [431, 431],
  fsmount: [432, 432],
  fspick: [433, 433],
  mount_setattr: [442, 442],
  open_tree_attr: [467, 467],
  setns: [308, 268],
  // files by handle bypass the path walk (the way out of a container before)
  open_by_handle_at: [304, 265],
  name_to_handle_at: [303, 264],
  quotactl: [179, 60],
  quotactl_fd: [443, 443],
  nfsservctl: [180, 42],
  // obsolete, or placement of memory on the host's NUMA nodes
  uselib: [134, null],
  ustat: [136, null],
  sysfs: [139, null],
  _sysctl: [156, null],
  get_mempolicy: [239, 236],
  set_mempolicy: [238, 237],
  set_mempolicy_home_node: [450, 450],
  mbind: [237, 235],
  move_pages: [279, 239],
};

const numbers = {
  socket: [41, 198],
  socketpair: [53, 199],
  clone: [56, 220],
  clone3: [435, 435],
  unshare: [272, 97],
  personality: [135, 92],
} as const;

const AF_UNIX = 1;
const AF_INET = 2;
const AF_INET6 = 10;
const AF_NETLINK = 16;
const NETLINK_ROUTE = 0;
const NETLINK_SOCK_DIAG = 4;
/** CLONE_NEWNS, NEWCGROUP, NEWUTS, NEWIPC, NEWUSER, NEWPID, NEWNET. */
const namespaceFlags = 0x7e020000;
/** unshare also takes CLONE_NEWTIME (in clone, those bits are the exit signal). */
const CLONE_NEWTIME = 0x80;
const personalities = [0x0, 0x8, 0x20000, 0x20008, 0xffffffff];
const x32Bit = 0x40000000;

const EPERM = 1;
const ENOSYS = 38;
const RET_KILL_PROCESS = 0x80000000;
const RET_ERRNO = 0x00050000;
const RET_ALLOW = 0x7fff0000;

// struct seccomp_data: nr at 0, arch at 4, args[i] at 16 + 8i (the low 32 bits first on both architectures).
const offset = { nr: 0, arch: 4, arg: (index: number) => 16 + 8 * index };

// BPF opcodes.
const LD_ABS = 0x20;
const JEQ = 0x15;
const JGE = 0x35;
const JSET = 0x45;
const RET = 0x06;

type Step = { code: number; k: number; jt?: string; jf?: string; label?: string };

/** The filter for this machine's architecture, as the kernel reads it (8 bytes per instruction). */
export function boxSeccompFilter(arch: string = process.arch): Buffer {
  if (arch !== "x64" && arch !== "arm64") throw new Error(`no seccomp filter for boxes on ${arch} (x64 and arm64 only)`);
  const index = arch === "x64" ? 0 : 1;
  const nr = (name: keyof typeof numbers) => numbers[name][index];
  const steps: Step[] = [
    { code: LD_ABS, k: offset.arch },
    { code: JEQ, k: auditArch[arch], jt: "native", jf: "kill" },
    { label: "native", code: LD_ABS, k: offset.nr },
    ...(arch === "x64" ? [{ code: JGE, k: x32Bit, jt: "nosys" }] : []),
    ...Object.values(denied).flatMap(([x64, arm64]) => {
      const number = index === 0 ? x64 : arm64;
      return number === null ? [] : [{ code: JEQ, k: number, jt: "deny" }];
    }),
    { code: JEQ, k: nr("clone3"), jt: "nosys" },
    { code: JEQ, k: nr("socket"), jt: "family" },
    { code: JEQ, k: nr("socketpair"), jt: "family" },
    { code: JEQ, k: nr("clone"), jt: "clone" },
    { code: JEQ, k: nr("unshare"), jt: "unshare" },
    { code: JEQ, k: nr("personality"), jt: "personality" },
    { code: RET, k: RET_ALLOW },
    { label: "family", code: LD_ABS, k: offset.arg(0) },
    { code: JEQ, k: AF_UNIX, jt: "allow" },
    { code: JEQ, k: AF_INET, jt: "allow" },
    { code: JEQ, k: AF_INET6, jt: "allow" },
    { code: JEQ, k: AF_NETLINK, jf: "deny" },
    { code: LD_ABS, k: offset.arg(2) },
    { code: JEQ, k: NETLINK_ROUTE, jt: "allow" },
    { code: JEQ, k: NETLINK_SOCK_DIAG, jt: "allow", jf: "deny" },
    { label: "clone", code: LD_ABS, k: offset.arg(0) },
    { code: JSET, k: namespaceFlags, jt: "deny", jf: "allow" },
    { label: "unshare", code: LD_ABS, k: offset.arg(0) },
    { code: JSET, k: namespaceFlags | CLONE_NEWTIME, jt: "deny", jf: "allow" },
    { label: "personality", code: LD_ABS, k: offset.arg(0) },
    ...personalities.map((value) => ({ code: JEQ, k: value, jt: "allow" })),
    { code: RET, k: RET_ERRNO | EPERM, label: "deny" },
    { label: "allow", code: RET, k: RET_ALLOW },
    { label: "nosys", code: RET, k: RET_ERRNO | ENOSYS },
    { label: "kill", code: RET, k: RET_KILL_PROCESS },
  ];
  return assemble(steps);
}

/** Lays the steps out as struct sock_filter, turning label names into forward jump offsets (a missing one: next). */
function assemble(steps: Step[]): Buffer {
  const at = new Map(steps.flatMap((step, position) => (step.label ? [[step.label, position] as const] : [])));
  const program = Buffer.alloc(steps.length * 8);
  steps.forEach((step, position) => {
    const jump = (label: string | undefined) => {
      if (label === undefined) return 0;
      const distance = at.get(label)! - position - 1;
      if (!(distance >= 0 && distance < 256)) throw new Error(`seccomp filter: no forward jump to ${label} from ${position}`);
      return distance;
    };
    program.writeUInt16LE(step.code, position * 8);
    program.writeUInt8(jump(step.jt), position * 8 + 2);
    program.writeUInt8(jump(step.jf), position * 8 + 3);
    program.writeUInt32LE(step.k >>> 0, position * 8 + 4);
  });
  return program;
}
