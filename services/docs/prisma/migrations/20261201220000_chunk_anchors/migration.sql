-- The anchor of each chunk's section, so answers can cite `uri#anchor`. Filled when a page is (re)indexed;
-- the index version changed with it, so the next ingest of a folder re-indexes every page.
ALTER TABLE "chunks" ADD COLUMN "anchor" TEXT NOT NULL DEFAULT '';
