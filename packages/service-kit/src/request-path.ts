/**
 * A request's path and query must decode to text our ids can be: malformed percent-encoding (`/v1/scripts/%ZZ`,
 * which express would throw on while matching a route), a control character in the path, or a NUL anywhere (`%00`,
 * which PostgreSQL refuses in any text) is answered 400 `invalid_argument` before any route, key check or query.
 */
import type { RequestHandler } from "express";
import { DomainError, ErrorCode } from "@bancada/contracts";

const controlCharacter = /[\u0000-\u001f\u007f]/;

export function requestPathGuard(): RequestHandler {
  return (req, _res, next) => {
    const problem = pathProblem(req.url);
    if (problem) return next(new DomainError(ErrorCode.invalidArgument, problem));
    next();
  };
}

function pathProblem(url: string): string | undefined {
  // Node's parser refuses raw control characters in a request line: only an escape can bring one
  if (!url.includes("%")) return undefined;
  const queryAt = url.indexOf("?");
  const path = queryAt === -1 ? url : url.slice(0, queryAt);
  let decoded: string;
  try {
    decoded = decodeURIComponent(path);
  } catch {
    return "The request path is not valid percent-encoding (a '%' must be followed by two hex digits of UTF-8): encode each segment with encodeURIComponent.";
  }
  if (controlCharacter.test(decoded)) return "The request path holds a control character (such as %00); no id or name of ours has one.";
  // a query may carry free text (a search with a newline or a tab), but never a NUL
  if (queryAt !== -1 && /%00/.test(url.slice(queryAt))) return "The query string holds a NUL (%00); no parameter of ours takes one.";
  return undefined;
}
