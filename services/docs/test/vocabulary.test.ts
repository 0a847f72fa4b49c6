/** The vocabulary a page teaches: the words of each definition beside the words of the name it defines. */
import { describe, expect, it } from "vitest";
import { prepareDocument } from "../src/domain/prepare-document.js";
import { isName, nameWords } from "../src/domain/vocabulary/definitions.js";
import { learnedNames, type LearnedRow } from "../src/domain/vocabulary/expansions.js";

const namesOf = (pairs: { word: string; name: string }[], word: string) =>
  pairs
    .filter((pair) => pair.word === word)
    .map((pair) => pair.name)
    .sort();

describe("learning which words stand for which", () => {
  it("when a page's title is defined by its description, then each word of it stands for each word of the title", () => {
    const page = prepareDocument({
      uri: "https://docs.example/cli/commands/tool-pack",
      format: "markdown",
      content: "---\ntitle: tool-pack\ndescription: Create a tarball from a package\n---\n\n### Synopsis\n\nSome text.\n",
    });
    expect(namesOf(page.vocabulary, "tarball")).toEqual(["pack", "tool"]);
    expect(namesOf(page.vocabulary, "create")).toEqual(["pack", "tool"]);
    // A heading that names nothing ("Synopsis" is no code) defines nothing.
    expect(page.vocabulary.some((pair) => pair.word === "some")).toBe(false);
  });

  it("when a section is headed by a call, then its first sentence (past metadata comments and the parameter list) defines the function", () => {
    const page = prepareDocument({
      uri: "https://docs.example/api/fs",
      format: "markdown",
      content: [
        "# File system",
        "",
        "The fs module talks to the file system.",
        "",
        "### `fs.rm(path[, options], callback)`",
        "",
        "<!-- YAML",
        "added: v14.14.0",
        "-->",
        "",
        "* `path` {string}",
        "* `callback` {Function}",
        "",
        "Asynchronously removes files and directories. Nothing else is said here.",
        "",
      ].join("\n"),
    });
    expect(namesOf(page.vocabulary, "removes")).toEqual(["fs", "rm"]);
    expect(namesOf(page.vocabulary, "directories")).toEqual(["fs", "rm"]);
    // Only the first sentence; the signature's parameters are not the name; metadata is not a definition.
    expect(namesOf(page.vocabulary, "else")).toEqual([]);
    expect(page.vocabulary.some((pair) => pair.name === "path" || pair.name === "callback" || pair.word === "added")).toBe(false);
  });

  it("when a heading is a name (a call, an identifier, an option, one word in code's case), then it defines; prose headings do not", () => {
    for (const name of ["fs.rm(path)", "dry-run", "--json", "json", "readFile", "Class: fs.Dir"]) expect(isName(name), name).toBe(true);
    for (const prose of ["Notes", "See Also", "Building Indexes Concurrently", "Creating buckets with Terraform"])
      expect(isName(prose), prose).toBe(false);
    expect(nameWords("fsPromises.readFile(path[, options])")).toEqual(["fspromises", "readfile"]);
  });

  it("when names are learned for a word, then names most pages hold are dropped and those the word defines most specifically come first", () => {
    // word, name, pages defining the name with the word, pages holding the name, its stems, pages holding the word
    const rows: LearnedRow[] = [
      ["tarball", "npm", 9, 95, ["npm"], 10],
      ["tarball", "cache", 1, 3, ["cach"], 10],
      ["tarball", "publish", 2, 9, ["publish"], 10],
      ["tarball", "pack", 2, 3, ["pack"], 10],
      ["tarball", "the", 1, 3, [], 10],
    ];
    expect(learnedNames(rows, 100).get("tarball")).toEqual([
      { words: "pack", stems: ["pack"] },
      { words: "cache", stems: ["cach"] },
    ]);
  });
});
