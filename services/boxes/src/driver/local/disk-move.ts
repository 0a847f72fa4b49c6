/**
 * A disk carried to another node as one stream — a stopped box's, with its jobs' logs (domain/move-box.ts), or a
 * snapshot's, for a box made from it elsewhere (domain/snapshot-copy.ts): a GNU tar of the disk (the image file,
 * holes kept as holes, or a folder disk with its owners and modes), compressed with zstd. The node that has it packs
 * it (`packDisk`, served on its transfer route); the node it goes to reads that route and unpacks into the box's or
 * the snapshot's own folder (`unpackDisk`). Inside the archive:
 *   disk.img          the image (image disks)
 *   disk/…            the disk's files (folder disks)
 *   jobs/<jobId>/…    each job's log and exit status
 * The receiving side extracts into that folder only: tar refuses `..` in member names and makes a
 * member's symbolic link only after the rest, so a sender cannot write beside it.
 */
import { spawn } from "node:child_process";
import { lstat, mkdir, rename, rm } from "node:fs/promises";
import path from "node:path";
import { Readable } from "node:stream";
import type { ReadableStream } from "node:stream/web";
import { pipeline } from "node:stream/promises";
import { makeOwnFolder } from "@bancada/service-kit";
import type { DownloadStream } from "../box-driver.js";
import { exists } from "./box-disk.js";
import type { DiskKind } from "./disk-image.js";

/** Where a disk is kept: `disk.img` in `dir` (image disks) or the folder `folder`, and a box's run folder (its jobs). */
export interface DiskPlace {
  dir: string;
  folder: string;
  run?: string;
}

const tarOptions = ["--zstd", "--sparse", "--numeric-owner"];

/** The archive of a disk (and a box's job logs), read as it is written. */
export async function packDisk(kind: DiskKind, place: DiskPlace): Promise<DownloadStream> {
  const args = ["--create", ...tarOptions, "--file=-"];
  if (kind === "image") args.push("-C", place.dir, "disk.img");
  else args.push("--transform=s,^\\./,disk/,S", "-C", place.folder, ".");
  if (place.run && (await exists(path.join(place.run, "jobs")))) args.push("-C", place.run, "jobs");
  const tar = spawn("tar", args, { stdio: ["ignore", "pipe", "pipe"] });
  tar.on("error", () => {});
  if (tar.pid === undefined) throw new Error("tar could not start (the service may be out of file descriptors)");
  let errors = "";
  tar.stderr.on("data", (chunk: Buffer) => (errors += chunk.toString()).length > 4096 && (errors = errors.slice(-4096)));
  const ended = new Promise<{ ok: boolean; message: string }>((resolve) => {
    tar.on("error", (error) => resolve({ ok: false, message: error.message }));
    tar.on("close", (code, signal) =>
      resolve(code === 0 ? { ok: true, message: "" } : { ok: false, message: errors.trim() || `tar ended with ${signal ?? code}` }),
    );
  });
  // the reader gone (the receiving node cut off): the packing stops
  tar.stdout.on("close", () => tar.exitCode === null && tar.kill("SIGKILL"));
  return { stream: tar.stdout, ended };
}

/**
 * Unpacks `source` (packDisk's bytes) into `place` (its `dir` made here, root's alone, unless it exists); returns the
 * bytes received. The disk must not be on this node yet; on failure what was unpacked is for the caller to remove.
 */
async function unpackDisk(kind: DiskKind, place: DiskPlace, source: Readable, signal?: AbortSignal): Promise<number> {
  await makeOwnFolder(place.dir, 0o700);
  const tar = spawn("tar", ["--extract", ...tarOptions, "--same-owner", "--same-permissions", "--file=-", "-C", place.dir], {
    stdio: ["pipe", "ignore", "pipe"],
    ...(signal ? { signal } : {}),
  });
  tar.on("error", () => {});
  if (tar.pid === undefined) throw new Error("tar could not start (the service may be out of file descriptors)");
  let errors = "";
  tar.stderr.on("data", (chunk: Buffer) => (errors += chunk.toString()).length > 4096 && (errors = errors.slice(-4096)));
  const exited = new Promise<void>((resolve, reject) => {
    tar.on("error", reject);
    tar.on("close", (code, signal) => (code === 0 ? resolve() : reject(new Error(errors.trim() || `tar ended with ${signal ?? code}`))));
  });
  let bytes = 0;
  source.on("data", (chunk: Buffer) => (bytes += chunk.length));
  await Promise.all([pipeline(source, tar.stdin), exited]);
  // what the sender put there is judged by lstat: a symbolic link named disk.img, disk or jobs (to a host device or
  // folder) would have root mount or write through it later
  const kindOf = async (name: string) => (await lstat(path.join(place.dir, name)).catch(() => null)) ?? null;
  const jobs = path.join(place.dir, "jobs");
  const jobsEntry = await kindOf("jobs");
  if (place.run && jobsEntry?.isDirectory()) {
    await mkdir(place.run, { recursive: true });
    await rename(jobs, path.join(place.run, "jobs"));
  } else await rm(jobs, { recursive: true, force: true });
  if (kind === "image") {
    if (!(await kindOf("disk.img"))?.isFile()) throw new Error("the archive held no disk image (a plain file)");
  } else {
    const disk = path.join(place.dir, "disk");
    if (!(await kindOf("disk"))?.isDirectory()) throw new Error("the archive held no disk folder");
    // onto the (empty) mount point, or where none is yet
    if (disk !== place.folder) await rename(disk, place.folder);
  }
  return bytes;
}

/** Reads `url` (another node's transfer route serving packDisk) and unpacks it into `place`; returns the bytes read. */
export async function receiveDisk(kind: DiskKind, place: DiskPlace, url: string, signal?: AbortSignal): Promise<number> {
  const answer = await fetch(url, signal ? { signal } : {});
  if (answer.status !== 200 || !answer.body) {
    const body = (await answer.text().catch(() => "")).slice(0, 500);
    throw new Error(`the node that holds the disk answered ${answer.status}: ${body}`);
  }
  return unpackDisk(kind, place, Readable.fromWeb(answer.body as ReadableStream), signal);
}
