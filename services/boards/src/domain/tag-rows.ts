/**
 * Reading and guarding tag rows. A tag name is unique per board ignoring case, and PostgreSQL decides
 * it (the unique index on (board_id, lower(name))): a look-up before writing would let two concurrent
 * writers of "Urgent" and "urgent" both pass. The write runs under a savepoint, so that when the index
 * refuses it the transaction can still read the tag that holds the name and answer with it.
 */
import { DomainError, ErrorCode } from "@bancada/contracts";
import type { BoardsTx } from "../db/client.js";
import { sqlState, uniqueViolation } from "../db/errors.js";
import type { TagRecord } from "./views.js";

export async function readTag(tx: BoardsTx, boardId: string, tagId: string, options: { lock?: boolean } = {}): Promise<TagRecord> {
  const [tag] = options.lock
    ? await tx.$queryRaw<
        TagRecord[]
      >`SELECT id::text, name, color, version FROM tags WHERE id = ${tagId}::uuid AND board_id = ${boardId}::uuid FOR UPDATE`
    : await tx.$queryRaw<
        TagRecord[]
      >`SELECT id::text, name, color, version FROM tags WHERE id = ${tagId}::uuid AND board_id = ${boardId}::uuid`;
  if (!tag) throw new DomainError(ErrorCode.notFound, "Tag not found in this board.", { tagId });
  return tag;
}

/** The tag, locked until the transaction ends, if it is still at the version the caller read. */
export async function lockTagAt(tx: BoardsTx, boardId: string, tagId: string, expectedVersion: number): Promise<TagRecord> {
  const tag = await readTag(tx, boardId, tagId, { lock: true });
  if (tag.version !== expectedVersion) {
    throw new DomainError(
      ErrorCode.conflict,
      `VERSION_CONFLICT: the tag is at version ${tag.version}, not ${expectedVersion}; someone else changed it. Re-read the board's tags before changing it.`,
      { expectedVersion, currentVersion: tag.version, current: tag },
    );
  }
  return tag;
}

/**
 * Runs `write` (an insert or update that sets a tag's name); if the name is taken on the board, ignoring
 * case (also by a transaction that committed while this one waited), answers conflict naming the tag that has it.
 */
export async function withUniqueName<T>(tx: BoardsTx, boardId: string, name: string, write: () => Promise<T>): Promise<T> {
  await tx.$executeRaw`SAVEPOINT tag_name`;
  try {
    const result = await write();
    await tx.$executeRaw`RELEASE SAVEPOINT tag_name`;
    return result;
  } catch (error) {
    if (sqlState(error) !== uniqueViolation) throw error;
    await tx.$executeRaw`ROLLBACK TO SAVEPOINT tag_name`;
    const [existing] = await tx.$queryRaw<TagRecord[]>`
      SELECT id::text, name, color, version FROM tags WHERE board_id = ${boardId}::uuid AND lower(name) = lower(${name})`;
    throw duplicateTagName(name, existing);
  }
}

function duplicateTagName(name: string, existing: TagRecord | undefined): DomainError {
  return new DomainError(
    ErrorCode.conflict,
    `The board already has a tag named "${existing?.name ?? name}" (tag names ignore case): use that tag or choose another name.`,
    { field: "name", ...(existing ? { existing } : {}) },
  );
}
