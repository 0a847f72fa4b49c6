/**
 * How answer_query reads a question and builds its answer, on a small corpus written for each rule
 * (beside part of the fixture corpus, so that word weights mean something):
 * filler weighs little, synonyms documentation uses are found, a stem never passes for a longer word
 * (log ≠ login), a page's title counts more than a mention in a body, no sentence is said twice, each
 * page is cited once, notes do not lead, references point at the section, a page whose title names the
 * subject is a candidate even when another page's section holds every word, and what the corpus does not
 * answer gets no reference.
 */
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { connectClient } from "@bancada/testkit";
import { ingestFolder } from "../src/index.js";
import { fixtureCorpus, writeCorpus } from "./fixtures/corpus.js";
import { ok, type Answer } from "./helpers.js";
import { readerKey, startDocsStack, tempFolder, type DocsStack } from "./stack.js";

const base = "https://docs.tiny.example/cli";
const name = (page: string) => `documents/docs.tiny.example/cli/${page}`;

const pages: Record<string, string> = {
  "guides/archiving.md": `---
title: Archiving a project
description: Keep a copy of a whole project in one file
---

To archive a project into a single file, run:

\`\`\`bash
tool archive --format=tar project.tar
\`\`\`
`,
  "commands/tool-archive.md": `---
title: tool-archive
description: Write a project into one archive file
---

Write the archive of the current project into a single tar file with:

\`\`\`bash
tool archive --format=tar project.tar
\`\`\`
`,
  "commands/tool-login.md": `---
title: tool-login
description: Sign in to a registry account
---

### Synopsis

\`\`\`bash
tool login [--registry=url]
\`\`\`

> **Note:** This command is unaware of workspaces.

### Description

Verify a user in the specified registry and save the credentials to the \`.toolrc\` file.
If no registry is given, the default registry is used.
`,
  "using/logging.md": `---
title: Logging
description: Why, how, and where the tool logs
---

### Log files

The tool writes a log file for every run in the cache folder.
Each log line names the registry and the account used in that terminal session.

### Log levels

Set the log level with \`--loglevel\`: silent, error, warn, notice or verbose.
`,
  "commands/tool-ci.md": `---
title: tool-ci
description: Clean install a project from its lockfile
---

### Description

This command installs dependencies exactly as the lockfile lists them, for continuous integration servers.
It never writes to the lockfile.

### Configuration

#### omit

The omit option skips dev dependencies when installing from the lockfile, as production servers need.
`,
  "commands/tool-install-ci-test.md": `---
title: tool-install-ci-test
description: Install a project from its lockfile and run its tests
---

### Description

This command runs a clean install and then the tests of the project.

### Configuration

#### omit

The omit option skips dev dependencies when installing from the lockfile, as production servers need.
`,
  "commands/tool-deprecate.md": `---
title: tool-deprecate
description: Deprecate a version of a package
---

### Description

This command updates the registry entry for a package with a deprecation warning for everyone who installs it.
It works on version ranges as well as on single versions.
To undo it, give an empty message.
`,
  "guides/publishing.md": `---
title: Publishing
description: Share your work with others
---

### Uploads

To share a project, pack it into a tarball and upload the tarball to the registry.
`,
  "commands/tool-pack.md": `---
title: tool-pack
description: Write an archive of a package
---

### Projects as tarballs

Each archive holds the files that would be published, and nothing else.

### Projects in workspaces

Give the folder of one member to archive it alone.
`,
  "guides/best-practices.md": `---
title: Best practices for naming
description: The best way to name projects
---

The best way to name projects is after their purpose and their environment, the way most teams do.
Mark published projects with the team that owns them.
`,
  "guides/journal.md": `---
title: Journal
description: Read the journal of past runs
---

### Reading the journal

The journal command shows the entries of past runs, newest first, one line per entry.
`,
  "guides/limits.md": `---
title: Limits
description: How much one request may carry
---

A request carries at most 10 headers and 10 attachments, and waits 10 seconds for 10 workers.
`,
  "guides/rotating-keys.md": `---
title: Rotating keys
description: Replace signing keys without downtime
---

### Rotating a key

Create the new signing key before you revoke the old one, then rotate clients to the new key within a day.
`,
};

const html = `<!doctype html><html><head><title>11.8. Partial Indexes</title></head><body>
<div class="navheader"><table><tr><td><a href="indexes-multicolumn.html">Prev</a></td><td><a href="indexes.html">Up</a></td></tr></table><hr/></div>
<div class="sect1" id="INDEXES-PARTIAL"><div class="titlepage"><div><div><h2 class="title">11.8. Partial Indexes</h2></div></div></div>
<p>A partial index is an index built over a subset of a table; the subset is defined by a conditional expression.</p>
<div class="note"><h3 class="title">Note</h3><p>Partial indexes are not always cheaper than full ones.</p></div>
<div class="sect2" id="INDEXES-PARTIAL-EXAMPLE"><div class="titlepage"><h3 class="title">11.8.1. An Example</h3></div>
<p>To exclude common values from the index, write a WHERE clause in CREATE INDEX:</p>
<pre class="programlisting">CREATE INDEX orders_unbilled_index ON orders (order_nr)
    WHERE billed is not true;</pre></div></div>
<div class="navfooter"><hr/><table><tr><td>Home</td></tr></table></div></body></html>`;

describe("answer_query's rules", () => {
  let docs: DocsStack;
  let client: Client;
  const ask = (query: string) => ok<Answer>(client, "answer_query", { query });
  const cited = (answer: Answer) => answer.references.map((reference) => reference.name);

  beforeAll(async () => {
    docs = await startDocsStack();
    const folder = await tempFolder();
    try {
      await writeCorpus(path.join(folder.path, "background"), fixtureCorpus().slice(0, 60));
      for (const [file, text] of Object.entries(pages)) {
        await mkdir(path.dirname(path.join(folder.path, file)), { recursive: true });
        await writeFile(path.join(folder.path, file), text);
      }
      await mkdir(path.join(folder.path, "manual"), { recursive: true });
      await writeFile(path.join(folder.path, "manual/indexes-partial.html"), html);
      await ingestFolder({ db: docs.service().db, folder: folder.path, baseUri: base });
    } finally {
      await folder.remove();
    }
    client = await connectClient(docs.stack.mcpUrl, await readerKey(docs.stack));
  });
  afterAll(async () => {
    await client?.close();
    await docs?.stack.stop();
  });

  it("when a question says 'sign in', then the login page answers, not the page about logs that shares its other words", async () => {
    const answer = await ask("how do I sign in to my registry account from the terminal");
    expect(cited(answer)[0]).toBe(name("commands/tool-login"));
    expect(answer.answer).toContain("Verify a user in the specified registry");
  });

  it("when a question asks about the log, then a stem never passes for a longer word: the logging page, not tool-login", async () => {
    const answer = await ask("where is the log file of a run written");
    expect(cited(answer)[0]).toBe(name("using/logging"));
    expect(cited(answer)).not.toContain(name("commands/tool-login"));
  });

  it("when a question is mostly filler, then its content words decide: 'best way' does not pull in the page about the best way", async () => {
    const answer = await ask("what is the best way to rotate signing keys");
    expect(cited(answer)[0]).toBe(name("guides/rotating-keys"));
    expect(cited(answer)).not.toContain(name("guides/best-practices"));
  });

  it("when a page's title names the question's subject, then it answers though its text lacks the question's other (known) words", async () => {
    const answer = await ask("how do I mark a published version as deprecated");
    expect(cited(answer)[0]).toBe(name("commands/tool-deprecate"));
  });

  it("when a section of another page holds nearly all of the question, then the page whose title names its subject is still cited", async () => {
    // "Publishing" says every word of the question in one sentence; tool-pack's title says "pack" and its
    // headings "tarball" and "project", no section of it holding enough alone: only its head finds it.
    const answer = await ask("how do I pack a project into a tarball and upload it to the registry");
    expect(cited(answer)).toContain(name("guides/publishing"));
    expect(cited(answer)).toContain(name("commands/tool-pack"));
  });

  it("when a question holds a number, then the number is a detail: its content words find the page, the number alone finds nothing", async () => {
    const answer = await ask("how do I show the first 10 entries of the journal");
    expect(cited(answer)[0]).toBe(name("guides/journal"));
    expect(cited(answer)).not.toContain(name("guides/limits"));
    expect((await ask("what does 10 mean")).references).toEqual([]);
  });

  it("when two pages say the same sentence, then the answer says it once and cites each page at most once", async () => {
    const answer = await ask("how do I skip dev dependencies when installing from the lockfile");
    const sentence = "The omit option skips dev dependencies when installing from the lockfile, as production servers need.";
    expect(answer.answer.split(sentence).length - 1).toBe(1);
    const numbers = [...answer.answer.matchAll(/\[(\d+)\]/g)].map((match) => Number(match[1]));
    expect(new Set(numbers).size).toBe(numbers.length);
    expect(numbers).toEqual(answer.references.map((_, index) => index + 1));
    expect(new Set(cited(answer)).size).toBe(answer.references.length);
  });

  it("when two pages show the same command, then the answer quotes it once", async () => {
    const answer = await ask("how do I archive a project into a single file");
    expect(answer.references.length).toBeGreaterThan(0);
    expect(answer.answer.split("tool archive --format=tar project.tar").length - 1).toBe(1);
  });

  it("when the answer comes from a section, then its reference points at it (uri#anchor); a page's opening section is the bare uri", async () => {
    const omit = await ask("how do I skip dev dependencies when installing from the lockfile");
    expect(omit.references[0]?.uri).toMatch(/^https:\/\/docs\.tiny\.example\/cli\/commands\/tool-(ci|install-ci-test)#omit$/);
    const manual = await ask("how do I exclude common values with a WHERE clause");
    expect(manual.references[0]).toMatchObject({
      name: name("manual/indexes-partial"),
      uri: `${base}/manual/indexes-partial#INDEXES-PARTIAL-EXAMPLE`,
      title: "Partial Indexes",
    });
    const opening = await ask("what subset of a table is a partial index built over");
    expect(opening.answer).toMatch(/^A partial index is an index built over a subset of a table/);
    expect(opening.references[0]?.uri).toBe(`${base}/manual/indexes-partial`);
  });

  it("when a page opens with a note, then the answer leads with the sentence that answers and keeps the page's order", async () => {
    const answer = await ask("how do I save registry credentials for a user");
    expect(cited(answer)[0]).toBe(name("commands/tool-login"));
    expect(answer.answer).toMatch(/^Verify a user in the specified registry/);
    expect(answer.answer).not.toContain("unaware of workspaces");
    const ci = await ask("does tool-ci install dependencies exactly as the lockfile lists them and never write it");
    expect(ci.answer.indexOf("This command installs dependencies exactly")).toBeLessThan(
      ci.answer.indexOf("It never writes to the lockfile."),
    );
  });

  it("when the corpus does not answer the question, then there is no reference", async () => {
    for (const query of [
      "How do I configure a MongoDB replica set?",
      "What is the best way?",
      "How do I create an index in Elasticsearch?",
      "Como faço para trocar o pneu do carro?",
    ]) {
      const answer = await ask(query);
      expect(answer.references, query).toEqual([]);
    }
  });
});
