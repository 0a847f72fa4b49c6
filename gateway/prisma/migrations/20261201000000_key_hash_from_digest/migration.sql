-- Services now send the gateway SHA-256(key), never the key: a key is stored as HMAC-SHA256(pepper, SHA-256(key))
-- ('hmac-digest'). Rows written before keep SHA-256(pepper || key) ('pepper-key') until the gateway sees that key
-- in clear (an MCP call), when it rewrites the row. The default marks what a gateway of the previous version
-- still writes during a rolling upgrade; this version always names its scheme.
ALTER TABLE "api_keys" ADD COLUMN "hash_scheme" TEXT NOT NULL DEFAULT 'pepper-key';
