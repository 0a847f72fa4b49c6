/** Without BOXES_SIGNING_KEY, one machine's key: made once, kept (0600) in the data folder, so URLs survive a restart. */
import { randomBytes } from "node:crypto";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";

export async function keptSigningKey(dataDir: string): Promise<Buffer> {
  const file = path.join(dataDir, "transfer-signing.key");
  const kept = await readFile(file).catch(() => null);
  if (kept && kept.length >= 32) return kept;
  await mkdir(dataDir, { recursive: true });
  const key = randomBytes(32);
  // wx: two services starting at once on one folder keep the first one's key
  await writeFile(file, key, { mode: 0o600, flag: "wx" }).catch(() => {});
  return readFile(file);
}
