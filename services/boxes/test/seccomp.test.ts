/**
 * What a box reaches of the host's kernel (src/driver/local/seccomp.ts, sandbox.ts, native/bancada-enter.c): the
 * seccomp filter for the box's init and every way a command enters (exec through a warm entry, start_job, the SSH
 * way in), the /proc entries hidden from it, and the descriptors a command inherits. Real bubblewrap boxes, driven
 * through the local driver.
 */
import { spawn } from "node:child_process";
import { randomInt } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { createLogger } from "@bancada/service-kit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLocalDriver, type LocalDriver } from "../src/index.js";
import { boxSeccompFilter } from "../src/driver/local/seccomp.js";
import { cleanupAfterTest, describeBoxes } from "./stack.js";

const fixture = path.join(import.meta.dirname, "fixtures/inherited-fd.ts");

// Each probe prints "<name> <ok or the errno's name>". Numbers per architecture: the box runs the host's.
const kernelProbe = `
import ctypes, errno, os, socket
nr = {"x86_64": dict(io_uring_setup=425, userfaultfd=323, keyctl=250, unshare=272),
      "aarch64": dict(io_uring_setup=425, userfaultfd=282, keyctl=219, unshare=97)}[os.uname().machine]
libc = ctypes.CDLL(None, use_errno=True)
def call(name, *args):
    result = libc.syscall(nr[name], *args)
    return "ok" if result >= 0 else errno.errorcode[ctypes.get_errno()]
def sock(family, kind=socket.SOCK_STREAM, protocol=0):
    try:
        socket.socket(family, kind, protocol).close()
        return "ok"
    except OSError as error:
        return errno.errorcode[error.errno]
print("vsock", sock(40))
print("packet", sock(17, socket.SOCK_RAW))
print("netlink-audit", sock(16, socket.SOCK_RAW, 9))
print("io_uring", call("io_uring_setup", 1, ctypes.create_string_buffer(120)))
print("userfaultfd", call("userfaultfd", 1))
print("keyctl", call("keyctl", 0, ctypes.c_long(-3), 1))
print("unshare-net", call("unshare", 0x40000000))
print("inet", sock(socket.AF_INET))
print("inet6", sock(socket.AF_INET6))
print("unix", sock(socket.AF_UNIX))
print("netlink-route", sock(16, socket.SOCK_RAW, 0))
`;

const refused = {
  vsock: "EPERM",
  packet: "EPERM",
  "netlink-audit": "EPERM",
  io_uring: "EPERM",
  userfaultfd: "EPERM",
  keyctl: "EPERM",
  "unshare-net": "EPERM",
  inet: "ok",
  inet6: "ok",
  unix: "ok",
  "netlink-route": "ok",
};

const probeCommand = `python3 -c '${kernelProbe.replaceAll("'", "'\\''")}'; grep '^Seccomp:' /proc/self/status`;

describe("the boxes' seccomp filter", () => {
  it("when it is built for x86-64 and aarch64, then each is a whole number of instructions within the kernel's 4,096, and other machines are refused", () => {
    for (const arch of ["x64", "arm64"]) {
      const program = boxSeccompFilter(arch);
      expect(program.length % 8).toBe(0);
      expect(program.length / 8).toBeGreaterThan(60);
      expect(program.length / 8).toBeLessThanOrEqual(4096);
    }
    expect(boxSeccompFilter("x64").equals(boxSeccompFilter("arm64"))).toBe(false);
    expect(() => boxSeccompFilter("ia32")).toThrow(/x64 and arm64 only/);
  });
});

describeBoxes("what a box reaches of the host's kernel", () => {
  let driver: LocalDriver;
  let dataDir: string;
  let hostUid: number;
  const box = { id: `bx_kernel${randomInt(0, 1_000_000)}`, runtime: null as unknown, hostUid: 0 };
  const exec = async (cmd: string) => {
    const result = await driver.exec(box, { command: { cmd }, cwd: "/data/home", env: {}, timeoutMs: 60_000, maxOutputBytes: 65_536 });
    return { ...result, out: result.stdout.toString("utf8"), err: result.stderr.toString("utf8") };
  };

  beforeAll(async () => {
    dataDir = mkdtempSync(path.join(tmpdir(), "bancada-boxes-kernel-"));
    hostUid = 300_000 + randomInt(0, 100_000) * 100;
    box.hostUid = hostUid;
    driver = await createLocalDriver({ dataDir, log: createLogger("kernel", "silent"), disks: "directory", probeUid: hostUid });
    box.runtime = await driver.create({ ...box, name: "kernel", vcpus: 2, memMiB: 2048, dataGiB: 1, hostUid });
  }, 60_000);
  afterAll(async () => {
    await driver?.destroy(box);
    await driver?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it("when a command opens a vsock or packet socket, io_uring, userfaultfd, a keyring or a network namespace, then each is refused with EPERM through exec, start_job and the SSH way in", async () => {
    const viaExec = await exec(probeCommand);
    expect(viaExec.err).toBe("");
    expect(parseProbe(viaExec.out)).toEqual(refused);
    expect(viaExec.out).toMatch(/^Seccomp:\s+2$/m);

    const job = await driver.startJob(box, { jobId: "probe", command: { cmd: probeCommand }, cwd: "/data/home", env: {} });
    const log = await jobLog(driver, box, "probe", job);
    expect(parseProbe(log)).toEqual(refused);
    expect(log).toMatch(/^Seccomp:\s+2$/m);

    const viaShell = await shell(driver, box, probeCommand);
    expect(parseProbe(viaShell)).toEqual(refused);
    expect(viaShell).toMatch(/^Seccomp:\s+2$/m);

    // The box's own init runs under it too (bubblewrap installed it), and so does what the init starts.
    expect((await exec("grep '^Seccomp:' /proc/1/status")).out).toMatch(/^Seccomp:\s+2$/m);
  }, 60_000);

  it("when a box does ordinary work under the filter, then shells, python, the C compiler, ip, name resolution, threads and loopback TCP all work", async () => {
    const work = [
      "set -e",
      "ls / > /dev/null",
      "printf 'int main(void) { return 7; }\\n' > /tmp/seven.c && cc -O2 -pthread -o /tmp/seven /tmp/seven.c && { /tmp/seven || echo compiled=$?; }",
      "ip -o link show lo | grep -q LOOPBACK && echo ip=ok",
      'python3 -c \'import threading, socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); s.listen(); ' +
        'c = socket.create_connection(s.getsockname()); a, _ = s.accept(); c.sendall(b"ping"); ' +
        't = threading.Thread(target=lambda: print("tcp=" + a.recv(4).decode())); t.start(); t.join()\'',
      'python3 -c \'import socket; print("resolve=" + socket.getaddrinfo("localhost", 80, flags=socket.AI_ADDRCONFIG)[0][4][0])\'',
      "unshare -r true 2>/dev/null || echo userns=refused",
    ].join("\n");
    const result = await exec(work);
    expect(result.err).toBe("");
    expect(result.out).toContain("compiled=7");
    expect(result.out).toContain("ip=ok");
    expect(result.out).toContain("tcp=ping");
    expect(result.out).toMatch(/^resolve=/m);
    expect(result.out).toContain("userns=refused");
    expect(result.exitCode).toBe(0);
  }, 60_000);

  it("when a box reads /proc/cmdline, /proc/key-users and the host's other /proc entries, then it finds them empty, while ps, free and /proc/sys still work", async () => {
    const result = await exec(
      'for f in cmdline key-users keys timer_list interrupts softirqs kallsyms config.gz; do [ -e /proc/$f ] && echo "$f $(wc -c < /proc/$f)"; done; ' +
        "ls /proc/acpi 2>/dev/null | wc -l; echo x > /proc/cmdline 2>/dev/null || echo cmdline=read-only; " +
        "ps -e > /dev/null && echo ps=ok; free > /dev/null && echo free=ok; cat /proc/sys/kernel/pid_max > /dev/null && echo sysctl=ok",
    );
    // The host's own is not empty: the box's is hidden, not merely blank.
    expect(readFileSync("/proc/cmdline").length).toBeGreaterThan(0);
    const sizes = Object.fromEntries(
      result.out
        .split("\n")
        .filter((line) => /^[a-z.-]+ \d+$/.test(line))
        .map((line) => line.split(" ") as [string, string]),
    );
    expect(sizes.cmdline).toBe("0");
    expect(sizes["key-users"]).toBe("0");
    for (const size of Object.values(sizes)) expect(size).toBe("0");
    expect(result.out).toMatch(/^0$/m);
    for (const word of ["cmdline=read-only", "ps=ok", "free=ok", "sysctl=ok"]) expect(result.out).toContain(word);
  }, 60_000);

  it("when the service inherited a descriptor from its launcher, then exec, start_job and the SSH way in see only 0, 1 and 2, through the helper and through the chain", async () => {
    for (const enter of ["auto", "chain"] as const) {
      const seen = await inheritedFds(enter);
      expect(seen, enter).toEqual({ exec: "0 1 2", job: "0 1 2", ssh: "0 1 2" });
    }
  }, 90_000);
});

function parseProbe(output: string): Record<string, string> {
  return Object.fromEntries(
    output
      .split("\n")
      .filter((line) => /^[a-z0-9_-]+ (ok|E[A-Z]+)$/.test(line))
      .map((line) => line.split(" ") as [string, string]),
  );
}

async function jobLog(driver: LocalDriver, box: { id: string; runtime: unknown }, jobId: string, job: unknown): Promise<string> {
  const until = Date.now() + 30_000;
  while ((await driver.probeJob(box, jobId, job)).state === "running" && Date.now() < until) await sleep(20);
  return (await driver.readJobLog(box, jobId, { offset: 0, maxBytes: 65_536 })).data.toString("utf8");
}

/** A command's output through the driver's shell (the SSH endpoint's way in). */
async function shell(driver: LocalDriver, box: { id: string; runtime: unknown }, command: string): Promise<string> {
  const session = await driver.openShell(box, { command, terminal: null, env: {} });
  let output = "";
  session.stdout.on("data", (chunk: Buffer) => (output += chunk.toString("utf8")));
  session.stderr.on("data", (chunk: Buffer) => (output += chunk.toString("utf8")));
  session.stdin.end();
  await session.exited;
  return output;
}

/** Runs the fixture in a process that holds fd 251 (a pipe, without close-on-exec) and returns what it printed. */
async function inheritedFds(enter: "auto" | "chain"): Promise<Record<string, string>> {
  const dataDir = mkdtempSync(path.join(tmpdir(), "bancada-boxes-fds-"));
  cleanupAfterTest(() => rmSync(dataDir, { recursive: true, force: true }));
  const hostUid = 300_000 + randomInt(0, 100_000) * 100;
  const stdio = ["ignore", "pipe", "pipe", ...Array.from({ length: 248 }, () => "ignore" as const), "pipe"] as const;
  const child = spawn(process.execPath, ["--import", "tsx", fixture, dataDir, String(hostUid), enter], { stdio: [...stdio] });
  let stdout = "";
  let stderr = "";
  child.stdout!.on("data", (chunk: Buffer) => (stdout += chunk.toString("utf8")));
  child.stderr!.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
  const code = await new Promise<number | null>((resolve) => child.on("exit", resolve));
  expect(stderr).toBe("");
  expect(code).toBe(0);
  return JSON.parse(stdout.trim().split("\n").at(-1)!) as Record<string, string>;
}
