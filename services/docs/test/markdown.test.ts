/** How pages are read: names from URIs, sections and heading paths, titles, descriptions, language, file URIs. */
import { describe, expect, it } from "vitest";
import { nameUri } from "../src/domain/names.js";
import { prepareDocument } from "../src/domain/prepare-document.js";
import { firstParagraph, languageOf } from "../src/domain/markdown/describe.js";
import { inlineToPlain } from "../src/domain/markdown/inline.js";
import { splitSections } from "../src/domain/markdown/sections.js";
import { sentencesOf } from "../src/domain/compose-answer.js";
import { uriOfFile } from "../src/ingest/source-files.js";

describe("document names", () => {
  it("when a URI is named, then the name is documents/ + the URI without scheme, fragment or trailing slash", () => {
    expect(nameUri("https://docs.cloud.google.com/storage/docs/creating-buckets")).toEqual({
      uri: "https://docs.cloud.google.com/storage/docs/creating-buckets",
      name: "documents/docs.cloud.google.com/storage/docs/creating-buckets",
    });
    expect(nameUri("HTTP://Docs.Example.COM:8080/a/b/#part").name).toBe("documents/docs.example.com:8080/a/b");
    expect(nameUri("https://docs.example.com/").name).toBe("documents/docs.example.com");
    expect(nameUri("https://docs.example.com/search?q=1").name).toBe("documents/docs.example.com/search?q=1");
  });

  it("when a URI is not absolute http(s), then invalid_argument names uri", () => {
    for (const bad of ["docs.example.com/a", "ftp://docs.example.com/a", "mailto:a@b.c", ""]) {
      expect(() => nameUri(bad)).toThrow(expect.objectContaining({ code: "invalid_argument" }));
    }
  });

  it("when files map to URIs, then the extension goes and index/README stand for their folder", () => {
    expect(uriOfFile("https://d.example/docs/", "/f", "/f/guide/intro.md")).toBe("https://d.example/docs/guide/intro");
    expect(uriOfFile("https://d.example/docs", "/f", "/f/guide/index.html")).toBe("https://d.example/docs/guide");
    expect(uriOfFile("https://d.example/docs", "/f", "/f/README.md")).toBe("https://d.example/docs");
    expect(uriOfFile("https://d.example/docs", "/f", "/f/a b/ção.md")).toBe("https://d.example/docs/a%20b/%C3%A7%C3%A3o");
  });
});

describe("sections", () => {
  it("when a page has headings, then each section is a chunk with its heading path", () => {
    const chunks = splitSections(
      "Intro text.\n\n# Title\n\nLead.\n\n## Setup\n\nInstall.\n\n### Linux\n\napt install x\n\n## Usage\n\nRun it.\n",
    );
    expect(chunks.map((chunk) => [chunk.headingPath, chunk.text])).toEqual([
      [[], "Intro text."],
      [["Title"], "Lead."],
      [["Title", "Setup"], "Install."],
      [["Title", "Setup", "Linux"], "apt install x"],
      [["Title", "Usage"], "Run it."],
    ]);
    expect(chunks.map((chunk) => chunk.ordinal)).toEqual([0, 1, 2, 3, 4]);
  });

  it("when code holds # lines, then they are not headings; setext headings are", () => {
    const chunks = splitSections("Guide\n=====\n\n```sh\n# a comment\nls\n```\n\nPart two\n--------\n\n~~~\n## not a heading\n~~~\n");
    expect(chunks.map((chunk) => chunk.headingPath)).toEqual([["Guide"], ["Guide", "Part two"]]);
    expect(chunks[0]?.text).toBe("```sh\n# a comment\nls\n```");
  });

  it("when a section is long, then it is cut at blank lines into chunks of about 1,200 characters, none over 3,000", () => {
    const paragraph = "Lifecycle rules delete objects after a number of days. ".repeat(8);
    const chunks = splitSections(`# Long\n\n${Array.from({ length: 30 }, () => paragraph).join("\n\n")}\n\n${"x".repeat(7000)}`);
    expect(chunks.length).toBeGreaterThan(5);
    for (const chunk of chunks) {
      expect(chunk.headingPath).toEqual(["Long"]);
      expect(chunk.text.length).toBeLessThanOrEqual(3000);
    }
  });

  it("when a page is empty, then it still has one (empty) chunk, so its title can be found", () => {
    expect(splitSections("")).toEqual([{ ordinal: 0, headingPath: [], text: "" }]);
  });
});

describe("titles, descriptions, language", () => {
  it("when front matter names title and description, then they win over headings and paragraphs", () => {
    const page = prepareDocument({
      uri: "https://d.example/a",
      format: "markdown",
      content: "---\ntitle: From front matter\ndescription: Said here.\n---\n# Heading\n\nParagraph.",
    });
    expect(page).toMatchObject({ title: "From front matter", description: "Said here.", content: "# Heading\n\nParagraph." });
  });

  it("when the first paragraph is long or marked up, then the description is its plain text, cut at a word", () => {
    expect(firstParagraph("# T\n\n- list\n\n> quote\n\nUse **bold** and [links](x) and `code`.", 300)).toBe("Use bold and links and code.");
    const long = firstParagraph(`${"word ".repeat(100)}`, 300)!;
    expect(long.length).toBeLessThanOrEqual(300);
    expect(long.endsWith("word…")).toBe(true);
  });

  it("when text is marked up, then code spans are kept verbatim (<key> is not an HTML tag there)", () => {
    expect(inlineToPlain("Send `Authorization: Bearer <key>` with <b>every</b> call", true)).toBe(
      "Send `Authorization: Bearer <key>` with every call",
    );
  });

  it("when the language is declared or evident, then it is pt or en", () => {
    expect(languageOf("pt-BR", "the and of")).toBe("pt");
    expect(languageOf(undefined, "Esta página explica como criar buckets para o seu projeto.")).toBe("pt");
    expect(languageOf(undefined, "This page explains how to create buckets for your project.")).toBe("en");
  });

  it("when the content or index version changes, then the hash changes; the same input gives the same hash", () => {
    const a = prepareDocument({ uri: "https://d.example/a", format: "markdown", content: "# A\n\nx" });
    expect(prepareDocument({ uri: "https://d.example/a", format: "markdown", content: "# A\n\nx" }).contentHash).toBe(a.contentHash);
    expect(prepareDocument({ uri: "https://d.example/a", format: "markdown", content: "# A\n\ny" }).contentHash).not.toBe(a.contentHash);
  });
});

describe("sentences for answers", () => {
  it("when a passage has prose, lists, code and tables, then only prose and list items become sentences", () => {
    const text =
      "First sentence here. Second one follows!\n\n- Item one\n- Item two\n\n```sh\nrm -rf /\n```\n\n| a | b |\n| --- | --- |\n\nVersion 2.1 is out. Done.";
    expect(sentencesOf(text)).toEqual([
      "First sentence here.",
      "Second one follows!",
      "Item one",
      "Item two",
      "Version 2.1 is out.",
      "Done.",
    ]);
  });
});
