import { defineTool } from "@bancada/service-kit";
import type { DocsDb } from "../db/client.js";
import { answerQuery } from "../domain/answer-query.js";
import { answerQueryInput, answerQueryResult } from "../domain/schemas.js";
import { readOnlyCorpus } from "./annotations.js";

export const answerQueryTool = (db: DocsDb) =>
  defineTool({
    name: "answer_query",
    title: "Answer from the documentation",
    description:
      "Answers a question from the documentation corpus, with citations. Read-only. No language model is involved: the answer is extractive. " +
      "The question's words are weighted by rarity (stop words in English and Portuguese ignored, filler like 'way' or 'want' counts little, " +
      "typos corrected against the corpus, common synonyms such as 'sign in' ~ login understood); passages covering most of that weight are " +
      "ranked (title and headings above body, exact words above stems, words close together above scattered), and the best pages' most relevant " +
      "sentences are quoted as written, never one twice, one paragraph per page ending with [n], the 1-based position of its source in " +
      "references ({ name, uri — at the quoted section, uri#anchor, when the page has one — title, excerpt }). " +
      "When no passage covers enough of the question, answer says that nothing relevant was found and references is empty: nothing is invented. " +
      "Pass references[].name to get_documents to read the full pages before relying on them.",
    input: answerQueryInput,
    output: answerQueryResult,
    annotations: readOnlyCorpus,
    scope: "docs:read",
    profile: "core",
    // on a large corpus the ranking may take a while: a client may run it as a task instead of waiting on the call
    task: "optional",
    handler: (_ctx, input) => answerQuery(db, input),
  });
