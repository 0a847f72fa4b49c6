/** How pages are read: names from URIs, sections and heading paths, titles, descriptions, language, file URIs. */
import { describe, expect, it } from "vitest";
import { nameUri } from "../src/domain/names.js";
import { prepareDocument } from "../src/domain/prepare-document.js";
import { firstParagraph, languageOf } from "../src/domain/markdown/describe.js";
import { inlineToPlain } from "../src/domain/markdown/inline.js";
import { splitSections } from "../src/domain/markdown/sections.js";
import { proseOf, sentencesOf } from "../src/domain/compose-answer.js";
import { excerptOf } from "../src/domain/highlight.js";
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
    expect(splitSections("")).toEqual([{ ordinal: 0, headingPath: [], anchor: "", text: "" }]);
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

  it("when a sentence ending with ':' introduces a code block, then the block goes with it, as written; a block no sentence introduces stays out", () => {
    const text =
      "Keys are secret. To revoke one:\n\n```sh\npnpm bancada keys revoke <key id or prefix>\n```\n\nIt stops working.\n\nAlso:\n\n## Next\n\n```sh\nls\n```\n\n```sh\nrm x\n```";
    expect(proseOf(text)).toEqual([
      { text: "Keys are secret.", note: false },
      { text: "To revoke one:", note: false, code: "```sh\npnpm bancada keys revoke <key id or prefix>\n```" },
      { text: "It stops working.", note: false },
      { text: "Also:", note: false },
    ]);
  });
});

describe("search excerpts", () => {
  it("when ts_headline marked words of the escaped text, then whole identifiers are bold, parts of one are not, and the text reads as written", () => {
    const [on, off] = ["\u0002", "\u0003"];
    expect(excerptOf(`BANCADA_${on}RATE${off}_BURST, the ${on}rate${off}. ${on}rate${off}-limited`)).toBe(
      "BANCADA_RATE_BURST, the **rate**. rate-limited",
    );
    expect(excerptOf(`${on}BANCADA${off}_${on}RATE${off}_${on}BURST${off} and ${on}rate${off}-${on}limited${off}`)).toBe(
      "**BANCADA_RATE_BURST** and **rate-limited**",
    );
    expect(excerptOf(`keys ${on}revoke${off} &lt;key id&gt; &amp;&amp; echo &amp;lt; **${on}bold${off}**`)).toBe(
      "keys **revoke** <key id> && echo &lt; **bold**",
    );
  });
});

describe("HTML manuals and section anchors", () => {
  const manual = `<html><head><title>11.8. Partial Indexes</title></head><body>
    <div class="navheader"><table><tr><td><a href="a.html">Prev</a></td><td>Up</td><td>Next</td></tr></table><hr/></div>
    <div class="toc"><dl><dt>11.8.1. An Example</dt></dl></div>
    <div class="sect1" id="INDEXES-PARTIAL"><div class="titlepage"><div><div><h2 class="title">11.8. Partial Indexes</h2></div></div></div>
    <p>A partial index covers a subset of a table.</p>
    <div class="note"><h3 class="title">Note</h3><p>Partial indexes are not always cheaper.</p></div>
    <div class="sect2" id="INDEXES-PARTIAL-EXAMPLE"><h3 class="title">11.8.1. An Example</h3>
    <pre class="programlisting">CREATE INDEX i ON orders (nr)
    WHERE billed is not true;</pre><h4>Details</h4><p>More.</p></div></div>
    <div class="navfooter"><hr/>Home</div></body></html>`;

  it("when a DocBook page is converted, then chrome is gone, numbers leave headings, notes are quotes, pre is fenced and headings keep anchors", () => {
    const page = prepareDocument({ uri: "https://m.example/docs/indexes-partial.html", format: "html", content: manual });
    expect(page.title).toBe("Partial Indexes");
    expect(page.content).not.toMatch(/Prev|Next|Home|An Example\n\n.*An Example/s);
    expect(page.content).toContain("## Partial Indexes {#INDEXES-PARTIAL}");
    expect(page.content).toContain("### An Example {#INDEXES-PARTIAL-EXAMPLE}");
    expect(page.content).toContain("> **Note:**\n> Partial indexes are not always cheaper.");
    expect(page.content).toContain("```\nCREATE INDEX i ON orders (nr)\n    WHERE billed is not true;\n```");
    expect(page.chunks.map((chunk) => [chunk.headingPath.join(" › "), chunk.anchor])).toEqual([
      ["Partial Indexes", "INDEXES-PARTIAL"],
      ["Partial Indexes › An Example", "INDEXES-PARTIAL-EXAMPLE"],
      // A heading without an anchor of its own is reached through the section around it.
      ["Partial Indexes › An Example › Details", "INDEXES-PARTIAL-EXAMPLE"],
    ]);
  });

  it("when an HTML page holds placeholders in code, in pre and in text, then each survives as written and answers quote it", () => {
    const page = prepareDocument({
      uri: "https://d.example/keys",
      format: "html",
      content: `<html><body><main><h1>Keys</h1>
        <p>Revoke one with <code>pnpm bancada keys revoke &lt;key id or prefix&gt;</code>, where &lt;prefix&gt; is BANCADA_RATE_BURST &amp; more:</p>
        <pre><code class="language-sh">pnpm bancada keys revoke &lt;key id or prefix&gt; &amp;&amp; echo done</code></pre>
      </main></body></html>`,
    });
    expect(page.content).toContain("`pnpm bancada keys revoke <key id or prefix>`");
    expect(page.content).toContain("```sh\npnpm bancada keys revoke <key id or prefix> && echo done\n```");
    expect(proseOf(page.content)).toEqual([
      {
        text: "Revoke one with `pnpm bancada keys revoke <key id or prefix>`, where <prefix> is BANCADA_RATE_BURST & more:",
        note: false,
        code: "```sh\npnpm bancada keys revoke <key id or prefix> && echo done\n```",
      },
    ]);
  });

  it("when Markdown headings name no anchor, then each gets the slug a site generator gives it (repeats numbered); {#id} wins", () => {
    const chunks = splitSections(
      "# Guide\n\nIntro.\n\n## Set up: the CLI!\n\nA.\n\n## Options\n\nB.\n\n## Options\n\nC.\n\n## Mine {#own}\n\nD.",
      { slugs: true },
    );
    expect(chunks.map((chunk) => [chunk.headingPath.at(-1), chunk.anchor])).toEqual([
      ["Guide", "guide"],
      ["Set up: the CLI!", "set-up-the-cli"],
      ["Options", "options"],
      ["Options", "options-1"],
      ["Mine", "own"],
    ]);
    expect(splitSections("## Plain\n\nX.")[0]?.anchor).toBe("");
  });

  it("when a passage has notes, then their sentences are marked as notes and the label is dropped", () => {
    expect(
      proseOf("> **Note:** This command is unaware of workspaces.\n\nThis command updates the registry. Warning: it is slow."),
    ).toEqual([
      { text: "This command is unaware of workspaces.", note: true },
      { text: "This command updates the registry.", note: false },
      { text: "Warning: it is slow.", note: false },
    ]);
  });
});
