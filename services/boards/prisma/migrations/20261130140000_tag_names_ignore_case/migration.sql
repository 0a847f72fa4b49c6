-- Tag names are unique per board ignoring case ("Urgent" and "urgent" are one name), now enforced by
-- PostgreSQL: a check-then-insert let two concurrent creations or renames both pass. And tags get a
-- version, so the app renames, recolours and deletes a tag against the version it read.
--
-- The unique index is on an expression, lower(name), which schema.prisma cannot declare; Prisma's schema
-- describer skips expression indexes, so `prisma migrate diff` sees no drift (the model's comment names
-- the index). It replaces the case-sensitive (board_id, name) index, which it implies.

-- AlterTable
ALTER TABLE "tags" ADD COLUMN "version" INTEGER NOT NULL DEFAULT 1;

-- Names that already clash ignoring case (the race above) keep the oldest tag's name; the others get a
-- numbered suffix within the 40-character limit, so no tag and no task's tags are lost. FORCE ROW LEVEL
-- SECURITY would hide every row from the migrating owner, so it is lifted for this one statement (the
-- service applies each migration in one transaction: no other session sees the table unforced).
ALTER TABLE "tags" NO FORCE ROW LEVEL SECURITY;
WITH "ranked" AS (
  SELECT "id", "name", row_number() OVER (PARTITION BY "board_id", lower("name") ORDER BY "created_at", "id") AS "n"
    FROM "tags"
)
UPDATE "tags" AS "t"
   SET "name" = left("r"."name", 40 - length(' (' || "r"."n" || ')')) || ' (' || "r"."n" || ')',
       "version" = "t"."version" + 1
  FROM "ranked" AS "r"
 WHERE "t"."id" = "r"."id" AND "r"."n" > 1;
ALTER TABLE "tags" FORCE ROW LEVEL SECURITY;

-- DropIndex
DROP INDEX "tags_board_name_key";

-- CreateIndex
CREATE UNIQUE INDEX "tags_board_lower_name_key" ON "tags" ("board_id", lower("name"));
