/**
 * Where asset bytes are kept. Blobs are content-addressed (by sha256): equal files are stored once, and
 * a blob is never visible half-written. Blobs no asset refers to any more are swept after a grace period
 * (an upload stores its blob before the asset's row commits). The store in use is PostgreSQL
 * (pg-blob-store.ts), which every replica shares; the disk store (disk-blob-store.ts) is what earlier
 * versions used, read by the migration at start (migrate-disk-blobs.ts) and the benchmark's baseline.
 */
import type { Readable } from "node:stream";
import { DomainError, ErrorCode, invalidArgument } from "@bancada/contracts";
import { supportedMedia, type MediaType } from "./media-type.js";

export interface StoredBlob {
  sha256: string;
  bytes: number;
  mime: MediaType;
}

export interface BlobStore {
  readonly maxBytes: number;
  /** Stores a stream's bytes; `field` names the argument in errors (too large, empty, unsupported). */
  put(source: Readable, field: string): Promise<StoredBlob>;
  /** The blob's bytes, streamed (fails with not_found when no blob has this hash). */
  open(sha256: string): Readable;
  /** The blob's size, null when no blob has this hash. */
  size(sha256: string): Promise<number | null>;
  /** Removes blobs older than `graceMs` whose hash `referenced` does not return. */
  sweep(referenced: (hashes: string[]) => Promise<Set<string>>, graceMs: number): Promise<number>;
  close(): Promise<void>;
}

export function tooLarge(field: string, maxBytes: number): DomainError {
  return new DomainError(ErrorCode.payloadTooLarge, `Too large: ${field}: an asset may hold at most ${maxBytes} bytes.`, {
    issues: [{ path: field, message: `must be at most ${maxBytes} bytes` }],
    limitBytes: maxBytes,
  });
}

export function emptyFile(field: string): DomainError {
  return invalidArgument([{ path: field, message: "the file is empty" }]);
}

export function unsupportedMedia(field: string): DomainError {
  return invalidArgument([
    { path: field, message: `not a supported image or video (${supportedMedia.join(", ")}), judging by its content` },
  ]);
}

export function missingBlob(sha256: string): DomainError {
  return new DomainError(ErrorCode.notFound, "The asset's bytes are missing from storage; remove the asset and add the file again.", {
    sha256,
  });
}
