/** Deletes documents by name in one transaction: rows, chunks (cascade) and their lexicon counts. */
import type { DocsDb } from "../db/client.js";
import { LexiconDelta, lockNames } from "./lexicon.js";

export interface DeleteOutcome {
  name: string;
  status: "deleted" | "absent";
}

export async function deleteDocuments(db: DocsDb, names: string[]): Promise<DeleteOutcome[]> {
  if (!names.length) return [];
  return db.$transaction(
    async (tx) => {
      await lockNames(tx, names);
      const gone = await tx.$queryRaw<{ name: string; title: string; content: string }[]>`
        DELETE FROM documents WHERE name = ANY(${names}::text[]) RETURNING name, title, content`;
      const lexicon = new LexiconDelta();
      for (const row of gone) lexicon.removeStored(row);
      await lexicon.apply(tx);
      const deleted = new Set(gone.map((row) => row.name));
      return names.map((name) => ({ name, status: deleted.has(name) ? "deleted" : "absent" }));
    },
    { timeout: 120_000, maxWait: 30_000 },
  );
}
