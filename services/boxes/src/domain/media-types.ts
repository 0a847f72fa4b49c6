/**
 * A file's media type from its name, for the files a person would rather see than read as base64: images (shown as
 * MCP `image` content by read_file, and typed in a box file resource). Anything else is undefined.
 */
const imageTypes: Record<string, string> = {
  png: "image/png",
  jpg: "image/jpeg",
  jpeg: "image/jpeg",
  gif: "image/gif",
  webp: "image/webp",
  bmp: "image/bmp",
  ico: "image/x-icon",
};

export function imageTypeOf(path: string): string | undefined {
  const extension = /\.([A-Za-z0-9]+)$/.exec(path)?.[1]?.toLowerCase();
  return extension ? imageTypes[extension] : undefined;
}
