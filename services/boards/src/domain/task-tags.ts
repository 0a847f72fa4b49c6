/** Setting a task's tags: every id must be a tag of the same board. */
import type { BoardsTx } from "../db/client.js";
import type { BoardsContext } from "./context.js";
import { invalidField } from "./errors.js";

export async function replaceTaskTags(
  tx: BoardsTx,
  ctx: BoardsContext,
  boardId: string,
  taskId: string,
  tagIds: readonly string[],
): Promise<void> {
  if (tagIds.length > 0) {
    const known = await tx.$queryRaw<{ id: string }[]>`
      SELECT id::text FROM tags WHERE board_id = ${boardId}::uuid AND id = ANY(${[...tagIds]}::uuid[])`;
    const found = new Set(known.map((tag) => tag.id));
    const missing = tagIds.findIndex((id) => !found.has(id.toLowerCase()));
    if (missing >= 0) throw invalidField(`tagIds[${missing}]`, "not a tag of this board (see list_board_tags)");
  }
  await tx.$executeRaw`DELETE FROM task_tags WHERE task_id = ${taskId}::uuid`;
  if (tagIds.length > 0) {
    await tx.$executeRaw`
      INSERT INTO task_tags (account_id, task_id, tag_id, board_id)
      SELECT ${ctx.accountId}, ${taskId}::uuid, tag, ${boardId}::uuid FROM unnest(${[...tagIds]}::uuid[]) AS tag`;
  }
}
