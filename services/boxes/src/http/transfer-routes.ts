/**
 * The transfer URLs' own routes. They live outside /v1 because they take no API key: the signed query is the
 * authority (domain/transfers/open-transfer.ts). Bodies are streams here, never parsed.
 *   PUT  /boxes/transfers/upload/:boxId?path&mode&expires&signature     → 200 { path, size, mode }
 *   GET  /boxes/transfers/download/:boxId?path&archive&expires&signature → the file (Range → 206, 416) or a tar.zst
 *   GET  /boxes/transfers/disk/:id?to&expires&signature                  → a stopped box's disk, for its move (move-box.ts)
 *   GET  /boxes/transfers/snapshot/:id?to&expires&signature              → a snapshot's files (snapshot-copy.ts)
 * The REST mirrors of the two tools that hand such URLs out (`POST /v1/boxes/:boxId/upload-url|download-url`) are
 * rows of routes.ts: they run on the box's node, which mints the URL with its own public address.
 */
import { posix } from "node:path";
import { pipeline } from "node:stream/promises";
import { Router, type Request, type Response } from "express";
import { restRoutes } from "@bancada/service-kit";
import { z } from "zod";
import { ErrorCode } from "@bancada/contracts";
import type { BoxesRuntime } from "../domain/context.js";
import { downloadTarget, streamDownload } from "../domain/transfers/download.js";
import { openTransfer, type TransferRequest } from "../domain/transfers/open-transfer.js";
import type { TransferOp } from "../domain/transfers/signing.js";
import { receiveUpload } from "../domain/transfers/upload.js";
import { openDiskExport } from "../domain/move-box.js";
import { openSnapshotExport } from "../domain/snapshot-copy.js";

const query = z.object({
  path: z.string().min(1).max(4096),
  expires: z.string().regex(/^\d{1,12}$/),
  signature: z.string().regex(/^[A-Za-z0-9_-]{43}$/),
  mode: z
    .string()
    .regex(/^[0-7]{4}$/)
    .optional(),
  archive: z.enum(["true", "false"]).optional(),
});

export function transferRoutes(rt: BoxesRuntime): Router {
  const router = Router();
  const routes = restRoutes(router);

  routes.put(
    "/boxes/transfers/upload/:boxId",
    { summary: "Upload through a signed URL (no key)", access: "signed", query, body: "bytes" },
    async (req, res) => {
      try {
        const grant = grantOf(req, "upload");
        const { ctx, box } = await openTransfer(rt, grant);
        const length = req.headers["content-length"];
        const declaredBytes = length !== undefined && /^\d+$/.test(length) ? Number(length) : null;
        res.json(await receiveUpload(ctx, box, { path: grant.path, mode: grant.variant, source: req, declaredBytes }));
      } catch (error) {
        // A refusal before the body was read: close the connection rather than read (and drop) up to 5 GB.
        if (!req.complete) res.setHeader("Connection", "close");
        throw error;
      }
    },
  );

  routes.get(
    "/boxes/transfers/download/:boxId",
    { summary: "Download through a signed URL (no key; Range supported)", access: "signed", query, response: "bytes" },
    async (req, res) => {
      const grant = grantOf(req, "download");
      const { ctx, box } = await openTransfer(rt, grant);
      const archive = grant.variant === "archive";
      const target = await downloadTarget(ctx, box, grant.path, archive);
      const name = posix.basename(grant.path) || "download";
      res.setHeader("Content-Disposition", `attachment; filename="${name.replace(/[^A-Za-z0-9._-]/g, "_")}${archive ? ".tar.zst" : ""}"`);
      res.setHeader("Cache-Control", "private, no-store");
      if (target.kind === "archive") {
        res.setHeader("Content-Type", "application/zstd");
        res.setHeader("Accept-Ranges", "none");
        if (req.method === "HEAD") return void res.end();
        return send(res, await streamDownload(ctx, box, { path: grant.path, archive: true }), rt.transfers.maxArchiveBytes);
      }
      res.setHeader("Content-Type", "application/octet-stream");
      res.setHeader("Accept-Ranges", "bytes");
      const range = byteRange(req.headers.range, target.size);
      if (range === "unsatisfiable") {
        res.setHeader("Content-Range", `bytes */${target.size}`);
        res.status(416).json({
          error: { code: ErrorCode.invalidArgument, message: `The range ${req.headers.range} is outside the file's ${target.size} bytes.` },
        });
        return;
      }
      const length = range ? range.end - range.start + 1 : target.size;
      if (range) res.status(206).setHeader("Content-Range", `bytes ${range.start}-${range.end}/${target.size}`);
      res.setHeader("Content-Length", String(length));
      if (req.method === "HEAD" || length === 0) return void res.end();
      const request = range ? { path: grant.path, range: { start: range.start, length } } : { path: grant.path };
      return send(res, await streamDownload(ctx, box, request), length);
    },
  );

  // node to node (domain/transfers/node-transfer.ts): a stopped box's disk for its move, a snapshot's files for a box
  // made from it on another node; the control plane signs each URL for one thing and the node that reads it
  const nodeRoutes = [
    {
      path: "/boxes/transfers/disk/:id",
      summary: "A stopped box's disk, read by the node it moves to off a drained node (node to node; signed by the control plane)",
      open: openDiskExport,
    },
    {
      path: "/boxes/transfers/snapshot/:id",
      summary: "A snapshot's files, read by the node a box made from it goes to (node to node; signed by the control plane)",
      open: openSnapshotExport,
    },
  ];
  for (const { path, summary, open } of nodeRoutes)
    routes.get(path, { summary, access: "signed", query: nodeQuery, response: "bytes" }, async (req, res) => {
      const parsed = nodeQuery.safeParse(req.query);
      const signed = parsed.success
        ? { to: parsed.data.to, expires: Number(parsed.data.expires), signature: parsed.data.signature }
        : { to: "", expires: 0, signature: "" };
      const bytes = await open(rt, { id: String(req.params.id ?? ""), ...signed });
      res.setHeader("Content-Type", "application/zstd");
      res.setHeader("Cache-Control", "private, no-store");
      await send(res, bytes, Number.MAX_SAFE_INTEGER);
    });

  return router;
}

const nodeQuery = z.object({
  to: z.string().min(1).max(200),
  expires: z.string().regex(/^\d{1,12}$/),
  signature: z.string().regex(/^[A-Za-z0-9_-]{43}$/),
});

/** The signed fields of the URL; a URL that does not even parse is answered like a tampered one. */
function grantOf(req: Request, op: TransferOp): TransferRequest {
  const parsed = query.safeParse(req.query);
  const boxId = String(req.params.boxId ?? "");
  const variant = op === "upload" ? parsed.data?.mode : parsed.data?.archive === "true" ? "archive" : "file";
  if (!parsed.success || variant === undefined) return { op, boxId, path: "", variant: "", expires: 0, signature: "" };
  return { op, boxId, path: parsed.data.path, variant, expires: Number(parsed.data.expires), signature: parsed.data.signature };
}

/** Streams the box's bytes to the client; a stream that ends short or fails cuts the connection (the client sees it). */
async function send(res: Response, download: Awaited<ReturnType<typeof streamDownload>>, maxBytes: number): Promise<void> {
  let sent = 0;
  download.stream.on("data", (chunk: Buffer) => {
    sent += chunk.length;
    if (sent > maxBytes) download.stream.destroy(new Error("the download grew past its limit"));
  });
  try {
    await pipeline(download.stream, res);
    if (!(await download.ended).ok) res.destroy();
  } catch {
    download.stream.destroy();
    res.destroy();
  }
}

/** One `bytes=` range (a suffix range included) within `size`; several ranges or a malformed header: the whole file. */
function byteRange(header: string | undefined, size: number): { start: number; end: number } | "unsatisfiable" | null {
  const match = header ? /^bytes=(\d*)-(\d*)$/.exec(header.trim()) : null;
  if (!match) return null;
  const [, first = "", last = ""] = match;
  if (first === "" && last === "") return null;
  if (first === "") {
    const suffix = Number(last);
    return suffix === 0 || size === 0 ? "unsatisfiable" : { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(first);
  if (last !== "" && Number(last) < start) return null;
  if (start >= size) return "unsatisfiable";
  return { start, end: last === "" ? size - 1 : Math.min(Number(last), size - 1) };
}
