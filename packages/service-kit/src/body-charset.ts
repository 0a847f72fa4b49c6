/**
 * JSON travels in UTF-8 (RFC 8259): a body declared in another charset is refused with 415 before anything
 * reads it or asks who sent it, on `/mcp` and the REST routes alike, instead of being decoded wrongly or
 * failing deep inside a parser.
 */
import type { RequestHandler } from "express";

const charsetParameter = /;\s*charset\s*=\s*"?([^";\s]*)"?/i;

export function utf8BodyGuard(): RequestHandler {
  return (req, _res, next) => {
    const charset = charsetParameter.exec(req.headers["content-type"] ?? "")?.[1]?.toLowerCase();
    if (charset === undefined || charset === "utf-8" || charset === "utf8") return next();
    // the body parser's own refusal, so the one error handler words and logs it (restErrorHandler: 415)
    next(Object.assign(new Error(`unsupported charset ${charset}`), { type: "charset.unsupported", charset }));
  };
}
