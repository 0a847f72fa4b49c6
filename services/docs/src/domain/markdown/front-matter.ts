/** YAML front matter (`---` … `---` at the very top), as static-site generators write it. */
import { parse } from "yaml";
import { invalidArgument } from "@bancada/contracts";

export interface FrontMatter {
  data: Record<string, unknown>;
  body: string;
}

const block = /^\uFEFF?---[ \t]*\r?\n([\s\S]*?)\r?\n(?:---|\.\.\.)[ \t]*(?:\r?\n|$)/;

export function splitFrontMatter(source: string): FrontMatter {
  const match = block.exec(source);
  if (!match) return { data: {}, body: source.replace(/^\uFEFF/, "") };
  let data: unknown;
  try {
    data = parse(match[1] ?? "");
  } catch (error) {
    throw invalidArgument([{ path: "content", message: `the front matter is not valid YAML: ${(error as Error).message.split("\n")[0]}` }]);
  }
  return { data: isRecord(data) ? data : {}, body: source.slice(match[0].length) };
}

/** A front-matter field as text, when it is a non-empty string. */
export function textField(data: Record<string, unknown>, ...keys: string[]): string | undefined {
  for (const key of keys) {
    const value = data[key];
    if (typeof value === "string" && value.trim()) return value.trim();
  }
  return undefined;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
