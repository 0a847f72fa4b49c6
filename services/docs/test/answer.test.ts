/**
 * answer_query without a language model: quoted sentences with [n] citations that point into
 * references, every quote found in its cited document, and no answer at all for unrelated questions.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startCorpusStack, type CorpusStack } from "./corpus-stack.js";
import { ok, type Answer, type Document } from "./helpers.js";

const norm = (text: string) =>
  text
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, " ")
    .trim();

describe("answer_query", () => {
  let s: CorpusStack;
  beforeAll(async () => {
    // Five products and the guides: enough pages for word weights to mean something, fewer to ingest.
    s = await startCorpusStack({ only: /^(guides|storage|pubsub|kubernetes|compute|sql|pt\/storage|pt\/pubsub)\// });
  });
  afterAll(async () => {
    await s?.stop();
  });

  const ask = (query: string) => ok<Answer>(s.client, "answer_query", { query });

  /** Every paragraph ends with [n]; n is a reference; the quoted text is in that reference's document. */
  async function expectGrounded(answer: Answer): Promise<void> {
    expect(answer.references.length).toBeGreaterThan(0);
    const { documents } = await ok<{ documents: Document[] }>(s.client, "get_documents", {
      names: answer.references.map((reference) => reference.name),
    });
    for (const paragraph of answer.answer.split("\n\n")) {
      const match = /^(.*) \[(\d+)\]$/s.exec(paragraph);
      expect(match, paragraph).not.toBeNull();
      const document = documents[Number(match![2]) - 1];
      expect(document, paragraph).toBeDefined();
      for (const sentence of match![1]!.split(/(?<=[.!?])\s+/)) {
        expect(norm(`${document!.title} ${document!.content}`)).toContain(norm(sentence.replace(/…$/, "")));
      }
    }
    answer.references.forEach((reference, index) => {
      expect(reference).toMatchObject({ name: documents[index]!.name, title: documents[index]!.title });
      // The page's URI, or the quoted section of it.
      expect(reference.uri === documents[index]!.uri || reference.uri.startsWith(`${documents[index]!.uri}#`), reference.uri).toBe(true);
      expect(reference.excerpt.length).toBeGreaterThan(0);
    });
  }

  it("when the question is covered by a page, then the answer quotes it with [1] and cites it first", async () => {
    const answer = await ask("How do I enable object versioning for a bucket?");
    expect(answer.references[0]?.name).toBe(s.nameOf("storage/object-versioning.md"));
    expect(answer.answer).toMatch(/versioning/i);
    expect(answer.answer).toContain("[1]");
    await expectGrounded(answer);
  });

  it("when the answer is a fact stated in a section, then that sentence is quoted", async () => {
    const answer = await ask("What happens to unacknowledged messages in Pub/Sub?");
    expect(answer.answer).toContain("Unacknowledged messages are redelivered after the acknowledgement deadline.");
    expect(answer.references.some((reference) => reference.name.includes("/pubsub/"))).toBe(true);
    await expectGrounded(answer);
  });

  it("when the question has a typo, then the answer is still found", async () => {
    const answer = await ask("When does the cluster autoscalr add nodes?");
    expect(answer.answer).toContain("The cluster autoscaler adds nodes when pods cannot be scheduled.");
    await expectGrounded(answer);
  });

  it("when the question is in Portuguese, then the Portuguese page is quoted", async () => {
    const answer = await ask("Como criar buckets no Cloud Storage?");
    expect(answer.references[0]?.name).toBe(s.nameOf("pt/storage/criar.md"));
    await expectGrounded(answer);
  });

  it("when the question is unrelated to the corpus, then it says nothing relevant was found and has no references", async () => {
    for (const query of [
      "What is the best recipe for chocolate cake?",
      "Who painted the Mona Lisa?",
      "How do I bake a cake?",
      "what is it?",
    ]) {
      const answer = await ask(query);
      expect(answer.references, query).toEqual([]);
      expect(answer.answer).toMatch(/^Nothing in the documentation is relevant enough/);
    }
    const pt = await ask("Quem ganhou a copa do mundo de futebol de 1970?");
    expect(pt).toEqual({ answer: expect.stringMatching(/^Nada na documentação/), references: [] });
  });

  it("when only part of the question is covered (a rare word the corpus lacks), then no answer is invented", async () => {
    const answer = await ask("How do I configure quantum teleportation for buckets?");
    expect(answer.references).toEqual([]);
  });
});
