/**
 * Splits a Markdown document into chunks at its headings. Each chunk keeps its heading path
 * (["Creating buckets", "Prerequisites"]) so a hit can say where in the page it is, and the path is
 * indexed with its own weight. Long sections are cut at blank lines (outside code), so a chunk stays
 * a passage a reader can take in at once and its search vector stays small.
 * Each chunk also gets the anchor of its section, for links that open the page there: the heading's
 * explicit `{#anchor}`, else (Markdown written by people) the slug a site generator derives from the
 * heading text as GitHub does, else the anchor of the nearest enclosing heading that has one.
 */
import { readLines } from "./lines.js";

export interface ChunkDraft {
  ordinal: number;
  headingPath: string[];
  /** The section's anchor in the page (without `#`); empty when none is known. */
  anchor: string;
  text: string;
}

export interface SplitOptions {
  /** Derive anchors from heading text when the heading names none (true for Markdown sources). */
  slugs?: boolean;
}

const target = 1_200;
const hardMax = 3_000;

export function splitSections(markdown: string, options: SplitOptions = {}): ChunkDraft[] {
  const sections: { headingPath: string[]; anchor: string; body: string[] }[] = [];
  let path: { level: number; text: string; anchor: string }[] = [];
  let current = { headingPath: [] as string[], anchor: "", body: [] as string[] };
  const slugs = new Map<string, number>();
  for (const line of readLines(markdown)) {
    if (line.kind === "heading") {
      sections.push(current);
      const own = line.anchor ?? (options.slugs && line.text ? uniqueSlug(line.text, slugs) : "");
      const anchor = own || ([...path].reverse().find((heading) => heading.level < line.level && heading.anchor)?.anchor ?? "");
      path = [...path.filter((heading) => heading.level < line.level), { level: line.level, text: line.text, anchor }];
      current = { headingPath: path.map((heading) => heading.text).filter(Boolean), anchor, body: [] };
      continue;
    }
    current.body.push(line.kind === "code" ? `\u0001${line.raw}` : line.raw);
  }
  sections.push(current);

  const chunks: ChunkDraft[] = [];
  for (const section of sections) {
    for (const text of packBlocks(blocksOf(section.body))) {
      chunks.push({ ordinal: chunks.length, headingPath: section.headingPath, anchor: section.anchor, text });
    }
  }
  // A page with no text is still findable by its title.
  return chunks.length ? chunks : [{ ordinal: 0, headingPath: [], anchor: "", text: "" }];
}

/** GitHub's heading slug: lower case, punctuation dropped, spaces to hyphens; repeats get -1, -2, … */
function headingSlug(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\p{M}\s_-]/gu, "")
    .trim()
    .replace(/\s/g, "-");
}

function uniqueSlug(text: string, seen: Map<string, number>): string {
  const slug = headingSlug(text);
  if (!slug) return "";
  const count = seen.get(slug) ?? 0;
  seen.set(slug, count + 1);
  return count ? `${slug}-${count}` : slug;
}

/** Paragraph-like blocks: split at blank lines, never inside fenced code (code lines carry a \u0001 mark). */
function blocksOf(lines: string[]): string[] {
  const blocks: string[] = [];
  let block: string[] = [];
  const flush = () => {
    const text = block.join("\n").trim();
    if (text) blocks.push(text);
    block = [];
  };
  for (const line of lines) {
    const code = line.startsWith("\u0001");
    if (!code && !line.trim()) flush();
    else block.push(code ? line.slice(1) : line);
  }
  flush();
  return blocks.flatMap((text) => (text.length > hardMax ? cutLong(text) : [text]));
}

function packBlocks(blocks: string[]): string[] {
  const chunks: string[] = [];
  let current = "";
  for (const block of blocks) {
    if (current && current.length + block.length + 2 > target) {
      chunks.push(current);
      current = block;
    } else current = current ? `${current}\n\n${block}` : block;
  }
  if (current) chunks.push(current);
  return chunks;
}

/** A block over the hard limit (a long code listing, a huge paragraph): cut at line ends, or anywhere. */
function cutLong(text: string): string[] {
  const parts: string[] = [];
  let current = "";
  for (const line of text.split("\n")) {
    for (let start = 0; start < Math.max(line.length, 1); start += hardMax) {
      const piece = line.slice(start, start + hardMax);
      if (current && current.length + piece.length + 1 > target) {
        parts.push(current);
        current = piece;
      } else current = current ? `${current}\n${piece}` : piece;
    }
  }
  if (current.trim()) parts.push(current);
  return parts;
}
