/**
 * The media type of an asset comes from its first bytes, not from the name or a header a client
 * sends: what the publishing pipeline checks (videos for TikTok/YouTube) must be what the file is.
 */
export const supportedMedia = ["image/jpeg", "image/png", "image/gif", "image/webp", "video/mp4", "video/quicktime"] as const;
export type MediaType = (typeof supportedMedia)[number];

/** Enough bytes to recognise every supported type. */
export const sniffBytes = 16;

export function sniffMediaType(head: Uint8Array): MediaType | null {
  const ascii = (from: number, to: number) => String.fromCharCode(...head.subarray(from, to));
  if (head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff) return "image/jpeg";
  if (ascii(0, 8) === "\x89PNG\r\n\x1a\n") return "image/png";
  if (ascii(0, 6) === "GIF87a" || ascii(0, 6) === "GIF89a") return "image/gif";
  if (ascii(0, 4) === "RIFF" && ascii(8, 12) === "WEBP") return "image/webp";
  if (ascii(4, 8) === "ftyp") return ascii(8, 12) === "qt  " ? "video/quicktime" : "video/mp4";
  return null;
}

export function isVideo(mime: string): boolean {
  return mime.startsWith("video/");
}
