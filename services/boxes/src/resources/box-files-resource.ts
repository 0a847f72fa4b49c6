/**
 * A box's files as an MCP resource template, `bancada://boxes/{box}/files/{path}` (the box by id or name, the path
 * relative to /data/home or absolute after `/`): a file of up to 1 MB is read as read_file reads it (text, or a
 * blob for anything not UTF-8); a larger one answers a signed download URL (`text/uri-list`, valid 1 h), as
 * get_download_url would. The read runs on the box's node (its `owner`), like the tools. The box completes from
 * the caller's live boxes, by id or name.
 */
import { DomainError, ErrorCode } from "@bancada/contracts";
import { defineResource } from "@bancada/service-kit";
import type { BoxesRuntime } from "../domain/context.js";
import { readBoxFile } from "../domain/files.js";
import { imageTypeOf } from "../domain/media-types.js";
import { boxRef } from "../domain/schemas/common.js";
import { issueDownloadUrl } from "../domain/transfers/issue-url.js";
import { onBox } from "../tools/context.js";

const completionsMax = 100;

export const boxFilesResource = (rt: BoxesRuntime) =>
  defineResource({
    name: "box-files",
    uriTemplate: "bancada://boxes/{box}/files/{path}",
    title: "Box files",
    description:
      "A file in one of your boxes (box by id or name; path relative to /data/home, or absolute after a leading /). Up to 1 MB it is read " +
      "as read_file reads it; a larger file answers a signed download URL (text/uri-list, valid 1 hour).",
    scope: "boxes:read",
    async read(ctx, uri, { box, path }) {
      const input = { boxId: boxIdOf(box), path: path! };
      const context = await onBox(rt, ctx, input.boxId);
      try {
        const file = await readBoxFile(context, input);
        if (file.encoding === "utf8") return [{ uri, mimeType: "text/plain", text: file.content }];
        return [{ uri, mimeType: imageTypeOf(file.path) ?? "application/octet-stream", blob: file.content }];
      } catch (error) {
        if (!(error instanceof DomainError) || error.code !== ErrorCode.payloadTooLarge) throw error;
        const link = await issueDownloadUrl(context, { ...input, archive: false });
        return [{ uri, mimeType: "text/uri-list", text: `${link.url}\r\n` }];
      }
    },
    complete: {
      async box(ctx, value) {
        const rows = await rt.db.box.findMany({
          where: {
            accountId: ctx.principal.accountId,
            liveName: { not: null },
            OR: [{ id: { startsWith: value } }, { name: { startsWith: value } }],
          },
          orderBy: { createdAt: "desc" },
          take: completionsMax + 1,
          select: { id: true, name: true },
        });
        const shown = rows.slice(0, completionsMax);
        // what the person started typing decides the form offered back: an id for `bx_…`, else the name
        const values = shown.map((row) => (value.startsWith("bx_") ? row.id : row.name));
        return { values: [...new Set(values)], hasMore: rows.length > completionsMax };
      },
    },
  });

/** A box reference from the URI, refused like a tool's boxId when it is not one (a box nobody has is not_found later). */
function boxIdOf(box: string | undefined): string {
  const parsed = boxRef.safeParse(box);
  if (!parsed.success)
    throw new DomainError(ErrorCode.notFound, `No box ${JSON.stringify(box)} in this account; list_boxes names your boxes.`);
  return parsed.data;
}
