/**
 * The development API key of the embedded mode: created on the first start with every scope and
 * writes allowed, kept in BANCADA_DATA_DIR/dev-key.json (mode 600) so every later start prints the same
 * one. A revoked or lost key is replaced by a new one, and so is one made before scopes were added (it would no
 * longer hold "every scope": the web console's keys and activity pages need keys:* and audit:read); the older key
 * keeps working until revoked.
 */
import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import type { KeyStore } from "@bancada/gateway";

export async function developmentKey(keys: KeyStore, dataDir: string): Promise<{ key: string; created: boolean }> {
  const file = path.join(dataDir, "dev-key.json");
  const saved = await readFile(file, "utf8").then(
    (text) => (JSON.parse(text) as { key?: string }).key,
    () => undefined,
  );
  const principal = saved ? await keys.resolve(saved) : null;
  const scopes = keys.scopes;
  if (saved && principal && scopes.every((scope) => principal.scopes.includes(scope))) return { key: saved, created: false };
  const { key, record } = await keys.create({
    accountId: "local",
    personId: "me",
    agentId: "dev",
    scopes: [...scopes],
    allowWrites: true,
    allowedBoardIds: null,
  });
  await writeFile(file, `${JSON.stringify({ key, id: record.id }, null, 2)}\n`, { mode: 0o600 });
  return { key, created: true };
}
