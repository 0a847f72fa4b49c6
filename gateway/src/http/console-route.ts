/**
 * The web console at `/`: the files Vite built (`console/dist`), under a strict Content Security Policy — scripts,
 * styles and requests from this origin only, nothing inline, never framed. The built files are not in the
 * repository; without them `/` says how to build them instead of answering 404.
 */
import { existsSync } from "node:fs";
import path from "node:path";
import express, { type RequestHandler, type Response, type Router } from "express";
import { hostGuard, type GuardOptions } from "@bancada/service-kit";

const consoleCsp = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "manifest-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join("; ");

const notBuilt =
  "The web console is not built. Build it with 'pnpm install' (it builds at install) or 'pnpm build' in the repository, then reload.\n";

function secure(res: Response): void {
  res.setHeader("Content-Security-Policy", consoleCsp);
  res.setHeader("X-Content-Type-Options", "nosniff");
  res.setHeader("X-Frame-Options", "DENY");
  res.setHeader("Referrer-Policy", "no-referrer");
  res.setHeader("Cross-Origin-Opener-Policy", "same-origin");
  res.setHeader("Cross-Origin-Resource-Policy", "same-origin");
}

/** The console's page (index.html), at `/` and at any path the page itself reads, such as the OAuth consent URL. */
export function consolePage(dir: string | undefined): RequestHandler {
  const index = dir ? path.join(dir, "index.html") : undefined;
  return (_req, res) => {
    secure(res);
    res.setHeader("Cache-Control", "no-store");
    if (!index || !existsSync(index)) return void res.status(503).type("text/plain").send(notBuilt);
    res.sendFile(index);
  };
}

/** `dir` is the built console (its index.html and assets/); undefined or missing answers the build hint. */
export function consoleRoute(dir: string | undefined, guards: GuardOptions): Router {
  const router = express.Router();
  const page = consolePage(dir);
  router.get(["/", "/index.html"], hostGuard(guards), page);
  if (dir) {
    // file names carry a content hash: a build never changes a file under the same name
    const assets = express.static(path.join(dir, "assets"), {
      index: false,
      immutable: true,
      maxAge: "365d",
      setHeaders: secure,
    });
    router.use("/assets", hostGuard(guards), assets);
    router.get("/favicon.svg", hostGuard(guards), (_req, res, next) => {
      secure(res);
      res.sendFile(path.join(dir, "favicon.svg"), (error) => error && next());
    });
  }
  return router;
}
