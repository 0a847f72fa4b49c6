/**
 * REST routes declared once: the route's method and path, the zod schemas its handler parses with, who may call
 * it and a one-line summary. `restRoutes(router)` registers the handler on the express router and keeps the
 * declaration in this module's own book, keyed by the router; `mountRoutes(parent, ...routers)` mounts routers
 * and notes that the parent now serves theirs. The OpenAPI document (openapi.ts) is read from that book alone.
 * What express really answers is checked against it separately (route-table.ts).
 */
import type { Request, RequestHandler, Response, NextFunction, Router } from "express";
import type { z } from "zod";
import type { Access } from "@bancada/contracts";

export const routeMethods = ["get", "post", "put", "patch", "delete"] as const;
export type RouteMethod = (typeof routeMethods)[number];

/**
 * Who may call a route: the tool it mirrors or its `restAccess` (a key with that scope, and writes when it
 * writes), `"key"` any working key, `"admin"` the operator's admin token, `"signed"` no key but a signed link, `"public"` anyone.
 */
export type RouteCaller = Access | "key" | "admin" | "signed" | "public";

export interface RouteDeclaration {
  summary: string;
  description?: string;
  /** Who may call it; the handler checks the same access (authorizedPrincipal). */
  access: RouteCaller;
  /** The path parameters' schema (else each `:name` is a plain string). */
  params?: z.ZodType;
  /** The query string's schema (an object). */
  query?: z.ZodType;
  /**
   * The JSON body's schema: the one the handler parses with. Fields the route fills itself (path parameters
   * always, header values named in `notInBody`) are left out of the document's body. `"bytes"`: a raw body.
   */
  body?: z.ZodType | "bytes";
  notInBody?: readonly string[];
  /** Request headers the route reads (name → what to send). */
  headers?: Readonly<Record<string, string>>;
  /** The success status (200 unless said) and what it answers. */
  status?: number;
  response?: z.ZodType | "bytes";
  responseDescription?: string;
}

/** The `:name` parameters of an express path, as express's own route typing reads them. */
type PathParams<Path extends string> = Path extends `${string}:${infer Name}/${infer Rest}`
  ? { [K in Name]: string } & PathParams<`/${Rest}`>
  : Path extends `${string}:${infer Name}`
    ? { [K in Name]: string }
    : Record<string, string>;

type Handler<Path extends string> = (req: Request<PathParams<Path>>, res: Response, next: NextFunction) => unknown;
type Declare = <Path extends string>(path: Path, declaration: RouteDeclaration, ...handlers: Handler<Path>[]) => void;

export interface RestRoutes {
  get: Declare;
  post: Declare;
  put: Declare;
  patch: Declare;
  delete: Declare;
}

/** A declared route: its method, its path as express matches it, and what the declaration says. */
export interface DeclaredRoute {
  method: RouteMethod;
  path: string;
  declaration: RouteDeclaration;
}

/** Per router (or app), in the order they were made: its own declared routes and the routers it mounts at its root. */
const book = new WeakMap<object, (DeclaredRoute | { mounted: object })[]>();

function note(router: object, entry: DeclaredRoute | { mounted: object }): void {
  const entries = book.get(router);
  if (entries) entries.push(entry);
  else book.set(router, [entry]);
}

/** Declares routes on `router`: `restRoutes(router).get("/v1/things", { summary, access, query }, handler)`. */
export function restRoutes(router: Pick<Router, "route">): RestRoutes {
  const declare =
    (method: RouteMethod): Declare =>
    (path, declaration, ...handlers) => {
      const route = router.route(path) as unknown as Record<RouteMethod, (...h: RequestHandler[]) => void>;
      route[method](...(handlers as unknown as RequestHandler[]));
      note(router, { method, path, declaration });
    };
  return { get: declare("get"), post: declare("post"), put: declare("put"), patch: declare("patch"), delete: declare("delete") };
}

/** `parent.use(...routers)`, remembering that `parent` now serves the routes declared on them (at its root). */
export function mountRoutes(parent: Pick<Router, "use">, ...routers: RequestHandler[]): void {
  parent.use(...routers);
  for (const router of routers) note(parent, { mounted: router });
}

/**
 * Every route declared on `sources` and the routers mounted in them, in the order they were declared; a method
 * and path declared twice keeps its first declaration, as express answers with the first route that matches.
 */
export function declaredRoutes(sources: readonly object[]): DeclaredRoute[] {
  const seen = new Set<string>();
  const out: DeclaredRoute[] = [];
  const walk = (router: object): void => {
    for (const entry of book.get(router) ?? []) {
      if ("mounted" in entry) walk(entry.mounted);
      else if (!seen.has(`${entry.method} ${entry.path}`)) {
        seen.add(`${entry.method} ${entry.path}`);
        out.push(entry);
      }
    }
  };
  for (const source of sources) walk(source);
  return out;
}
