-- Extensions live in the shared schema `public` so every service can use them.
CREATE EXTENSION IF NOT EXISTS pg_trgm WITH SCHEMA public;
CREATE EXTENSION IF NOT EXISTS unaccent WITH SCHEMA public;
CREATE EXTENSION IF NOT EXISTS fuzzystrmatch WITH SCHEMA public;

-- Text search: every chunk is indexed twice, with an English and a Portuguese configuration, and a query
-- is the OR of its English and its Portuguese reading (docs.web_query). Both readings hold every word, so
-- `-term` and "phrases" keep their meaning whichever reading matches.
-- - docs_en strips accents, then stems in English: "buckets" finds "bucket", and a word typed without its
--   accents ("configuracao") still meets the accented one ("configuração").
-- - docs_pt stems in Portuguese on the accented words (the Snowball stemmer needs the accents to find
--   the suffix: "configurações", "configuração" and "configurar" all become 'configur').
-- `simple` + unaccent alone would lose stemming in both languages.
CREATE TEXT SEARCH CONFIGURATION docs_en (COPY = pg_catalog.english);
ALTER TEXT SEARCH CONFIGURATION docs_en ALTER MAPPING FOR hword, hword_part, word WITH public.unaccent, english_stem;
CREATE TEXT SEARCH CONFIGURATION docs_pt (COPY = pg_catalog.portuguese);

-- Lower case without accents, for exact-title and trigram comparisons. unaccent() itself is only STABLE
-- (its dictionary could change); naming the dictionary makes this safe to mark IMMUTABLE.
CREATE FUNCTION docs.fold(t text) RETURNS text
  LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
  RETURN lower(public.unaccent('public.unaccent'::regdictionary, t));

-- The weighted vector of one chunk: title (A) > heading path (B) > description (C, first chunk) > body (D).
CREATE FUNCTION docs.chunk_tsv(title text, headings text, lead text, body text) RETURNS tsvector
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  RETURN setweight(to_tsvector('docs.docs_en', coalesce(title, '')), 'A')
      || setweight(to_tsvector('docs.docs_en', coalesce(headings, '')), 'B')
      || setweight(to_tsvector('docs.docs_en', coalesce(lead, '')), 'C')
      || setweight(to_tsvector('docs.docs_en', coalesce(body, '')), 'D')
      || setweight(to_tsvector('docs.docs_pt', coalesce(title, '')), 'A')
      || setweight(to_tsvector('docs.docs_pt', coalesce(headings, '')), 'B')
      || setweight(to_tsvector('docs.docs_pt', coalesce(lead, '')), 'C')
      || setweight(to_tsvector('docs.docs_pt', coalesce(body, '')), 'D');

-- The head of a page: the same weights, without body.
CREATE FUNCTION docs.head_tsv(title text, headings text, description text) RETURNS tsvector
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  RETURN docs.chunk_tsv(title, headings, description, '');

-- websearch_to_tsquery semantics ("phrase", -term, OR) in both readings.
CREATE FUNCTION docs.web_query(q text) RETURNS tsquery
  LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
  RETURN websearch_to_tsquery('docs.docs_en', q) || websearch_to_tsquery('docs.docs_pt', q);


-- CreateTable
CREATE TABLE "documents" (
    "name" TEXT NOT NULL,
    "uri" TEXT NOT NULL,
    "title" TEXT NOT NULL,
    "description" TEXT NOT NULL,
    "content" TEXT NOT NULL,
    "lang" TEXT NOT NULL,
    "content_hash" TEXT NOT NULL,
    "chunk_count" INTEGER NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,
    "head" tsvector NOT NULL,

    CONSTRAINT "documents_pkey" PRIMARY KEY ("name")
);

-- CreateTable
CREATE TABLE "chunks" (
    "id" BIGSERIAL NOT NULL,
    "document_name" TEXT NOT NULL,
    "ordinal" INTEGER NOT NULL,
    "heading_path" TEXT[],
    "text" TEXT NOT NULL,
    "tsv" tsvector NOT NULL,

    CONSTRAINT "chunks_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "lexicon" (
    "word" TEXT NOT NULL,
    "doc_count" INTEGER NOT NULL,

    CONSTRAINT "lexicon_pkey" PRIMARY KEY ("word")
);

-- CreateIndex
CREATE INDEX "documents_title_trgm_idx" ON "documents" USING GIN ("title" public.gin_trgm_ops);

-- CreateIndex
CREATE INDEX "documents_head_idx" ON "documents" USING GIN ("head");

-- CreateIndex
CREATE INDEX "chunks_tsv_idx" ON "chunks" USING GIN ("tsv");

-- CreateIndex
CREATE UNIQUE INDEX "chunks_document_ordinal_key" ON "chunks"("document_name", "ordinal");

-- CreateIndex
CREATE INDEX "lexicon_word_trgm_idx" ON "lexicon" USING GIN ("word" public.gin_trgm_ops);

-- AddForeignKey
ALTER TABLE "chunks" ADD CONSTRAINT "chunks_document_name_fkey" FOREIGN KEY ("document_name") REFERENCES "documents"("name") ON DELETE CASCADE ON UPDATE CASCADE;

