/**
 * A local file named by path (the stdio-only tool). The path is read by this service's process: that is
 * the caller's own machine when the stdio gateway and the service run together (`bancada gateway --stdio`
 * without NATS), which is why the tool is offered over stdio only and never over HTTP.
 */
import { constants, createReadStream } from "node:fs";
import { access, stat } from "node:fs/promises";
import path from "node:path";
import type { Readable } from "node:stream";
import { DomainError, ErrorCode, invalidArgument } from "@bancada/contracts";

export interface LocalFile {
  name: string;
  open: () => Readable;
}

export async function openLocalFile(filePath: string, maxBytes: number): Promise<LocalFile> {
  const info = await stat(filePath).catch(() => null);
  if (!info)
    throw invalidArgument([{ path: "path", message: "no file at this path (it must be an absolute path on the machine running Bancada)" }]);
  if (!info.isFile()) throw invalidArgument([{ path: "path", message: "not a regular file" }]);
  if (info.size > maxBytes) {
    throw new DomainError(
      ErrorCode.payloadTooLarge,
      `Too large: path: the file has ${info.size} bytes; an asset may hold at most ${maxBytes}.`,
      {
        issues: [{ path: "path", message: `must be at most ${maxBytes} bytes` }],
        limitBytes: maxBytes,
      },
    );
  }
  const readable = await access(filePath, constants.R_OK).then(
    () => true,
    () => false,
  );
  if (!readable) throw invalidArgument([{ path: "path", message: "the file is not readable by Bancada" }]);
  return { name: path.basename(filePath), open: () => createReadStream(filePath) };
}
