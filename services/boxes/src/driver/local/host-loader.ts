/**
 * How the one program that runs inside a box with capabilities (setpriv, which drops them) is started
 * without reading anything the box wrote. A dynamically linked program reads /etc/ld.so.cache (which
 * library is where) and /etc/ld.so.preload (libraries to load first), and a box's /etc is the box's own.
 * So setpriv is run through the dynamic loader itself, with `--inhibit-cache` and the library folders
 * found here on the host (all of them under /usr, which the box sees read-only); and every box's
 * /etc/ld.so.preload is an empty read-only file the box cannot replace (sandbox.ts).
 */
import { execFile } from "node:child_process";
import { open } from "node:fs/promises";
import path from "node:path";
import { promisify } from "node:util";

const run = promisify(execFile);

export interface HostLoader {
  /** The program's ELF interpreter, e.g. /lib64/ld-linux-x86-64.so.2. */
  interpreter: string;
  /** Where its libraries are, for `--library-path`. */
  libraryPath: string;
}

export async function hostLoader(program: string): Promise<HostLoader> {
  const interpreter = await elfInterpreter(program);
  const { stdout } = await run(interpreter, ["--list", program]);
  const folders = new Set<string>();
  for (const match of stdout.matchAll(/=> (\/\S+) \(/g)) folders.add(path.dirname(match[1]!));
  if (folders.size === 0) throw new Error(`the dynamic loader listed no library for ${program}`);
  return { interpreter, libraryPath: [...folders].join(":") };
}

/** The loader that must run what the command line names (`--inhibit-cache`: /etc/ld.so.cache is the box's). */
export function loaderArgs(loader: HostLoader, program: string): string[] {
  return [loader.interpreter, "--inhibit-cache", "--library-path", loader.libraryPath, program];
}

/** PT_INTERP of a 64-bit little-endian ELF file. */
async function elfInterpreter(program: string): Promise<string> {
  const file = await open(program, "r");
  try {
    const header = Buffer.alloc(64);
    await file.read(header, 0, 64, 0);
    if (header.readUInt32BE(0) !== 0x7f454c46 || header[4] !== 2 || header[5] !== 1)
      throw new Error(`${program} is not a 64-bit little-endian ELF program`);
    const tableAt = Number(header.readBigUInt64LE(0x20));
    const entrySize = header.readUInt16LE(0x36);
    const entries = header.readUInt16LE(0x38);
    const table = Buffer.alloc(entrySize * entries);
    await file.read(table, 0, table.length, tableAt);
    for (let index = 0; index < entries; index++) {
      const entry = table.subarray(index * entrySize);
      if (entry.readUInt32LE(0) !== 3) continue;
      const text = Buffer.alloc(Number(entry.readBigUInt64LE(32)));
      await file.read(text, 0, text.length, Number(entry.readBigUInt64LE(8)));
      return text.toString("utf8").replace(/\0.*$/s, "");
    }
    throw new Error(`${program} has no ELF interpreter (a static program needs none of this)`);
  } finally {
    await file.close();
  }
}
