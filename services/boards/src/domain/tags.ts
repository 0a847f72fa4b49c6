/**
 * Tags (the app): owners and editors create, rename, recolour and delete them. Names are unique per
 * board, ignoring case, and a rename, recolour or delete is made against the tag version the caller
 * read (VERSION_CONFLICT otherwise). Deleting a tag takes it off every task; tag changes do not bump
 * task versions (a task's version counts changes of the task itself).
 */
import { reachBoard } from "./access.js";
import { recordEvent } from "./activity.js";
import { session, type BoardsContext } from "./context.js";
import { idempotencyConflict } from "./errors.js";
import { idempotent } from "./idempotency.js";
import type { CreateTagInput, TagVersionRef, UpdateTagInput } from "./inputs.js";
import { lockTagAt, readTag, withUniqueName } from "./tag-rows.js";
import type { TagRecord } from "./views.js";

export function createTag(ctx: BoardsContext, input: CreateTagInput): Promise<{ tag: TagRecord }> {
  const { requestId, ...args } = input;
  const id = requestId.toLowerCase();
  return session(ctx, async (tx) => {
    await reachBoard(tx, input.boardId, "write");
    return idempotent(tx, ctx, { requestId, boardId: input.boardId, operation: "create_tag", args }, async () => {
      const inserted = await withUniqueName(
        tx,
        input.boardId,
        input.name,
        () => tx.$executeRaw`
        INSERT INTO tags (account_id, id, board_id, name, color, version, created_at)
        VALUES (${ctx.accountId}, ${id}::uuid, ${input.boardId}::uuid, ${input.name}, ${input.color}, 1, now())
        ON CONFLICT (account_id, id) DO NOTHING`,
      );
      if (inserted === 0) throw idempotencyConflict(requestId, "arguments (a tag with this id exists)");
      await recordEvent(tx, ctx, {
        boardId: input.boardId,
        eventType: "tag_created",
        entityType: "tag",
        entityId: id,
        metadata: { name: input.name },
      });
      return { tag: await readTag(tx, input.boardId, id) };
    });
  });
}

export function updateTag(ctx: BoardsContext, input: UpdateTagInput): Promise<{ tag: TagRecord }> {
  return session(ctx, async (tx) => {
    await reachBoard(tx, input.boardId, "write");
    const before = await lockTagAt(tx, input.boardId, input.tagId, input.expectedVersion);
    const name = input.name ?? before.name;
    const color = input.color ?? before.color;
    // nothing changes: no new version, no event (a retried or empty PATCH is harmless)
    if (name === before.name && color === before.color) return { tag: await readTag(tx, input.boardId, before.id) };
    await withUniqueName(
      tx,
      input.boardId,
      name,
      () => tx.$executeRaw`
      UPDATE tags SET name = ${name}, color = ${color}, version = version + 1 WHERE id = ${before.id}::uuid`,
    );
    await recordEvent(tx, ctx, {
      boardId: input.boardId,
      eventType: "tag_updated",
      entityType: "tag",
      entityId: before.id,
      metadata: { from_name: before.name, to_name: name, from_color: before.color, to_color: color },
    });
    return { tag: await readTag(tx, input.boardId, before.id) };
  });
}

export function deleteTag(ctx: BoardsContext, input: TagVersionRef): Promise<void> {
  return session(ctx, async (tx) => {
    await reachBoard(tx, input.boardId, "write");
    const tag = await lockTagAt(tx, input.boardId, input.tagId, input.expectedVersion);
    await tx.$executeRaw`DELETE FROM tags WHERE id = ${tag.id}::uuid`;
    await recordEvent(tx, ctx, {
      boardId: input.boardId,
      eventType: "tag_deleted",
      entityType: "tag",
      entityId: tag.id,
      metadata: { name: tag.name },
    });
  });
}
