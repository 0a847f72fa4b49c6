/**
 * Turns what a publisher sends (a URI and Markdown or HTML) into what is stored and indexed: name,
 * title, description, language, content without front matter, chunks and the distinct words. The hash
 * is taken of what was sent (URI, format, content, given title and description) and of the index
 * version: equal hashes mean nothing to prepare or write, and a change of how pages are read or split
 * re-indexes every page on the next ingest.
 */
import { createHash } from "node:crypto";
import { htmlToMarkdown } from "./html-to-markdown.js";
import { firstHeading, firstParagraph, languageOf, type Language } from "./markdown/describe.js";
import { splitFrontMatter, textField } from "./markdown/front-matter.js";
import { clip, inlineToPlain } from "./markdown/inline.js";
import { splitSections, type ChunkDraft } from "./markdown/sections.js";
import { nameUri } from "./names.js";
import { limits } from "./schemas.js";
import { vocabularyOf, type VocabularyPair } from "./vocabulary/definitions.js";
import { distinctWords } from "./words.js";

const indexVersion = "docs-index-4";
const derivedDescriptionMax = 300;

export interface DocumentSource {
  uri: string;
  content: string;
  format: "markdown" | "html";
  title?: string | undefined;
  description?: string | undefined;
}

export interface PreparedDocument {
  name: string;
  uri: string;
  title: string;
  description: string;
  content: string;
  lang: Language;
  contentHash: string;
  chunks: ChunkDraft[];
  words: string[];
  /** The words that define its names (vocabulary/definitions.ts). */
  vocabulary: VocabularyPair[];
}

/** The hash of a source as sent; cheap, so an unchanged file is recognised before it is parsed. */
export function sourceHashOf(source: DocumentSource, uri = nameUri(source.uri).uri): string {
  const sent = [indexVersion, uri, source.format, source.title ?? null, source.description ?? null, source.content];
  return createHash("sha256").update(JSON.stringify(sent)).digest("hex");
}

export function prepareDocument(source: DocumentSource): PreparedDocument {
  const { uri, name } = nameUri(source.uri);
  const html = source.format === "html" ? htmlToMarkdown(source.content) : undefined;
  const { data, body } = splitFrontMatter(html ? html.markdown : source.content);
  const content = body.replace(/^\s*\n/, "").trimEnd();
  const title = clip(
    inlineToPlain(source.title ?? textField(data, "title") ?? html?.title ?? firstHeading(content) ?? titleFromUri(uri)),
    limits.titleMax,
  );
  const description = clip(
    inlineToPlain(
      source.description ??
        textField(data, "description", "summary", "excerpt") ??
        html?.description ??
        firstParagraph(content, derivedDescriptionMax) ??
        "",
    ),
    limits.descriptionMax,
  );
  const lang = languageOf(textField(data, "lang", "language", "locale"), `${title}\n${content}`);
  const contentHash = sourceHashOf(source, uri);
  const chunks = splitSections(content, { slugs: source.format === "markdown" });
  return {
    name,
    uri,
    title,
    description,
    content,
    lang,
    contentHash,
    chunks,
    words: [...distinctWords(`${title}\n${content}`)],
    vocabulary: vocabularyOf(title, description, chunks),
  };
}

/** "…/creating-buckets" → "Creating buckets"; the host when the path is empty. */
function titleFromUri(uri: string): string {
  const url = new URL(uri);
  const segment = url.pathname.split("/").filter(Boolean).at(-1) ?? "";
  const last = safeDecode(segment).replace(/\.[a-z0-9]+$/i, "");
  const words = last.replace(/[-_]+/g, " ").trim();
  return words ? words[0]!.toUpperCase() + words.slice(1) : url.host;
}

function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
