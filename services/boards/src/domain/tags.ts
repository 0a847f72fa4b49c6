/**
 * Tags (the app): owners and editors create, rename, recolour and delete them. Names are unique per
 * board, ignoring case. Deleting a tag takes it off every task; tag changes do not bump task versions
 * (a task's version counts changes of the task itself).
 */
import { DomainError, ErrorCode } from "@bancada/contracts";
import type { BoardsTx } from "../db/client.js";
import { reachBoard } from "./access.js";
import { recordEvent } from "./activity.js";
import { session, type BoardsContext } from "./context.js";
import { idempotencyConflict, invalidField } from "./errors.js";
import { idempotent } from "./idempotency.js";
import type { CreateTagInput, TagRef, UpdateTagInput } from "./inputs.js";
import type { TagView } from "./views.js";

export function createTag(ctx: BoardsContext, input: CreateTagInput): Promise<{ tag: TagView }> {
  const { requestId, ...args } = input;
  return session(ctx, async (tx) => {
    await reachBoard(tx, input.boardId, "write");
    return idempotent(tx, ctx, { requestId, boardId: input.boardId, operation: "create_tag", args }, async () => {
      await refuseDuplicateName(tx, input.boardId, input.name);
      const inserted = await tx.$executeRaw`
        INSERT INTO tags (id, board_id, name, color, created_at) VALUES (${requestId}::uuid, ${input.boardId}::uuid, ${input.name}, ${input.color}, now())
        ON CONFLICT (id) DO NOTHING`;
      if (inserted === 0) throw idempotencyConflict(requestId, "arguments (a tag with this id exists)");
      await recordEvent(tx, ctx, { boardId: input.boardId, eventType: "tag_created", entityType: "tag", entityId: requestId.toLowerCase(), metadata: { name: input.name } });
      return { tag: await readTag(tx, input.boardId, requestId) };
    });
  });
}

export function updateTag(ctx: BoardsContext, input: UpdateTagInput): Promise<{ tag: TagView }> {
  return session(ctx, async (tx) => {
    await reachBoard(tx, input.boardId, "write");
    const before = await readTag(tx, input.boardId, input.tagId);
    if (input.name !== undefined && input.name.toLowerCase() !== before.name.toLowerCase()) await refuseDuplicateName(tx, input.boardId, input.name);
    await tx.tag.updateMany({
      where: { id: input.tagId, boardId: input.boardId },
      data: { ...(input.name === undefined ? {} : { name: input.name }), ...(input.color === undefined ? {} : { color: input.color }) },
    });
    await recordEvent(tx, ctx, { boardId: input.boardId, eventType: "tag_updated", entityType: "tag", entityId: before.id, metadata: { from_name: before.name } });
    return { tag: await readTag(tx, input.boardId, input.tagId) };
  });
}

export function deleteTag(ctx: BoardsContext, input: TagRef): Promise<void> {
  return session(ctx, async (tx) => {
    await reachBoard(tx, input.boardId, "write");
    const tag = await readTag(tx, input.boardId, input.tagId);
    await tx.$executeRaw`DELETE FROM tags WHERE id = ${tag.id}::uuid`;
    await recordEvent(tx, ctx, { boardId: input.boardId, eventType: "tag_deleted", entityType: "tag", entityId: tag.id, metadata: { name: tag.name } });
  });
}

async function readTag(tx: BoardsTx, boardId: string, tagId: string): Promise<TagView> {
  const [tag] = await tx.$queryRaw<TagView[]>`SELECT id::text, name, color FROM tags WHERE id = ${tagId}::uuid AND board_id = ${boardId}::uuid`;
  if (!tag) throw new DomainError(ErrorCode.notFound, "Tag not found in this board.", { tagId });
  return tag;
}

async function refuseDuplicateName(tx: BoardsTx, boardId: string, name: string): Promise<void> {
  const [clash] = await tx.$queryRaw<{ n: number }[]>`SELECT 1 AS n FROM tags WHERE board_id = ${boardId}::uuid AND lower(name) = lower(${name})`;
  if (clash) throw invalidField("name", "the board already has a tag with this name");
}
