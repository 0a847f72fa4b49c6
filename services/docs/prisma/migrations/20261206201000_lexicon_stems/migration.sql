-- Each word of the lexicon with its Snowball stem in English and in Portuguese, so that answer_query's
-- word ranking finds the inflections of a question's word among the corpus's words ("deprecated" for
-- "deprecate", "configurações" for "configuração") with PostgreSQL's own stemmers. ts_lexize is only
-- STABLE (a dictionary could change); naming the dictionary makes these safe to mark IMMUTABLE, as
-- docs.fold does. A stop word (no lexeme) is its own stem.
CREATE FUNCTION docs.stem_en(w text) RETURNS text
  LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
  RETURN coalesce((ts_lexize('pg_catalog.english_stem'::regdictionary, w))[1], w);

CREATE FUNCTION docs.stem_pt(w text) RETURNS text
  LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
  RETURN coalesce((ts_lexize('pg_catalog.portuguese_stem'::regdictionary, w))[1], w);

ALTER TABLE "lexicon" ADD COLUMN "en_stem" TEXT GENERATED ALWAYS AS (docs.stem_en("word")) STORED;
ALTER TABLE "lexicon" ADD COLUMN "pt_stem" TEXT GENERATED ALWAYS AS (docs.stem_pt("word")) STORED;

CREATE INDEX "lexicon_en_stem_idx" ON "lexicon"("en_stem");
CREATE INDEX "lexicon_pt_stem_idx" ON "lexicon"("pt_stem");
