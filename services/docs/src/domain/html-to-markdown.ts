/// <reference path="../types/domino.d.ts" />
/**
 * HTML pages to Markdown: the page's main content (main, article, or body) without navigation,
 * scripts and styles, converted by turndown; title and description from the head when present.
 */
import domino, { type DominoElement } from "@mixmark-io/domino";
import TurndownService from "turndown";

export interface ConvertedHtml {
  markdown: string;
  title: string | undefined;
  description: string | undefined;
}

const chrome = "script, style, noscript, template, nav, header, footer, aside, form, iframe, svg, [role=navigation], [aria-hidden=true]";

const turndown = new TurndownService({ headingStyle: "atx", codeBlockStyle: "fenced", bulletListMarker: "-", emDelimiter: "*" });

export function htmlToMarkdown(html: string): ConvertedHtml {
  const document = domino.createDocument(html);
  const meta = (selector: string) => document.querySelector(selector)?.getAttribute("content")?.trim() || undefined;
  const title = meta('meta[property="og:title"]') ?? (document.title.trim() || undefined);
  const description = meta('meta[name="description"]') ?? meta('meta[property="og:description"]');
  const root: DominoElement | null =
    document.querySelector("main") ?? document.querySelector("article") ?? document.querySelector("[role=main]") ?? document.body;
  if (!root) return { markdown: "", title, description };
  for (const node of Array.from(root.querySelectorAll(chrome))) node.remove();
  const markdown = turndown.turndown(root as unknown as TurndownService.Node).trim();
  return { markdown, title, description };
}
