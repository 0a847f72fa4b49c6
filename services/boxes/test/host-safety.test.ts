/**
 * What root in a box can do to the host, tried from inside real boxes: the host's sysctls, the box's host
 * uid, code planted for the privileged helpers that enter a box (/etc/ld.so.preload, LD_PRELOAD), setuid
 * programs left on the host, other host users reading a box's files, the host's TLS keys, and every host
 * path a box can see.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { hiddenProc } from "../src/driver/local/proc-masks.js";
import { closeBoxFixture, describeBoxes, openBoxFixture, type BoxFixture } from "./stack.js";
import { ok, run } from "./helpers.js";

const gcc = ["/usr/bin/cc", "/usr/bin/gcc"].find((file) => existsSync(file));

describeBoxes("what a box can do to its host", () => {
  let fixture: BoxFixture;
  let hostUid: number;
  const boxFile = (relative: string) => path.join(fixture.boxes.dataDir, "mnt", fixture.box.id, relative);

  beforeAll(async () => {
    fixture = await openBoxFixture("hardened");
    hostUid = (await fixture.boxes.service().db.box.findUniqueOrThrow({ where: { id: fixture.box.id } })).hostUid!;
  });
  afterAll(() => closeBoxFixture(fixture));

  it("when root in a box writes the host's sysctls or sysrq-trigger, then every write fails and the host's values stay", async () => {
    const names = ["kernel/core_uses_pid", "kernel/core_pattern", "kernel/randomize_va_space", "vm/panic_on_oom", "kernel/pid_max"];
    const before = Object.fromEntries(names.map((name) => [name, readFileSync(`/proc/sys/${name}`, "utf8")]));
    // Each write would change the host (core_uses_pid flipped); put back below should one ever get through.
    const flipped = before["kernel/core_uses_pid"]!.trim() === "1" ? "0" : "1";
    const writes = [
      `echo ${flipped} > /proc/sys/kernel/core_uses_pid`,
      "echo 3 > /proc/sys/vm/drop_caches",
      "echo '|/data/home/x' > /proc/sys/kernel/core_pattern",
      "echo 0 > /proc/sys/kernel/randomize_va_space",
      "echo 1 > /proc/sys/vm/panic_on_oom",
      "echo 4194304 > /proc/sys/kernel/pid_max",
      "echo h > /proc/sysrq-trigger",
    ];
    try {
      const result = await run(
        fixture.client,
        fixture.box.id,
        writes.map((write, index) => `(${write}) 2>/dev/null && echo wrote-${index}`).join("; ") + "; echo done",
      );
      expect(result.stdout.trim()).toBe("done");
      for (const name of names) expect(readFileSync(`/proc/sys/${name}`, "utf8")).toBe(before[name]);
    } finally {
      for (const name of names)
        if (readFileSync(`/proc/sys/${name}`, "utf8") !== before[name]) writeFileSync(`/proc/sys/${name}`, before[name]!);
    }
  });

  it("when a box reads its uid map, then root inside is the box's own unprivileged host uid; its files and processes belong to that uid", async () => {
    expect(hostUid).toBeGreaterThanOrEqual(100_000);
    const maps = await run(fixture.client, fixture.box.id, "cat /proc/self/uid_map /proc/self/gid_map; id -u; touch /data/home/mine");
    expect(
      maps.stdout
        .trim()
        .split("\n")
        .map((line) => line.trim().split(/\s+/)),
    ).toEqual([["0", String(hostUid), "1"], ["0", String(hostUid), "1"], ["0"]]);
    expect(statSync(boxFile("home/mine"))).toMatchObject({ uid: hostUid, gid: hostUid });
    const { box } = await ok(fixture.client, "get_box", { boxId: fixture.box.id });
    expect(box.enforcement.user).toContain("unprivileged host user");
    const runtime = (await fixture.boxes.service().db.box.findUniqueOrThrow({ where: { id: fixture.box.id } })).runtime as {
      init: { pid: number };
      uid: number;
    };
    expect(runtime.uid).toBe(hostUid);
    expect(readFileSync(`/proc/${runtime.init.pid}/status`, "utf8")).toMatch(
      new RegExp(`^Uid:\\t${hostUid}\\t${hostUid}\\t${hostUid}\\t${hostUid}$`, "m"),
    );
  });

  it.skipIf(!gcc)(
    "when a box plants /etc/ld.so.preload or passes LD_PRELOAD, then no helper with privileges loads it; only the box's own command does, without capabilities",
    async () => {
      const marks = mkdtempSync(path.join(tmpdir(), "bancada-preload-"));
      try {
        execFileSync("chmod", ["0777", marks]);
        const library = path.join(marks, "mark.so");
        execFileSync(gcc!, ["-shared", "-fPIC", "-o", library, "-x", "c", "-"], { input: markerSource });
        await ok(fixture.client, "write_file", {
          boxId: fixture.box.id,
          path: "/data/home/mark.so",
          content: readFileSync(library).toString("base64"),
          encoding: "base64",
          mode: "0755",
        });
        const planted = await run(
          fixture.client,
          fixture.box.id,
          "echo /data/home/mark.so > /etc/ld.so.preload; rm -f /etc/ld.so.preload; cat /etc/ld.so.preload | wc -c",
        );
        expect(planted.stderr).toMatch(/Read-only file system/);
        expect(planted.stdout.trim()).toBe("0");
        // LD_PRELOAD by the box's path and by the host path of the same file: the host part of the chain (root) must load neither.
        const hostMarks = path.join(marks, "host-marks");
        for (const preload of ["/data/home/mark.so", boxFile("home/mark.so")]) {
          await run(fixture.client, fixture.box.id, "true", { env: { LD_PRELOAD: preload, BANCADA_MARKS: hostMarks } });
          await ok(fixture.client, "read_file", { boxId: fixture.box.id, path: "/data/home/mark.so" });
        }
        await run(fixture.client, fixture.box.id, "true", {
          env: { LD_PRELOAD: "/data/home/mark.so", BANCADA_MARKS: "/data/home/box-marks" },
        });
        expect(existsSync(hostMarks)).toBe(false);
        // The one process that loaded it: the command itself, as the box's root, with no capability at all.
        const loaded = readFileSync(boxFile("home/box-marks"), "utf8").trim().split("\n");
        expect(loaded.length).toBeGreaterThan(0);
        for (const line of loaded) expect(line).toBe("uid=0 euid=0 CapEff:\t0000000000000000");
      } finally {
        rmSync(marks, { recursive: true, force: true });
      }
    },
  );

  it("when a box leaves a setuid copy of bash in its home, then nothing on the host is setuid root, the disk is nosuid, and other host users read nothing of the box", async () => {
    await run(
      fixture.client,
      fixture.box.id,
      "cp /bin/bash /data/home/rootbash && chmod 4755 /data/home/rootbash && echo secret > /data/home/secret.txt",
    );
    const found = execFileSync("find", [fixture.boxes.dataDir, "-perm", "-4000", "-user", "0"], { encoding: "utf8" });
    expect(found).toBe("");
    expect(statSync(boxFile("home/rootbash")).uid).toBe(hostUid);
    const mount = readFileSync("/proc/self/mountinfo", "utf8")
      .split("\n")
      .find((line) => line.split(" ")[4] === boxFile("").replace(/\/$/, ""));
    expect(mount?.split(" ")[5]).toMatch(/(^|,)nosuid(,|$)/);
    expect(mount?.split(" ")[5]).toMatch(/(^|,)nodev(,|$)/);
    const asNobody = (...command: string[]) =>
      spawnSync("setpriv", ["--reuid=nobody", "--regid=nogroup", "--clear-groups", ...command], { encoding: "utf8" });
    expect(asNobody("cat", boxFile("home/secret.txt")).status).not.toBe(0);
    expect(asNobody("ls", fixture.boxes.dataDir).status).not.toBe(0);
    expect(asNobody("ls", path.join(fixture.boxes.dataDir, "state", fixture.box.id)).status).not.toBe(0);
    expect(asNobody(boxFile("home/rootbash"), "-p", "-c", "id -u").stdout).not.toBe("0\n");
  });

  it("when a box looks for the host's TLS keys, then /etc/ssl holds only the public certificates and its own openssl.cnf", async () => {
    const result = await run(
      fixture.client,
      fixture.box.id,
      "ls -A /etc/ssl | tr '\\n' ' '; echo; ls /etc/ssl/private 2>&1; ls /etc/ssl/certs | wc -l",
    );
    const [listing, missing, certificates] = result.stdout.trim().split("\n");
    expect(listing!.trim()).toMatch(/^certs( openssl\.cnf)?$/);
    expect(missing).toMatch(/No such file or directory/);
    expect(Number(certificates)).toBeGreaterThan(existsSync("/etc/ssl/certs/ca-certificates.crt") ? 0 : -1);
  });

  it("when a box lists its mounts, then the host paths it sees are exactly /usr, its links, the CA certificates, the alternatives links, /proc/sys, the empty read-only masks over /proc's host entries and six device nodes", async () => {
    const mounts = (await run(fixture.client, fixture.box.id, "cat /proc/self/mountinfo")).stdout
      .trim()
      .split("\n")
      .map((line) => {
        const [left, right] = line.split(" - ");
        const fields = left!.split(" ");
        return { device: fields[2]!, root: fields[3]!, point: fields[4]!, options: fields[5]!, type: right!.split(" ")[0]! };
      });
    const own = mounts.find((mount) => mount.point === "/data/home")!;
    const kernelOnly = new Set(["tmpfs", "devpts", "mqueue"]);
    // Host paths: anything not of the box's own disk, not a kernel filesystem made for the box, not its own /proc.
    const host = mounts.filter(
      (mount) => mount.device !== own.device && !kernelOnly.has(mount.type) && !(mount.type === "proc" && mount.root === "/"),
    );
    const realDirs = ["bin", "sbin", "lib", "lib32", "lib64", "libx32"]
      .filter((name) => existsSync(`/${name}`) && !isLink(`/${name}`))
      .map((name) => `/${name}`);
    const expected = [
      "/usr",
      ...realDirs,
      "/etc/ssl/certs",
      "/etc/alternatives",
      "/proc/sys",
      ...[...hiddenProc.files, ...hiddenProc.folders].filter((name) => existsSync(`/proc/${name}`)).map((name) => `/proc/${name}`),
      "/dev/null",
      "/dev/zero",
      "/dev/full",
      "/dev/random",
      "/dev/urandom",
      "/dev/tty",
    ];
    expect(host.map((mount) => mount.point).sort()).toEqual(
      expected.filter((point) => point !== "/etc/alternatives" || existsSync("/etc/alternatives")).sort(),
    );
    for (const mount of host.filter((entry) => !entry.point.startsWith("/dev/"))) expect(mount.options.split(",")).toContain("ro");
    // The box's own folders all come from its disk.
    for (const point of ["/data/home", "/etc", "/var", "/opt", "/root", "/tmp"])
      expect(mounts.find((mount) => mount.point === point)?.device).toBe(own.device);
  });
});

function isLink(file: string): boolean {
  try {
    return execFileSync("stat", ["-c", "%F", file], { encoding: "utf8" }).includes("symbolic link");
  } catch {
    return false;
  }
}

/** A preload library that appends who loaded it (uid, euid, effective capabilities) to $BANCADA_MARKS. */
const markerSource = `
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
__attribute__((constructor)) static void mark(void) {
  const char *target = getenv("BANCADA_MARKS");
  if (!target) return;
  char status[4096] = {0}, caps[64] = "CapEff:?";
  int in = open("/proc/self/status", O_RDONLY);
  if (in >= 0) { read(in, status, sizeof status - 1); close(in); }
  char *line = strstr(status, "CapEff:");
  if (line) { char *end = strchr(line, '\\n'); size_t n = end ? (size_t)(end - line) : strlen(line); if (n > 63) n = 63; memcpy(caps, line, n); caps[n] = 0; }
  int out = open(target, O_WRONLY | O_CREAT | O_APPEND, 0666);
  if (out < 0) return;
  char text[160];
  int n = snprintf(text, sizeof text, "uid=%d euid=%d %s\\n", (int)getuid(), (int)geteuid(), caps);
  write(out, text, n);
  close(out);
}
`;
