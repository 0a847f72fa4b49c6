/// <reference path="../types/domino.d.ts" />
/**
 * HTML pages to Markdown: the page's main content (main, article, or body) without its chrome —
 * navigation, headers and footers, tables of contents, "previous / next" bars (DocBook's navheader and
 * navfooter, Sphinx's and MkDocs' sidebars and header links), scripts and styles — converted by turndown;
 * title and description from the head when present.
 * - A heading keeps its anchor as `{#id}` (its own id, an anchor inside it, or the id of the section it
 *   opens), so answers can point at the section.
 * - Section numbers ("11.8. Partial Indexes", "Chapter 11. Indexes") are left out of headings and the
 *   title: nobody searches for them, and they keep a page's exact title from matching.
 * - `<pre>` blocks become fenced code whether or not they hold a `<code>` element; code keeps `<`, `>` and `&`
 *   as written, and text escapes `<` (`\<name>`), so a placeholder is never read as a tag.
 */
import domino, { type DominoElement } from "@mixmark-io/domino";
import TurndownService from "turndown";

export interface ConvertedHtml {
  markdown: string;
  title: string | undefined;
  description: string | undefined;
}

const chrome = [
  "script, style, noscript, template, nav, header, footer, aside, form, iframe, svg, button",
  "[role=navigation], [role=banner], [role=contentinfo], [role=search], [aria-hidden=true], [hidden]",
  ".navheader, .navfooter, .toc, .breadcrumb, .breadcrumbs, .sidebar, .sphinxsidebar, .related, .headerlink, .md-sidebar, .skip-link",
].join(", ");

const turndown = new TurndownService({ headingStyle: "atx", codeBlockStyle: "fenced", bulletListMarker: "-", emDelimiter: "*" });

// Text that says `&lt;name&gt;` means the placeholder `<name>`: escaped, Markdown shows it as written
// instead of taking it for an HTML tag (code keeps it as is: turndown does not escape code).
const escapeMarkdown = turndown.escape.bind(turndown);
turndown.escape = (text: string) => escapeMarkdown(text).replace(/</g, "\\<");

turndown.addRule("headingWithAnchor", {
  filter: ["h1", "h2", "h3", "h4", "h5", "h6"],
  replacement: (content, node) => {
    const element = node as unknown as DominoElement;
    const level = Number(element.nodeName.slice(1));
    const text = withoutSectionNumber(content.replace(/\s+/g, " ").trim());
    if (!text) return "\n\n";
    const anchor = anchorOf(element);
    return `\n\n${"#".repeat(level)} ${text}${anchor ? ` {#${anchor}}` : ""}\n\n`;
  },
});

const admonitions = ["note", "tip", "warning", "caution", "important", "admonition"];

/** DocBook and Sphinx admonitions (a div with a "Note" title): a quoted paragraph, not a heading that would swallow the rest of the page. */
turndown.addRule("admonition", {
  filter: (node) => node.nodeName === "DIV" && admonitions.some((kind) => (node.getAttribute("class") ?? "").split(/\s+/).includes(kind)),
  replacement: (content, node) => {
    const element = node as unknown as DominoElement;
    const label = /(?:^|\s)(note|tip|warning|caution|important)(?:\s|$)/i.exec(element.getAttribute("class") ?? "")?.[1] ?? "Note";
    const body = content
      .replace(new RegExp(`^\\s*#{1,6}\\s+${label}\\b[^\\n]*\\n`, "i"), "")
      .replace(/^\s*(?:\*\*)?(?:note|tip|warning|caution|important)(?:\*\*)?:?\s*\n/i, "")
      .trim();
    if (!body) return "\n\n";
    const quoted = body
      .split("\n")
      .map((line) => (line ? `> ${line}` : ">"))
      .join("\n");
    return `\n\n> **${label[0]!.toUpperCase()}${label.slice(1).toLowerCase()}:**\n${quoted}\n\n`;
  },
});

turndown.addRule("preformatted", {
  filter: (node) => node.nodeName === "PRE",
  replacement: (_content, node) => {
    const element = node as unknown as DominoElement;
    const code = element.querySelector("code");
    const language = /(?:^|\s)(?:language|lang)-([\w+#.-]+)/.exec(
      `${code?.getAttribute("class") ?? ""} ${element.getAttribute("class") ?? ""}`,
    )?.[1];
    const text = (element.textContent ?? "").replace(/\n+$/, "");
    const fence = text.includes("```") ? "~~~~" : "```";
    return `\n\n${fence}${language ?? ""}\n${text}\n${fence}\n\n`;
  },
});

export function htmlToMarkdown(html: string): ConvertedHtml {
  const document = domino.createDocument(html);
  const meta = (selector: string) => document.querySelector(selector)?.getAttribute("content")?.trim() || undefined;
  const heading = meta('meta[property="og:title"]') ?? (document.title.replace(/\s+/g, " ").trim() || undefined);
  const title = heading ? withoutSectionNumber(heading) : undefined;
  const description = meta('meta[name="description"]') ?? meta('meta[property="og:description"]');
  const root: DominoElement | null =
    document.querySelector("main") ?? document.querySelector("article") ?? document.querySelector("[role=main]") ?? document.body;
  if (!root) return { markdown: "", title, description };
  for (const node of Array.from(root.querySelectorAll(chrome))) node.remove();
  const markdown = turndown
    .turndown(root as unknown as TurndownService.Node)
    .replace(/\n{3,}/g, "\n\n")
    .trim();
  return { markdown, title, description };
}

const sectionNumber = /^(?:(?:chapter|appendix|part)\s+[\dIVXLC]+|[A-Z]|[IVXLC]+|\d+)(?:\.\d+)*\.\s+(?=\S)/i;

/** "11.8. Partial Indexes" → "Partial Indexes"; "F.32. pgcrypto" → "pgcrypto"; "Chapter 11. Indexes" → "Indexes". */
function withoutSectionNumber(text: string): string {
  const match = sectionNumber.exec(text);
  // A lone letter or Roman numeral must be followed by a number part or be a chapter label: "I. Tutorial", "A. Release Notes".
  return match ? text.slice(match[0].length) : text;
}

/** The heading's own id, an anchor inside it, or the id of the nearest element whose first heading it is. */
function anchorOf(heading: DominoElement): string | undefined {
  const own =
    heading.getAttribute("id") ??
    heading.querySelector("a[id], a[name]")?.getAttribute("id") ??
    heading.querySelector("a[name]")?.getAttribute("name");
  if (own) return cleanAnchor(own);
  for (let parent = heading.parentElement; parent && parent.nodeName !== "BODY"; parent = parent.parentElement) {
    if (parent.querySelector("h1, h2, h3, h4, h5, h6") !== heading) return undefined;
    const id = parent.getAttribute("id");
    if (id) return cleanAnchor(id);
  }
  return undefined;
}

function cleanAnchor(id: string): string | undefined {
  const trimmed = id.trim();
  return /^[^\s{}#]{1,200}$/.test(trimmed) ? trimmed : undefined;
}
