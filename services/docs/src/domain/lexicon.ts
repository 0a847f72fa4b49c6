/**
 * Keeps the lexicon's document counts in step with the documents, inside the writing transaction.
 * Rows are changed in word order, and documents are locked in name order before: two batches that
 * touch the same words wait for each other instead of deadlocking.
 */
import type { DocsTx } from "../db/client.js";
import { distinctWords } from "./words.js";

export class LexiconDelta {
  readonly #counts = new Map<string, number>();

  add(words: Iterable<string>, sign: 1 | -1): void {
    for (const word of words) this.#counts.set(word, (this.#counts.get(word) ?? 0) + sign);
  }

  /** The words of a stored version of a document, read again with today's tokenizer. */
  removeStored(stored: { title: string; content: string }): void {
    this.add(distinctWords(`${stored.title}\n${stored.content}`), -1);
  }

  async apply(tx: DocsTx): Promise<void> {
    const changes = [...this.#counts].filter(([, delta]) => delta !== 0).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    if (!changes.length) return;
    const words = changes.map(([word]) => word);
    const deltas = changes.map(([, delta]) => delta);
    await tx.$executeRaw`
      INSERT INTO lexicon (word, doc_count)
      SELECT w, d FROM unnest(${words}::text[], ${deltas}::int[]) AS u(w, d) ORDER BY w COLLATE "C"
      ON CONFLICT (word) DO UPDATE SET doc_count = lexicon.doc_count + EXCLUDED.doc_count`;
    const shrunk = changes.filter(([, delta]) => delta < 0).map(([word]) => word);
    if (shrunk.length) await tx.$executeRaw`DELETE FROM lexicon WHERE word = ANY(${shrunk}::text[]) AND doc_count <= 0`;
  }
}

/** Serialises writers of the same documents (also of names not stored yet), always in name order. */
export async function lockNames(tx: DocsTx, names: string[]): Promise<void> {
  const sorted = [...new Set(names)].sort();
  await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext('docs:' || n)) FROM unnest(${sorted}::text[]) WITH ORDINALITY AS u(n, i) ORDER BY i`;
}
