/**
 * How rankPassages orders passages that hold the same words: the question's phrase in its order beats
 * the same words reversed, a title made of the question's words beats a longer title that shares them,
 * the exact word beats a stem, and words together beat words scattered. Pure scoring, no database.
 */
import { describe, expect, it } from "vitest";
import type { Passage } from "../src/domain/ranking/passages.js";
import type { QueryTerm } from "../src/domain/query-terms.js";
import { rankPassages } from "../src/domain/ranking/rank-passages.js";

/** A term with its index lexemes and the corpus's words sharing its stem (query-terms.ts reads both from PostgreSQL). */
const term = (words: string, stems: string[], weight = 1, filler = false, forms = [words]): QueryTerm => ({
  words,
  stems,
  forms,
  synonyms: [],
  documents: 10,
  idf: weight,
  weight,
  filler,
});

let next = 0;
const passage = (fields: Partial<Passage> & { text: string }): Passage => ({
  id: String(++next),
  name: `documents/example.com/${next}`,
  title: "Reference",
  uri: `https://example.com/${next}`,
  description: "",
  ordinal: 0,
  headingPath: [],
  anchor: "",
  coverage: 1,
  viaHead: false,
  ...fields,
});

const order = (passages: Passage[], terms: QueryTerm[]) => rankPassages(passages, terms).map((ranked) => ranked.id);

describe("rankPassages", () => {
  it("when a synonym is a phrase, then a passage saying it in any inflection of its first word ranks above one that lacks it", () => {
    const login = {
      ...term("login", ["login"], 2),
      synonyms: [{ words: "sign in", stems: ["sign-in"], forms: ["sign", "signs", "signed", "signing"] }],
    };
    const terms = [login, term("console", ["consol"])];
    const signing = passage({ text: "Signing in to the console takes an API key." });
    const signature = passage({ text: "The console signs every request it sends, in order." });
    const ranked = rankPassages([signature, signing], terms);
    expect(ranked.map((one) => one.id)).toEqual([signing.id, signature.id]);
  });

  it("when two passages hold the question's words as close together, then the one saying them in the question's order ranks first", () => {
    const terms = [term("computed", ["comput"], 2), term("columns", ["column"])];
    const reversed = passage({ text: "Columns of this kind are computed once per row by the planner." });
    const phrase = passage({ text: "Its value is computed from other columns of the same row." });
    expect(order([reversed, phrase], terms)).toEqual([phrase.id, reversed.id]);
  });

  it("when the question's words stand together in one passage and scattered in another, then the first ranks first", () => {
    const terms = [term("rebuild", ["rebuild"]), term("index", ["index"])];
    const filler = " The server keeps running while this happens and nothing else is changed in the meantime.".repeat(3);
    const scattered = passage({ text: `You can rebuild it later.${filler} Every index is kept.` });
    const together = passage({ text: `To rebuild an index, run the command.${filler}` });
    expect(order([scattered, together], terms)[0]).toBe(together.id);
  });

  it("when a title is made of the question's words, then it outranks a longer title that holds the same words among others", () => {
    const terms = [term("create", ["creat"]), term("user", ["user"]), term("password", ["password"])];
    const body = "The new role may log in and is given a password.";
    const long = passage({ title: "Users: when to create them, how to list them, why to drop them", text: body });
    const exact = passage({ title: "CREATE USER", text: body });
    expect(order([long, exact], terms)[0]).toBe(exact.id);
  });

  it("when one passage says the question's word and another only a word of its stem, then the exact word ranks first", () => {
    const terms = [term("log", ["log"], 1, false, ["log", "logs", "logged", "logging"]), term("file", ["file"])];
    const stem = passage({ text: "Logging writes a file per day." });
    const exact = passage({ text: "The log is a file per day." });
    const longer = passage({ text: "The login page reads a file per day." });
    const ranked = order([stem, longer, exact], terms);
    expect(ranked[0]).toBe(exact.id);
    expect(ranked.indexOf(stem.id)).toBeLessThan(ranked.indexOf(longer.id));
  });

  it("when the question has a single content word, then no phrase bonus applies and the place of the word decides", () => {
    const terms = [term("how", ["how"], 0.1, true), term("vacuum", ["vacuum"], 3)];
    const titled = passage({ title: "VACUUM", text: "Garbage-collect a database." });
    const mentioned = passage({ text: "Run vacuum how often you like." });
    expect(order([mentioned, titled], terms)[0]).toBe(titled.id);
  });

  it("when a title is a command's name made of the question's words, then it counts as holding them; a name with another part does not", () => {
    const database = { ...term("database", ["databas"]), synonyms: [{ words: "db", stems: ["db"], forms: ["db"] }] };
    const terms = [term("vacuum", ["vacuum"], 3), term("every", ["everi"], 0.3), database, term("shell", ["shell"], 3)];
    const body = "Runs from the shell and processes every database of the cluster, one after the other.";
    const named = passage({ title: "vacuumdb", text: body });
    const other = passage({ title: "Reference", text: body });
    expect(order([other, named], terms)[0]).toBe(named.id);

    const logTerms = [term("log", ["log"]), term("file", ["file"])];
    const [login, plain] = rankPassages(
      [passage({ title: "login", text: "A file per day." }), passage({ title: "Reference", text: "A file per day." })],
      logTerms,
    );
    expect(login!.score).toBe(plain!.score);
  });
});
