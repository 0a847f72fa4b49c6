/**
 * Document names are `documents/{uri without scheme}` (docs/docs.md#model), e.g.
 * https://docs.cloud.google.com/storage/docs/creating-buckets → documents/docs.cloud.google.com/storage/docs/creating-buckets.
 * URIs are normalised first (lower-case host, no fragment, no trailing slash) so one page has one name.
 */
import { invalidArgument } from "@bancada/contracts";

export interface NamedUri {
  uri: string;
  name: string;
}

export function nameUri(raw: string, field = "uri"): NamedUri {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    throw invalidArgument([{ path: field, message: `'${raw.slice(0, 200)}' is not an absolute http(s) URI` }]);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw invalidArgument([{ path: field, message: `the URI must start with http:// or https:// (got ${url.protocol})` }]);
  }
  url.hash = "";
  url.username = "";
  url.password = "";
  const path = url.pathname.replace(/\/+$/, "");
  const uri = `${url.protocol}//${url.host}${path}${url.search}`;
  return { uri, name: `documents/${url.host}${path}${url.search}` };
}

/** The name prefix of every document under a base URI (for --prune: never touch pages outside it). */
export function namePrefixOf(baseUri: string): string {
  return `${nameUri(baseUri, "baseUri").name}/`;
}
