/**
 * A stopped box's disk carried between two nodes by the drivers themselves (driver/local/disk-move.ts), for both
 * kinds of disk: the box's files, owners, holes and job logs arrive, the box starts there; a box with processes is
 * refused; and an archive a hostile sender made writes nothing outside the box's own folder.
 */
import { execFileSync } from "node:child_process";
import { randomInt } from "node:crypto";
import { createReadStream, existsSync, mkdtempSync, rmSync, symlinkSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { pipeline } from "node:stream/promises";
import { afterAll, beforeAll, expect, it } from "vitest";
import { createLogger } from "@bancada/service-kit";
import { createLocalDriver, type LocalDriver } from "../src/index.js";
import type { BoxHandle, DownloadStream } from "../src/driver/box-driver.js";
import { describeBoxes } from "./stack.js";

const log = createLogger("disk-move-test", "silent");
// "auto" makes image disks where loop devices exist (and says why not elsewhere)
const kinds = existsSync("/dev/loop-control") ? (["auto", "directory"] as const) : (["directory"] as const);

/** One HTTP server that answers each path with the stream `serve` makes for it (a node's transfer route, bare). */
async function streamServer(serve: (url: string) => Promise<DownloadStream>): Promise<{ url: string; server: Server }> {
  const server = createServer((req, res) => {
    serve(req.url ?? "").then(
      (download) => pipeline(download.stream, res).catch(() => res.destroy()),
      (error: Error) => res.writeHead(409).end(error.message),
    );
  }).listen(0, "127.0.0.1");
  await new Promise((resolve) => server.once("listening", resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

for (const disks of kinds)
  describeBoxes(`a stopped box's ${disks === "auto" ? "image" : disks} disk moved between two nodes`, () => {
    const dirs: string[] = [];
    let from: LocalDriver;
    let to: LocalDriver;
    let http: { url: string; server: Server };
    const hostUid = 400_000 + randomInt(0, 100_000) * 100;
    const box: BoxHandle = { id: `bx_move${randomInt(0, 1_000_000)}`, runtime: null };
    const snapshot = { id: `snap_move${randomInt(0, 1_000_000)}`, accountId: "acct-move" };
    const spec = () => ({ ...box, name: "moving-box", vcpus: 1, memMiB: 512, dataGiB: 1, hostUid });
    const sh = (driver: LocalDriver, cmd: string, target = box) =>
      driver.exec(target, { command: { cmd }, cwd: "/data/home", env: {}, timeoutMs: 30_000, maxOutputBytes: 65_536 });

    beforeAll(async () => {
      const driverAt = (node: string) => {
        const dataDir = mkdtempSync(path.join(tmpdir(), `bancada-move-${node}-`));
        dirs.push(dataDir);
        return createLocalDriver({ dataDir, log, disks, probeUid: hostUid, node, store: { mode: "off" } });
      };
      from = await driverAt("from");
      to = await driverAt("to");
      // /disk: the box's disk on the first node; /snapshot: the snapshot saved of it once it runs on the second
      http = await streamServer((url) => (url.startsWith("/snapshot") ? to.exportSnapshot(snapshot) : from.exportDisk(box)));
    }, 120_000);

    afterAll(async () => {
      http?.server.close();
      for (const driver of [from, to]) {
        await driver?.destroy(box).catch(() => {});
        await driver?.close();
      }
      for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
    });

    it("when its disk moves, then its files (owners, a hole, a link) and its job logs arrive, and it starts on the new node", async () => {
      box.runtime = await from.create(spec());
      const made = await sh(
        from,
        "echo kept > kept.txt && ln -s kept.txt link && truncate -s 64M holey.bin && echo tail >> holey.bin && mkdir -p deep/er && echo x > deep/er/f",
      );
      expect(made.exitCode).toBe(0);
      const job = (await from.startJob(box, {
        jobId: "job_moved",
        command: { cmd: "echo from-the-job" },
        cwd: "/data/home",
        env: {},
      })) as unknown;
      for (let i = 0; i < 100 && (await from.probeJob(box, "job_moved", job)).state === "running"; i++)
        await new Promise((r) => setTimeout(r, 50));
      await expect(from.exportDisk(box)).rejects.toThrow(/processes/);
      await from.stop(box);
      box.runtime = null;

      const { bytes } = await to.importDisk(box, `${http.url}/disk`);
      expect(bytes).toBeGreaterThan(0);
      // a 64 MiB hole crossed as a hole: far fewer bytes than the file's length
      expect(bytes).toBeLessThan(32 * 1024 * 1024);
      // the node it left holds its copy until the control plane removes it, before the box starts anew (domain/move-box.ts)
      await from.destroy({ id: box.id, runtime: null });
      box.runtime = await to.start(spec());
      const seen = await sh(to, "cat kept.txt link deep/er/f && stat -c '%s %u' holey.bin && tail -c 5 holey.bin && id -u");
      expect(seen.stdout.toString()).toBe("kept\nkept\nx\n67108869 0\ntail\n0\n");
      const logs = await to.readJobLog(box, "job_moved", { offset: 0, maxBytes: 1000 });
      expect(logs.data.toString()).toBe("from-the-job\n");
    }, 120_000);

    it("when a disk of that box is already on the node, then an import is refused and leaves that disk alone", async () => {
      await expect(to.importDisk(box, `${http.url}/disk`)).rejects.toThrow(/has a disk on node to already/);
      expect((await sh(to, "cat kept.txt")).stdout.toString()).toBe("kept\n");
    });

    it("when a snapshot of it is copied to the other node, then a box made there from the copy has its files, and the copy can go", async () => {
      // the box runs on the second node now: its snapshot is saved there, copied back to the first
      await to.copyDisk(box, [{ kind: "snapshot", snapshot }]);
      const copy = { id: `${snapshot.id}.for.bx_other`, accountId: snapshot.accountId };
      const other: BoxHandle = { id: "bx_other" + randomInt(0, 1_000_000), runtime: null };
      expect((await from.importSnapshot(copy, `${http.url}/snapshot`)).bytes).toBeGreaterThan(0);
      await expect(from.importSnapshot(copy, `${http.url}/snapshot`)).rejects.toThrow(/has files on node from already/);
      other.runtime = await from.createFromCopy(
        { ...other, name: "from-copy", vcpus: 1, memMiB: 512, dataGiB: 1, hostUid: hostUid + 1 },
        copy,
      );
      try {
        const seen = await sh(from, "cat kept.txt; hostname", other);
        expect(seen.stdout.toString()).toBe("kept\nfrom-copy\n");
      } finally {
        await from.destroy(other);
        await from.deleteSnapshot(copy);
        await to.deleteSnapshot(snapshot);
      }
    }, 120_000);
  });

describeBoxes("an archive a hostile node sends as a box's disk", () => {
  let driver: LocalDriver;
  let dataDir: string;
  let work: string;
  let http: { url: string; server: Server };
  const hostUid = 400_000 + randomInt(0, 100_000) * 100;

  beforeAll(async () => {
    dataDir = mkdtempSync(path.join(tmpdir(), "bancada-move-hostile-"));
    work = mkdtempSync(path.join(tmpdir(), "bancada-move-archive-"));
    driver = await createLocalDriver({ dataDir, log, disks: "directory", probeUid: hostUid, node: "to", store: { mode: "off" } });
    // members that climb out (`../`), an absolute path, and a link out of the folder with a file written through it
    const script = `
import io, sys, tarfile
out = sys.argv[1]
with tarfile.open(out, "w") as tar:
    def add(name, data=b"planted\\n", kind=tarfile.REGTYPE, link=""):
        info = tarfile.TarInfo(name); info.type = kind; info.linkname = link
        info.size = len(data) if kind == tarfile.REGTYPE else 0
        tar.addfile(info, io.BytesIO(data) if kind == tarfile.REGTYPE else None)
    add("disk/", kind=tarfile.DIRTYPE)
    add("disk/ok.txt", b"ok\\n")
    add("../../escaped-up.txt")
    add(sys.argv[2] + "/escaped-absolute.txt")
    add("disk/out", kind=tarfile.SYMTYPE, link=sys.argv[2])
    add("disk/out/escaped-through.txt")
`;
    execFileSync("python3", ["-c", script, path.join(work, "hostile.tar"), work]);
    symlinkSync(work, path.join(work, "disk-link"));
    execFileSync("zstd", ["-q", "-f", path.join(work, "hostile.tar"), "-o", path.join(work, "hostile.tar.zst")]);
    const archive = path.join(work, "hostile.tar.zst");
    // a disk that is only a symbolic link to a host folder (a mount of it would be the host's)
    execFileSync("tar", ["--zstd", "-cf", path.join(work, "linked.tar.zst"), "-C", work, "disk-link", "--transform=s,^disk-link,disk,"], {
      stdio: "ignore",
    });
    http = await streamServer(async (url) => {
      const stream = createReadStream(url.startsWith("/linked") ? path.join(work, "linked.tar.zst") : archive);
      return { stream, ended: Promise.resolve({ ok: true, message: "" }) };
    });
  }, 120_000);

  afterAll(async () => {
    http?.server.close();
    await driver?.close();
    for (const dir of [dataDir, work]) if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it("when it is imported, then nothing lands outside the box's folder", async () => {
    const box = { id: `bx_hostile${randomInt(0, 1_000_000)}`, runtime: null };
    const refused = await driver.importDisk(box, `${http.url}/disk`).then(
      () => null,
      (error: Error) => error.message,
    );
    expect(refused).toMatch(/\.\.|Not a directory|Cannot/);
    // what it did unpack went with the failed import
    expect(existsSync(path.join(dataDir, "state", box.id))).toBe(false);
    for (const name of ["escaped-absolute.txt", "escaped-through.txt"]) expect(existsSync(path.join(work, name)), name).toBe(false);
    expect(existsSync(path.join(dataDir, "state", "escaped-up.txt"))).toBe(false);
    expect(existsSync(path.join(dataDir, "escaped-up.txt"))).toBe(false);
    expect(existsSync(path.join(dataDir, "..", "escaped-up.txt"))).toBe(false);
  });

  it("when its disk folder is a symbolic link to a host folder, then the import is refused and nothing is left", async () => {
    const box = { id: `bx_linked${randomInt(0, 1_000_000)}`, runtime: null };
    await expect(driver.importDisk(box, `${http.url}/linked`)).rejects.toThrow(/no disk folder/);
    expect(existsSync(path.join(dataDir, "state", box.id))).toBe(false);
    expect(existsSync(path.join(dataDir, "mnt", box.id))).toBe(false);
    expect(existsSync(work)).toBe(true);
  });
});
