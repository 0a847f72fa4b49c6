-- Which text goes under which weight letter is ranking, not schema: the writer builds the vectors from
-- the fields description of src/domain/ranking/fields.ts (same vectors as these functions gave, so
-- nothing is re-indexed), and the functions that held that rule are dropped.
DROP FUNCTION docs.head_tsv(text, text, text);
DROP FUNCTION docs.chunk_tsv(text, text, text, text);
