/**
 * ARCHITECTURE.md tells the truth about where things are: every repository path it names in backticks or links to
 * exists. A file moved or renamed without the walk-through following it fails here, naming the path.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const root = path.resolve(import.meta.dirname, "../..");

/** Paths named in a Markdown text: `a/b.ts` in backticks and [text](a/b.md#anchor) links, placeholders left out. */
function namedPaths(markdown: string): string[] {
  const named = new Set<string>();
  for (const [, code] of markdown.matchAll(/`([^`\s]+)`/g)) {
    // a path has a folder and a file extension or ends in a folder: `src/service.ts`, `services/boxes/`
    if (code && code.includes("/") && /^[\w@.-]+(\/[\w@.-]+)+\/?$/.test(code) && /(\.[a-z]+|\/)$/.test(code)) named.add(code);
  }
  for (const [, link] of markdown.matchAll(/\]\(([^)\s]+)\)/g)) {
    if (link && !/^[a-z]+:/.test(link) && !link.startsWith("#")) named.add(link.split("#")[0]!);
  }
  return [...named].filter((entry) => entry.length > 0);
}

describe("ARCHITECTURE.md", () => {
  const text = readFileSync(path.join(root, "ARCHITECTURE.md"), "utf8");
  const paths = namedPaths(text);

  it("names the files of the walk-through (the check has something to check)", () => {
    expect(paths).toEqual(expect.arrayContaining(["gateway/src/http/mcp-fast-path.ts", "services/scripts/src/db/find-script.ts"]));
    expect(paths.length).toBeGreaterThan(30);
  });

  it("when it names a path, then the path exists in the repository", () => {
    // a bare `src/...` path is inside the service or package the sentence is about: it exists in one of them
    const missing = paths.filter((named) => {
      if (existsSync(path.join(root, named))) return false;
      if (!named.startsWith("src/") && !named.startsWith("prisma/")) return true;
      return !["services", "packages"].some((floor) =>
        readdirNames(path.join(root, floor)).some((dir) => existsSync(path.join(root, floor, dir, named))),
      );
    });
    expect(missing, "paths ARCHITECTURE.md names that do not exist").toEqual([]);
  });
});

function readdirNames(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}
