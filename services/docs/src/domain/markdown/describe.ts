/**
 * What a page says about itself when no one says it for it: the title is the first level-1 heading
 * (else the first heading), the description the first paragraph, the language a count of the most
 * common short words of English and Portuguese.
 */
import { clip, inlineToPlain } from "./inline.js";
import { readLines, startsBlock } from "./lines.js";

export function firstHeading(markdown: string): string | undefined {
  const headings = readLines(markdown).filter((line) => line.kind === "heading" && line.text);
  const top = headings.find((line) => line.kind === "heading" && line.level === 1) ?? headings[0];
  return top?.kind === "heading" ? top.text : undefined;
}

export function firstParagraph(markdown: string, max: number): string | undefined {
  let paragraph: string[] = [];
  for (const line of readLines(markdown)) {
    if (line.kind === "text" && (paragraph.length > 0 || !startsBlock(line.raw))) {
      paragraph.push(line.raw);
      continue;
    }
    const text = inlineToPlain(paragraph.join(" "));
    if (text) return clip(text, max);
    paragraph = [];
  }
  const text = inlineToPlain(paragraph.join(" "));
  return text ? clip(text, max) : undefined;
}

// Frequent short words of each language; words both languages use ("a", "do", "no", "as") are left out.
const portuguese = new Set(
  (
    "de da das dos que para com não nao uma um os em na é por mais como você voce ser está esta são sao ao seu sua pelo pela isso " +
    "este também tambem qual quais quando onde porque eu meu minha nós nos esse essa"
  ).split(" "),
);
const english = new Set(
  (
    "the and of to is for with that you this are be on it by can an in from or your if use not how what when where why which who " +
    "does did i my we our they there have has was were will would should could about into than then them these those"
  ).split(" "),
);

export type Language = "en" | "pt";

export function languageOf(declared: string | undefined, text: string): Language {
  const tag = declared?.toLowerCase();
  if (tag?.startsWith("pt")) return "pt";
  if (tag?.startsWith("en")) return "en";
  let pt = 0;
  let en = 0;
  for (const match of text
    .slice(0, 6_000)
    .toLowerCase()
    .matchAll(/[\p{L}]+/gu)) {
    if (portuguese.has(match[0])) pt++;
    else if (english.has(match[0])) en++;
  }
  return pt > en ? "pt" : "en";
}
