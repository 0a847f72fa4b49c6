/** Markdown inline syntax to plain text: for titles, heading paths, descriptions and quoted sentences. */

/**
 * Outside code spans: images and links to their text, HTML tags dropped, emphasis marks removed, and
 * backslash escapes (`\<name>`, `a\_b`, as HTML pages converted to Markdown write them) read as the
 * character they escape, never as syntax.
 */
function plainProse(text: string): string {
  const escaped: string[] = [];
  const protectedText = text.replace(/\\([!-/:-@[-`{-~])/g, (_escape, char: string) => `\uE000${escaped.push(char) - 1}\uE001`);
  return markup(protectedText).replace(/\uE000(\d+)\uE001/g, (_mark, index: string) => escaped[Number(index)] ?? "");
}

function markup(text: string): string {
  return text
    .replace(/!\[([^\]]*)\]\([^)]*\)/g, "$1")
    .replace(/\[([^\]]+)\]\([^)]*\)/g, "$1")
    .replace(/\[([^\]]+)\]\[[^\]]*\]/g, "$1")
    .replace(/<\/?[A-Za-z][A-Za-z0-9-]*(?:\s[^<>]*)?\/?>/g, "")
    .replace(/(\*\*|__)(?=\S)(.+?)(?<=\S)\1/g, "$2")
    .replace(/\*(?=\S)([^*]+?)(?<=\S)\*/g, "$1")
    .replace(/(^|\s)_(?=\S)([^_]+?)(?<=\S)_(?=\s|$|[.,;:!?])/g, "$1$2");
}

/** Code spans are kept verbatim (with their backticks when `keepCode`): `<key>` in code is not an HTML tag. */
export function inlineToPlain(markdown: string, keepCode = false): string {
  return markdown
    .split(/(`+[^`]+`+)/)
    .map((part, index) =>
      index % 2 === 1 ? (keepCode ? `\`${part.replace(/^`+|`+$/g, "")}\`` : part.replace(/^`+|`+$/g, "")) : plainProse(part),
    )
    .join("")
    .replace(/\s+/g, " ")
    .trim();
}

/** Cuts at a word boundary and marks the cut with an ellipsis. */
export function clip(text: string, max: number): string {
  if (text.length <= max) return text;
  const cut = text.slice(0, max - 1);
  const space = cut.lastIndexOf(" ");
  return `${(space > max * 0.6 ? cut.slice(0, space) : cut).trimEnd()}…`;
}
