-- The vocabulary learned from the corpus at ingest (src/domain/vocabulary/): which word of a definition
-- stands for which word of a name, kept per page. Only the table: what is learned and how it is used is
-- the code's.
CREATE TABLE "vocabulary" (
    "document_name" TEXT NOT NULL,
    "word" TEXT NOT NULL,
    "name" TEXT NOT NULL,

    CONSTRAINT "vocabulary_pkey" PRIMARY KEY ("document_name","word","name")
);

CREATE INDEX "vocabulary_word_idx" ON "vocabulary"("word");

CREATE INDEX "vocabulary_name_idx" ON "vocabulary"("name");

ALTER TABLE "vocabulary" ADD CONSTRAINT "vocabulary_document_name_fkey" FOREIGN KEY ("document_name") REFERENCES "documents"("name") ON DELETE CASCADE ON UPDATE CASCADE;
