/** Text or base64 from a call, as bytes, within a byte limit (payload_too_large names the field). */
import { invalidArgument } from "@bancada/contracts";

const base64Pattern = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

export function decodePayload(text: string, encoding: "utf8" | "base64", field: string, maxBytes: number): Buffer {
  if (encoding === "base64" && !base64Pattern.test(text)) {
    throw invalidArgument([{ path: field, message: "is not valid base64 (standard alphabet, padded, no line breaks)" }]);
  }
  const bytes = Buffer.from(text, encoding);
  if (bytes.length > maxBytes) {
    throw invalidArgument([{ path: field, message: `is ${bytes.length} bytes; at most ${maxBytes} bytes (1 MB)`, tooLarge: true }]);
  }
  return bytes;
}

/** UTF-8 text without NUL is answered as text; anything else as base64. */
export function encodeContent(data: Buffer): { content: string; encoding: "utf8" | "base64" } {
  if (!data.includes(0)) {
    try {
      return { content: new TextDecoder("utf-8", { fatal: true }).decode(data), encoding: "utf8" };
    } catch {
      // not UTF-8
    }
  }
  return { content: data.toString("base64"), encoding: "base64" };
}
