-- A page's title alone as a vector, with its own GIN index: answer_query looks for pages whose title names
-- a word of the question. The head vector holds the title at weight A, but a GIN index cannot test weights,
-- so asking the head for 'word':A rechecks every page whose headings or description hold the word (at
-- 10,000 pages, thousands of heads for a common word). Generated, so writers never set it.
CREATE FUNCTION docs.title_tsv(title text) RETURNS tsvector
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  RETURN to_tsvector('docs.docs_en', coalesce(title, '')) || to_tsvector('docs.docs_pt', coalesce(title, ''));

ALTER TABLE "documents" ADD COLUMN "title_tsv" tsvector GENERATED ALWAYS AS (docs.title_tsv("title")) STORED;

CREATE INDEX "documents_title_tsv_idx" ON "documents" USING GIN ("title_tsv");
