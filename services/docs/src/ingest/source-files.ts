/**
 * The files of a documentation folder and what each becomes: a document source with its URI, or a
 * reason to skip it. Nothing here throws for one bad file: a large, binary or unreadable file is
 * skipped with a reason and the run goes on.
 */
import { lstat, readdir, readFile } from "node:fs/promises";
import path from "node:path";
import type { DocumentSource } from "../domain/prepare-document.js";

const fileSizeMax = 1024 * 1024;
const formats: Record<string, DocumentSource["format"]> = {
  ".md": "markdown",
  ".markdown": "markdown",
  ".mdx": "markdown",
  ".html": "html",
  ".htm": "html",
};

/** The file extensions ingested (any case). */
export const documentExtensions = Object.keys(formats);

/** Markdown and HTML files under `folder`, sorted; hidden folders, node_modules and symbolic links are not followed. */
export async function documentFiles(folder: string): Promise<{ files: string[]; ignored: number }> {
  const files: string[] = [];
  let ignored = 0;
  const visit = async (dir: string): Promise<void> => {
    const entries = await readdir(dir, { withFileTypes: true });
    for (const entry of entries.sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) {
        if (!entry.name.startsWith(".") && entry.name !== "node_modules") await visit(full);
      } else if (entry.isFile() && formats[path.extname(entry.name).toLowerCase()]) files.push(full);
      else ignored++;
    }
  };
  await visit(folder);
  return { files, ignored };
}

/** guide/intro.md → {base}/guide/intro; guide/index.md and guide/README.md → {base}/guide. */
export function uriOfFile(baseUri: string, folder: string, file: string): string {
  const relative = path.relative(folder, file).split(path.sep).join("/");
  const withoutExtension = relative.slice(0, relative.length - path.extname(relative).length);
  const parts = withoutExtension.split("/");
  if (/^(index|readme)$/i.test(parts.at(-1) ?? "")) parts.pop();
  const suffix = parts.map(encodeURIComponent).join("/");
  return suffix ? `${baseUri.replace(/\/+$/, "")}/${suffix}` : baseUri.replace(/\/+$/, "");
}

export type SourceFile = { ok: true; source: DocumentSource } | { ok: false; reason: string };

export async function readSourceFile(file: string, uri: string): Promise<SourceFile> {
  try {
    const info = await lstat(file);
    if (info.size > fileSizeMax) return { ok: false, reason: `larger than 1 MiB (${info.size} bytes)` };
    const bytes = await readFile(file);
    if (bytes.includes(0)) return { ok: false, reason: "binary file (contains NUL bytes)" };
    let text: string;
    try {
      text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
    } catch {
      return { ok: false, reason: "not UTF-8 text" };
    }
    return { ok: true, source: { uri, content: text, format: formats[path.extname(file).toLowerCase()] ?? "markdown" } };
  } catch (error) {
    return { ok: false, reason: `cannot be read: ${(error as Error).message}` };
  }
}
